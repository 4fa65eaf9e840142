import { HeightIndex, anchorAt, bottomScrollTop, scrollTopOf, visibleRange, type ItemRange, type ScrollAnchor } from './virtualWindow';

/** Supplies the list's items: their count, a height estimate, and the element of one item (created or updated). */
export interface VirtualListSource {
  count(): number;
  estimate(index: number, width: number): number;
  /** Creates or updates the view of item `index`; returns its root (a new root replaces the old one in the DOM). */
  render(index: number): HTMLElement;
  /** Item `index` left the DOM: its view may be dropped. */
  release(index: number): void;
}

export interface ListChange {
  reset: boolean;
  items: ReadonlySet<number>;
  length: boolean;
}

export interface ListPosition {
  index: number;
  offset: number;
  stick: boolean;
}

/** Pixels rendered above and below the viewport, so scrolling a little never shows a gap. */
const OVERSCAN_PX = 900;
/** Within this distance from the end the list counts as scrolled to the bottom and follows new content. */
const STICK_THRESHOLD_PX = 40;
const MAX_MOUNT_PASSES = 4;

/**
 * A virtualized vertical list: only items near the viewport are in the DOM, between two spacers sized from measured
 * (or estimated) heights. Height changes above the viewport keep the visible content still (a scroll anchor); while
 * "stuck" to the bottom the list follows new content, until the user scrolls up.
 */
export class VirtualList {
  readonly scroller: HTMLElement;
  private readonly topSpacer: HTMLElement;
  private readonly itemsEl: HTMLElement;
  private readonly bottomSpacer: HTMLElement;
  private readonly heights = new HeightIndex();
  private readonly mounted = new Map<number, HTMLElement>();
  private readonly resizeObserver: ResizeObserver;
  private range: ItemRange = { start: 0, end: 0 };
  private stuck = true;
  private lastSetScrollTop = 0;
  /**
   * The scroll position and viewport size as last seen in a scroll event, a ResizeObserver entry or our own write:
   * reading them from the scroller in a frame would force a synchronous layout (the list renders in animation frames,
   * after DOM changes), which in a webview nested in the workbench is costly. Reads happen only in a scroll event.
   */
  private scrollTop = 0;
  private viewport: { width: number; height: number } | undefined;
  private pendingAnchor: ScrollAnchor | undefined;

  constructor(
    scroller: HTMLElement,
    private readonly source: VirtualListSource,
    /** Asks for a frame in which `update` runs (scrolling or a resize may need more items mounted). */
    private readonly requestLayout: () => void,
    private readonly onStickChange: (stuck: boolean) => void,
  ) {
    this.scroller = scroller;
    const doc = scroller.ownerDocument;
    this.topSpacer = doc.createElement('div');
    this.itemsEl = doc.createElement('div');
    this.bottomSpacer = doc.createElement('div');
    this.topSpacer.className = 'vl-spacer';
    this.itemsEl.className = 'vl-items';
    this.bottomSpacer.className = 'vl-spacer';
    scroller.append(this.topSpacer, this.itemsEl, this.bottomSpacer);
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    // The viewport itself resizing (panel dragged, view shown) can uncover unmounted items.
    this.resizeObserver.observe(scroller);
    this.listenForUserScrolling();
  }

  /** Where the list is scrolled, to restore it later (`restore`). */
  position(): ListPosition {
    const anchor = anchorAt(this.heights, this.scrollTop);
    return { ...anchor, stick: this.stuck };
  }

  /** Applies at the next `update`. */
  restore(position: ListPosition): void {
    this.scrollTop = this.scroller.scrollTop;
    this.lastSetScrollTop = this.scrollTop;
    this.setStuck(position.stick);
    this.pendingAnchor = position.stick ? undefined : { index: position.index, offset: position.offset };
  }

  scrollToBottom(): void {
    this.setStuck(true);
    this.requestLayout();
  }

  /** Brings the list in line with the source after `change`; call once per frame. */
  update(change: ListChange = { reset: false, items: new Set(), length: false }): void {
    if (change.reset) this.clear();
    const anchor = this.pendingAnchor ?? (this.stuck ? undefined : anchorAt(this.heights, this.scrollTop));
    this.pendingAnchor = undefined;
    const width = this.viewportSize().width;
    const count = this.source.count();
    if (count !== this.heights.count) this.heights.resize(count, (i) => this.source.estimate(i, width));
    for (const i of [...this.mounted.keys()]) if (i >= count) this.unmount(i);
    const dirty: number[] = [];
    for (const i of change.items) {
      if (i >= count) continue;
      if (this.mounted.has(i)) dirty.push(i);
      else this.heights.reestimate(i, this.source.estimate(i, width));
    }
    for (const i of dirty) this.rerender(i);
    this.observeAfresh(dirty);
    this.mountForViewport(anchor);
    this.applySpacers();
    this.scrollTo(anchor);
  }

  private clear(): void {
    for (const i of [...this.mounted.keys()]) this.unmount(i);
    this.heights.resize(0, () => 0);
    this.range = { start: 0, end: 0 };
  }

  private mountForViewport(anchor: ScrollAnchor | undefined): void {
    const viewport = this.viewportSize().height;
    for (let pass = 0; pass < MAX_MOUNT_PASSES; pass++) {
      const top = anchor ? scrollTopOf(this.heights, anchor) : bottomScrollTop(this.heights, viewport);
      this.range = visibleRange(this.heights, top, viewport, OVERSCAN_PX);
      const added = this.mountRange(this.range);
      if (added.length === 0 || !this.measure(added)) break;
    }
  }

  /** Mounts the items of `range` that are missing and unmounts the rest; returns the newly mounted indexes. */
  private mountRange(range: ItemRange): number[] {
    for (const i of [...this.mounted.keys()]) if (i < range.start || i >= range.end) this.unmount(i);
    const added: number[] = [];
    let previous: HTMLElement | undefined;
    for (let i = range.start; i < range.end; i++) {
      let el = this.mounted.get(i);
      if (!el) {
        el = this.source.render(i);
        el.dataset.vindex = String(i);
        if (previous) previous.after(el);
        else this.itemsEl.prepend(el);
        this.mounted.set(i, el);
        this.resizeObserver.observe(el);
        added.push(i);
      }
      previous = el;
    }
    return added;
  }

  private rerender(index: number): void {
    const old = this.mounted.get(index)!;
    const el = this.source.render(index);
    if (el === old) return;
    el.dataset.vindex = String(index);
    old.replaceWith(el);
    this.resizeObserver.unobserve(old);
    this.resizeObserver.observe(el);
    this.mounted.set(index, el);
  }

  private unmount(index: number): void {
    const el = this.mounted.get(index);
    if (!el) return;
    this.resizeObserver.unobserve(el);
    el.remove();
    this.mounted.delete(index);
    this.source.release(index);
  }

  /** The scroller's client size: read once, then kept from its ResizeObserver entries. */
  private viewportSize(): { width: number; height: number } {
    this.viewport ??= { width: this.scroller.clientWidth, height: this.scroller.clientHeight };
    return this.viewport;
  }

  /**
   * Re-rendered items report their new height through the ResizeObserver, after this frame's own layout: reading it
   * here would force a layout per streamed patch. Observing afresh makes the observer report even an unchanged height
   * (see `measure`), so a short reading never stays in the index.
   */
  private observeAfresh(indexes: readonly number[]): void {
    for (const i of indexes) {
      const el = this.mounted.get(i);
      if (!el) continue;
      this.resizeObserver.unobserve(el);
      this.resizeObserver.observe(el);
    }
  }

  /**
   * Reads the heights of newly mounted items (one layout for all), to know whether the viewport needs more of them;
   * true when any differed from what was known.
   * This read can come before the item's custom elements have rendered (vscode-button and vscode-badge fill their
   * shadow DOM a microtask later), so it may be short of the settled height. Observing the item afresh makes the
   * ResizeObserver report the settled height in this frame; without that it stays silent whenever the settled height
   * equals the one it reported before (a card re-rendered in place), and the short reading would stay in the index:
   * the list would then scroll "to the bottom" short of the real end and pull back anyone who scrolls there.
   */
  private measure(indexes: readonly number[]): boolean {
    let changed = false;
    for (const i of indexes) {
      const el = this.mounted.get(i);
      if (!el) continue;
      if (this.heights.setMeasured(i, el.getBoundingClientRect().height) !== 0) changed = true;
      this.resizeObserver.unobserve(el);
      this.resizeObserver.observe(el);
    }
    return changed;
  }

  /** Writes spacer heights only when they change: an unchanged write would still invalidate layout. */
  private applySpacers(): void {
    const top = `${this.heights.offsetOf(this.range.start)}px`;
    const bottom = `${this.heights.total() - this.heights.offsetOf(this.range.end)}px`;
    if (this.topSpacer.style.height !== top) this.topSpacer.style.height = top;
    if (this.bottomSpacer.style.height !== bottom) this.bottomSpacer.style.height = bottom;
  }

  private scrollTo(anchor: ScrollAnchor | undefined): void {
    const viewport = this.viewportSize().height;
    // Where the browser clamps the write to, computed rather than read back (a read after the write forces a layout).
    const target = Math.max(0, Math.min(anchor ? scrollTopOf(this.heights, anchor) : Infinity, bottomScrollTop(this.heights, viewport)));
    if (Math.abs(this.scrollTop - target) >= 1) this.scroller.scrollTop = target;
    this.scrollTop = target;
    this.lastSetScrollTop = target;
  }

  /** Items changed size after rendering (a card opened, the width changed): keep the view still, mount more if needed. */
  private onResize(entries: readonly ResizeObserverEntry[]): void {
    const anchor = this.stuck ? undefined : anchorAt(this.heights, this.scrollTop);
    let changed = false;
    for (const entry of entries) {
      const el = entry.target as HTMLElement;
      if (el === this.scroller) {
        this.viewport = { width: entry.contentRect.width, height: entry.contentRect.height };
        changed = true;
        continue;
      }
      const index = Number(el.dataset.vindex);
      if (this.mounted.get(index) !== el) continue;
      const height = entry.borderBoxSize?.[0]?.blockSize ?? el.getBoundingClientRect().height;
      if (this.heights.setMeasured(index, height) !== 0) changed = true;
    }
    if (!changed) return;
    this.applySpacers();
    this.scrollTo(anchor);
    this.requestLayout();
  }

  /**
   * A scroll position we did not set is the user's (scrollbar, keyboard, wheel, find-in-page): it decides whether the
   * list still follows new content. Runs in the scroll event, which a frame's scroll steps dispatch before its
   * animation-frame callbacks, so the list's render always sees the user's position.
   */
  private noticeForeignScroll(): boolean {
    const scroller = this.scroller;
    this.scrollTop = scroller.scrollTop;
    if (Math.abs(this.scrollTop - this.lastSetScrollTop) <= 1) return false;
    this.setStuck(scroller.scrollHeight - this.scrollTop - scroller.clientHeight <= STICK_THRESHOLD_PX);
    this.lastSetScrollTop = this.scrollTop;
    return true;
  }

  private listenForUserScrolling(): void {
    const scroller = this.scroller;
    // Our own scrolling already laid out the range it shows; only someone else's needs a new layout.
    scroller.addEventListener(
      'scroll',
      () => {
        if (this.noticeForeignScroll()) this.requestLayout();
      },
      { passive: true },
    );
    // Scrolling up must win over following new content even before the scroll event arrives.
    scroller.addEventListener(
      'wheel',
      (event) => {
        if (event.deltaY < 0 && this.scrollTop > 0) this.setStuck(false);
      },
      { passive: true },
    );
    scroller.addEventListener('keydown', (event) => {
      if (['PageUp', 'ArrowUp', 'Home'].includes(event.key)) this.setStuck(false);
    });
  }

  private setStuck(stuck: boolean): void {
    if (stuck === this.stuck) return;
    this.stuck = stuck;
    this.onStickChange(stuck);
  }
}

import type { SessionState } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { codicon, h } from '../infra/dom';
import { delegateContentClicks } from './contentClicks';
import type { ItemContext, ItemView } from './itemView';
import { createMainFlowView, estimateItemHeight, itemKey } from './itemViews';
import { markdownFontSample } from '../markdown/fontSample';
import { isFirstRun } from '../welcome/welcome';
import type { StateChange } from '../state/store';
import { VirtualList, type ListPosition } from './virtualList';

/**
 * The conversation: a virtualized list of item views, re-rendering only the items a patch touched. Clicks on links,
 * file chips and code-block buttons are handled here, once, by delegation.
 */
export class TranscriptView {
  readonly root: HTMLElement;
  private readonly list: VirtualList;
  private readonly views = new Map<number, { key: string; view: ItemView }>();
  private readonly jumpButton: HTMLElement;
  private readonly empty: HTMLElement;
  private state: SessionState | undefined;

  constructor(
    private readonly ctx: ItemContext,
    requestLayout: () => void,
    onScrolled: () => void,
  ) {
    const scroller = h('div', {
      class: 'transcript',
      'data-testid': TEST_IDS.transcript,
      role: 'log',
      'aria-live': 'polite',
      'aria-relevant': 'additions',
      'aria-label': 'Conversation',
      tabindex: '0',
    });
    this.jumpButton = h(
      'button',
      { type: 'button', class: 'jump-latest', hidden: true, 'aria-label': 'Jump to latest message' },
      codicon('arrow-down'),
      ' Jump to latest',
    );
    this.jumpButton.addEventListener('click', () => this.list.scrollToBottom());
    this.empty = h(
      'div',
      { class: 'transcript-empty', hidden: true },
      h('div', { class: 'empty-title' }, 'What should we build?'),
      h('div', {}, 'Type / for commands, @ to mention a file; paste images to attach them.'),
    );
    this.root = h('div', { class: 'transcript-wrap' }, scroller, this.empty, this.jumpButton, markdownFontSample(document));
    this.list = new VirtualList(
      scroller,
      {
        count: () => this.state?.items.length ?? 0,
        estimate: (i, width) => (this.state ? estimateItemHeight(this.state.items[i], width) : 40),
        render: (i) => this.renderItem(i),
        release: (i) => this.releaseItem(i),
      },
      requestLayout,
      (stuck) => (this.jumpButton.hidden = stuck),
    );
    delegateContentClicks(scroller, ctx.post);
    scroller.addEventListener('scroll', onScrolled, { passive: true });
  }

  get position(): ListPosition {
    return this.list.position();
  }

  restore(position: ListPosition): void {
    this.list.restore(position);
  }

  focus(): void {
    this.list.scroller.focus();
  }

  update(state: SessionState, change: StateChange): void {
    this.state = state;
    if (change.reset) {
      for (const entry of this.views.values()) entry.view.dispose?.();
      this.views.clear();
    }
    this.list.update(change);
    this.empty.hidden = state.items.length > 0 || isFirstRun(state);
  }

  /** A frame with no state change (scrolling, resizing): mount what came into view. */
  relayout(): void {
    if (this.state) this.list.update();
  }

  private renderItem(index: number): HTMLElement {
    const item = this.state!.items[index];
    const key = itemKey(item);
    let entry = this.views.get(index);
    if (!entry || entry.key !== key) {
      entry?.view.dispose?.();
      entry = { key, view: createMainFlowView(item, this.ctx) };
      this.views.set(index, entry);
    }
    entry.view.update(item);
    return entry.view.root;
  }

  private releaseItem(index: number): void {
    this.views.get(index)?.view.dispose?.();
    this.views.delete(index);
  }
}

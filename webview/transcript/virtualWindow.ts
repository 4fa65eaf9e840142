/**
 * The window math of the virtualized transcript: item heights (measured, or estimated until an item has been in the
 * DOM), their offsets, which items cover the viewport, and the scroll anchor that keeps the view still when heights
 * above it change. Pure: no DOM.
 */
export class HeightIndex {
  private heights: number[] = [];
  private measured: boolean[] = [];
  private offsets: number[] = [0];
  /** Offsets from this index on are stale. */
  private staleFrom = 0;

  get count(): number {
    return this.heights.length;
  }

  /** Grows (estimating new items) or shrinks to `count` items; heights of kept items stay. */
  resize(count: number, estimate: (index: number) => number): void {
    const old = this.heights.length;
    this.heights.length = count;
    this.measured.length = count;
    for (let i = old; i < count; i++) {
      this.heights[i] = Math.max(1, estimate(i));
      this.measured[i] = false;
    }
    this.markStale(Math.min(old, count));
  }

  /** Forgets the measured height of an item whose content was replaced. */
  reestimate(index: number, height: number): void {
    if (index >= this.heights.length) return;
    this.heights[index] = Math.max(1, height);
    this.measured[index] = false;
    this.markStale(index);
  }

  /** Records a measured height; returns how much the item grew (negative when it shrank). */
  setMeasured(index: number, height: number): number {
    if (index >= this.heights.length) return 0;
    const delta = height - this.heights[index];
    this.measured[index] = true;
    if (delta !== 0) {
      this.heights[index] = height;
      this.markStale(index);
    }
    return delta;
  }

  isMeasured(index: number): boolean {
    return this.measured[index] === true;
  }

  heightOf(index: number): number {
    return this.heights[index] ?? 0;
  }

  offsetOf(index: number): number {
    this.refresh();
    return this.offsets[Math.max(0, Math.min(index, this.heights.length))];
  }

  total(): number {
    return this.offsetOf(this.heights.length);
  }

  /** The item at vertical position `y` (clamped to the list). */
  indexAt(y: number): number {
    this.refresh();
    const n = this.heights.length;
    if (n === 0) return 0;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private markStale(index: number): void {
    this.staleFrom = Math.min(this.staleFrom, index);
  }

  private refresh(): void {
    const n = this.heights.length;
    if (this.staleFrom > n && this.offsets.length === n + 1) return;
    this.offsets.length = n + 1;
    for (let i = Math.max(0, this.staleFrom); i < n; i++) this.offsets[i + 1] = this.offsets[i] + this.heights[i];
    this.staleFrom = Number.POSITIVE_INFINITY;
  }
}

export interface ItemRange {
  start: number;
  end: number; /* exclusive */
}

/** The items that intersect the viewport widened by `overscan` pixels on each side. */
export function visibleRange(index: HeightIndex, scrollTop: number, viewportHeight: number, overscan: number): ItemRange {
  if (index.count === 0) return { start: 0, end: 0 };
  const start = index.indexAt(Math.max(0, scrollTop - overscan));
  const end = index.indexAt(scrollTop + viewportHeight + overscan) + 1;
  return { start, end: Math.min(end, index.count) };
}

/** A scroll position expressed as an item and a distance into it, so it survives height changes above. */
export interface ScrollAnchor {
  index: number;
  offset: number;
}

export function anchorAt(index: HeightIndex, scrollTop: number): ScrollAnchor {
  const i = index.indexAt(scrollTop);
  return { index: i, offset: scrollTop - index.offsetOf(i) };
}

export function scrollTopOf(index: HeightIndex, anchor: ScrollAnchor): number {
  if (index.count === 0) return 0;
  const i = Math.min(anchor.index, index.count - 1);
  return index.offsetOf(i) + Math.min(anchor.offset, index.heightOf(i));
}

/** The scroll position that shows the end of the list. */
export function bottomScrollTop(index: HeightIndex, viewportHeight: number): number {
  return Math.max(0, index.total() - viewportHeight);
}

/**
 * Coalesces work to one callback per animation frame: every `mark` before the frame merges into one pending value that
 * the frame's `flush` receives. Streaming at 1,000 deltas/s thus costs one render per frame, not one per delta.
 */
export class FrameCoalescer<T> {
  private pending: T | undefined;
  private scheduled = false;

  constructor(
    private readonly requestFrame: (callback: () => void) => unknown,
    private readonly merge: (a: T, b: T) => T,
    private readonly flush: (value: T) => void,
  ) {}

  mark(value: T): void {
    this.pending = this.pending === undefined ? value : this.merge(this.pending, value);
    if (this.scheduled) return;
    this.scheduled = true;
    this.requestFrame(() => this.runFrame());
  }

  /** Whether a frame is scheduled and has work waiting. */
  get hasPending(): boolean {
    return this.pending !== undefined;
  }

  private runFrame(): void {
    this.scheduled = false;
    const value = this.pending;
    this.pending = undefined;
    if (value !== undefined) this.flush(value);
  }
}

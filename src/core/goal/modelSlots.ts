/** Per-model caps on a goal's concurrent workers (`model_concurrency[m]`, else the goal's concurrency), as upstream's semaphores. */
export class ModelSlots {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(
    private readonly caps: Readonly<Record<string, number>>,
    private readonly fallback: number,
  ) {}

  /** Resolves with the release once `model` has a free slot. */
  async acquire(model: string): Promise<() => void> {
    if ((this.running.get(model) ?? 0) >= (this.caps[model] ?? this.fallback)) {
      await new Promise<void>((resolve) => this.queue(model).push(resolve));
    } else {
      this.running.set(model, (this.running.get(model) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue(model).shift();
      // The slot passes straight to the next waiter; only without one does the count drop.
      if (next) next();
      else this.running.set(model, (this.running.get(model) ?? 1) - 1);
    };
  }

  private queue(model: string): Array<() => void> {
    let q = this.waiting.get(model);
    if (!q) this.waiting.set(model, (q = []));
    return q;
  }
}

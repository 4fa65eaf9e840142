export interface RestartPolicyOptions {
  /** Crashes tolerated within `windowMs` before giving up. */
  maxRestarts?: number;
  windowMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
}

/**
 * Bounded backoff for restarting a crashed core: delays double from `baseDelayMs` up to `maxDelayMs`, and after
 * `maxRestarts` crashes within `windowMs` it gives up. A completed turn proves the core healthy and starts over
 * (upstream's TUI resets its counter after each `done`).
 */
export class RestartPolicy {
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly now: () => number;
  private crashes: number[] = [];

  constructor(o: RestartPolicyOptions = {}) {
    this.maxRestarts = o.maxRestarts ?? 5;
    this.windowMs = o.windowMs ?? 5 * 60_000;
    this.baseDelayMs = o.baseDelayMs ?? 500;
    this.maxDelayMs = o.maxDelayMs ?? 10_000;
    this.now = o.now ?? Date.now;
  }

  /** Records a crash; returns how long to wait before restarting, or undefined to give up. */
  nextDelay(): number | undefined {
    const now = this.now();
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    const streak = this.crashes.length;
    if (streak > this.maxRestarts) return undefined;
    return Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (streak - 1));
  }

  /** The core completed a turn (or the user restarted it): forget earlier crashes. */
  recordHealthy(): void {
    this.crashes = [];
  }

  /** Crashes counted in the current window. */
  get recentCrashes(): number {
    const now = this.now();
    return this.crashes.filter((t) => now - t < this.windowMs).length;
  }
}

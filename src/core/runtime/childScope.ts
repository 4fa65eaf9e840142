import { newResourceId } from './ids';
import type { RunScope } from './runScope';

/**
 * One child run (a subagent, or a parallel batch / chain that groups children) inside a foreground run: its events keep
 * its own run_id but count their sequence against the root, and go stale when it or anything above it is cancelled.
 */
export class ChildScope {
  readonly controller = new AbortController();
  readonly startedAt = Date.now();
  /** The run's id in `runtime_status.resources` (kind `subagent`). */
  readonly resourceId = newResourceId();
  private readonly unfollow: () => void;

  constructor(
    readonly runId: string,
    readonly parentRunId: string,
    readonly root: RunScope,
    /** The intercom target and approval key (`subagentTarget`); empty for a batch or chain. */
    readonly target: string,
    readonly depth: number,
    /** The parent's signal (the root's, or the parent child's); this child aborts with it. */
    parentSignal: AbortSignal,
  ) {
    this.unfollow = follow(parentSignal, this.controller);
  }

  /** The run ended: it no longer listens to its parent's signal. */
  release(): void {
    this.unfollow();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get sessionId(): string {
    return this.root.sessionId;
  }

  get cancelled(): boolean {
    return this.controller.signal.aborted || this.root.cancelled;
  }

  cancel(reason = 'cancelled'): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error(`subagent ${this.runId} ${reason}`));
  }
}

/** Aborts `controller` when `signal` does (at once if it already has); returns how to stop listening. */
export function follow(signal: AbortSignal, controller: AbortController): () => void {
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => undefined;
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const unfollow = () => signal.removeEventListener('abort', onAbort);
  controller.signal.addEventListener('abort', unfollow, { once: true });
  return unfollow;
}

import type { CancellationReason, CancelledRun } from '../../protocol';
import { newRunId } from './ids';
import { RunScope } from './runScope';

export interface QueuedPrompt {
  prompt: string;
  model: string;
  provider?: string;
  reasoning_effort?: string;
  images?: string[];
}

/**
 * One foreground run at a time (research §1.1 and §1.3): a new run starts only after the previous one has settled, a
 * cancelled run's scope goes stale at once, and one prompt may wait in the queue.
 */
export class RunCoordinator {
  private current: RunScope | undefined;
  private settled: Promise<void> = Promise.resolve();
  queued: QueuedPrompt | undefined;
  lastCancellation: CancelledRun | undefined;

  get active(): RunScope | undefined {
    return this.current;
  }

  /** Starts `body` in a fresh run scope once the previous run has finished unwinding. */
  start(sessionId: string, kind: string, body: (scope: RunScope) => Promise<void>): RunScope {
    const scope = new RunScope(sessionId, newRunId(), kind);
    this.current = scope;
    const previous = this.settled;
    this.settled = (async () => {
      await previous;
      if (!scope.cancelled) await body(scope);
    })()
      .catch(() => undefined)
      .finally(() => {
        if (this.current === scope) this.current = undefined;
      });
    return scope;
  }

  /** Cancels the active run; its later events become stale. Returns the cancelled scope. */
  cancel(reason: CancellationReason): RunScope | undefined {
    const scope = this.current;
    if (!scope) return undefined;
    scope.cancel(reason);
    this.current = undefined;
    this.lastCancellation = { session_id: scope.sessionId, run_id: scope.runId, reason };
    return scope;
  }

  /** Resolves when every started run has finished unwinding. */
  idle(): Promise<void> {
    return this.settled;
  }
}

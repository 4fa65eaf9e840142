import type { CancellationReason } from '../../protocol';
import { newResourceId } from './ids';

/** The identity of one foreground run: events inside it carry run_id and a per-run sequence; once cancelled, its events are stale. */
export class RunScope {
  readonly controller = new AbortController();
  private nextSequence = 1;
  cancelReason: CancellationReason | undefined;
  readonly startedAt = Date.now();
  /** The run's id in `runtime_status.resources`. */
  readonly resourceId = newResourceId();

  constructor(
    readonly sessionId: string,
    readonly runId: string,
    readonly kind: string,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.cancelReason !== undefined;
  }

  takeSequence(): number {
    return this.nextSequence++;
  }

  cancel(reason: CancellationReason): void {
    if (this.cancelReason) return;
    this.cancelReason = reason;
    this.controller.abort(new Error(`run cancelled: ${reason}`));
  }
}

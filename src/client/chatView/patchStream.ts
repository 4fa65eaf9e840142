import { compactPatches, type Patch } from '../../shared/statePatch';
import type { SessionState } from '../../shared/sessionState';
import type { HostToWebview, ViewContext } from '../../shared/webviewMessages';

/**
 * Patches go out at most every other frame. Measured in code-server: each message costs the workbench a socket read,
 * an RPC reply and two postMessage hops on the renderer's main thread, which the webview shares; at one message per
 * frame that overhead alone pushed frames past 16.7 ms while streaming. Two frames of batching add at most ~33 ms.
 */
export const BATCH_MS = 33;

export interface PatchStreamOptions {
  post(message: HostToWebview): void;
  intervalMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * The state stream to one webview: a snapshot, then patches batched every BATCH_MS with consecutive sequence numbers.
 * Patches produced before the first snapshot (or before a resync's snapshot) are dropped: the snapshot contains them.
 */
export class PatchStream {
  private seq = 0;
  private pending: Patch[] = [];
  private timer: unknown;
  private live = false;
  private readonly intervalMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: PatchStreamOptions) {
    this.intervalMs = options.intervalMs ?? BATCH_MS;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** Sends the whole state; the next patches continue from its sequence number. */
  snapshot(state: SessionState, view: ViewContext): void {
    this.cancelTimer();
    this.pending = [];
    this.live = true;
    this.options.post({ type: 'snapshot', seq: ++this.seq, state, view });
  }

  push(patches: readonly Patch[]): void {
    if (!this.live || patches.length === 0) return;
    this.pending.push(...patches);
    if (this.timer === undefined) this.timer = this.setTimer(() => this.flush(), this.intervalMs);
  }

  /** Sends what is pending now (also used before a message that must not overtake the patches). */
  flush(): void {
    this.cancelTimer();
    if (this.pending.length === 0) return;
    const patches = compactPatches(this.pending);
    this.pending = [];
    this.options.post({ type: 'patches', seq: ++this.seq, patches });
  }

  /** The webview went away or is reloading: nothing is sent until the next snapshot. */
  pause(): void {
    this.cancelTimer();
    this.pending = [];
    this.live = false;
  }

  get lastSeq(): number {
    return this.seq;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.clearTimer(this.timer);
    this.timer = undefined;
  }
}

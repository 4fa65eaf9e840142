import { compactPatches, type Patch } from '../../shared/statePatch';
import type { SessionState } from '../../shared/sessionState';
import type { HostToWebview, ViewContext } from '../../shared/webviewMessages';

/**
 * Patches go out at most every other frame. Measured in code-server: each message costs the workbench a socket read,
 * an RPC reply and two postMessage hops on the renderer's main thread, which the webview shares; at one message per
 * frame that overhead alone pushed frames past 16.7 ms while streaming. A patch after a quiet window goes out at once
 * (leading edge); only what follows within BATCH_MS of a message waits, at most ~33 ms. A reply that stops streaming
 * goes out at once too, with everything pending: its last words are what the user is waiting for, and it happens once
 * per reply, not per delta.
 */
export const BATCH_MS = 33;

export interface PatchStreamOptions {
  post(message: HostToWebview): void;
  intervalMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** The end of a streamed reply (the main agent's or a child's): its item's `streaming` set to false. */
function endsAReply(patch: Patch): boolean {
  return patch.op === 'field' && patch.field === 'streaming' && patch.value === false;
}

/**
 * The state stream to one webview: a snapshot, then patches with consecutive sequence numbers, at most one message per
 * BATCH_MS, plus one per reply that ends: a patch when nothing was posted in the last BATCH_MS is posted at once, later
 * ones wait for the window's end (or a reply's end) and go out together. Patches produced before the first snapshot (or before a resync's snapshot) are dropped: the
 * snapshot contains them.
 */
export class PatchStream {
  private seq = 0;
  private pending: Patch[] = [];
  /** Running while the last message is younger than the interval: pushes meanwhile wait for it. */
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
    this.startWindow();
  }

  push(patches: readonly Patch[]): void {
    if (!this.live || patches.length === 0) return;
    this.pending.push(...patches);
    if (this.timer === undefined || patches.some(endsAReply)) this.flush();
  }

  /** Sends what is pending now (also used before a message that must not overtake the patches). */
  flush(): void {
    if (this.pending.length === 0) return;
    const patches = compactPatches(this.pending);
    this.pending = [];
    this.options.post({ type: 'patches', seq: ++this.seq, patches });
    this.startWindow();
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

  /** The window's end sends what came meanwhile (and opens the next window), or closes it when nothing did. */
  private startWindow(): void {
    this.cancelTimer();
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, this.intervalMs);
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.clearTimer(this.timer);
    this.timer = undefined;
  }
}

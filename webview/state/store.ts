import type { SessionState } from '../../src/shared/sessionState';
import { applyPatches, type Patch, type TopLevelKey } from '../../src/shared/statePatch';
import type { ViewContext } from '../../src/shared/webviewMessages';

/** What changed since the last render: the webview re-renders only these parts. */
export interface StateChange {
  /** A new snapshot: everything is new. */
  reset: boolean;
  /** Indexes of transcript items that were replaced or appended to. */
  items: Set<number>;
  /** Top-level state keys that were set. */
  keys: Set<TopLevelKey>;
  /** The number of transcript items changed. */
  length: boolean;
}

export function emptyChange(): StateChange {
  return { reset: false, items: new Set(), keys: new Set(), length: false };
}

export function mergeChanges(a: StateChange, b: StateChange): StateChange {
  return {
    reset: a.reset || b.reset,
    items: new Set([...a.items, ...b.items]),
    keys: new Set([...a.keys, ...b.keys]),
    length: a.length || b.length,
  };
}

export type PatchOutcome =
  | { kind: 'applied'; change: StateChange }
  /** Before the first snapshot, a duplicate, or while waiting for the snapshot that answers a resync. */
  | { kind: 'ignored' }
  /** A sequence gap: the webview must send `resync` with `lastSeq` and wait for a snapshot. */
  | { kind: 'gap'; lastSeq: number };

/**
 * The webview's copy of the session model: a snapshot, then patches with consecutive sequence numbers. It holds the
 * transcript in memory only (never in `setState`).
 */
export class SessionStore {
  private current: SessionState | undefined;
  private context: ViewContext | undefined;
  private lastSeq = -1;
  private awaitingSnapshot = true;

  get state(): SessionState | undefined {
    return this.current;
  }

  get view(): ViewContext | undefined {
    return this.context;
  }

  applySnapshot(seq: number, state: SessionState, view: ViewContext): StateChange {
    this.current = state;
    this.context = view;
    this.lastSeq = seq;
    this.awaitingSnapshot = false;
    return { reset: true, items: new Set(), keys: new Set(), length: true };
  }

  applyPatches(seq: number, patches: readonly Patch[]): PatchOutcome {
    const state = this.current;
    if (!state || this.awaitingSnapshot || seq <= this.lastSeq) return { kind: 'ignored' };
    if (seq !== this.lastSeq + 1) {
      this.awaitingSnapshot = true;
      return { kind: 'gap', lastSeq: this.lastSeq };
    }
    this.lastSeq = seq;
    const lengthBefore = state.items.length;
    const touched = applyPatches(state, patches);
    const items = new Set([...touched].filter((i) => i < state.items.length));
    const keys = new Set<TopLevelKey>();
    for (const p of patches) if (p.op === 'set') keys.add(p.key);
    const length = state.items.length !== lengthBefore || patches.some((p) => p.op === 'truncate');
    return { kind: 'applied', change: { reset: false, items, keys, length } };
  }
}

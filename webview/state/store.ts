import type { SessionState } from '../../src/shared/sessionState';
import { applyPatches, type Patch, type TopLevelKey } from '../../src/shared/statePatch';
import type { ViewContext } from '../../src/shared/webviewMessages';
import { SubagentIndex, isChildItem } from '../subagents/subagentModel';

/** What changed since the last render: the webview re-renders only these parts. */
export interface StateChange {
  /** A new snapshot: everything is new. */
  reset: boolean;
  /** Indexes of transcript items that were replaced or appended to; a child run's item counts as its `subagent` card's. */
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
  /** Which items belong to which `subagent` card. */
  readonly subagents = new SubagentIndex();

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
    this.subagents.rebuild(state.items);
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
    const touched = [...applyPatches(state, patches)].filter((i) => i < state.items.length);
    const truncated = patches.some((p) => p.op === 'truncate');
    if (truncated) this.subagents.rebuild(state.items);
    else this.subagents.note(state.items, touched);
    const keys = new Set<TopLevelKey>();
    // `revision` (a debugging counter) is set with every patch batch and shown nowhere: counting it would re-run the
    // header's and composer's updates every frame something streams.
    for (const p of patches) if (p.op === 'set' && p.key !== 'revision') keys.add(p.key);
    const length = state.items.length !== lengthBefore || truncated;
    return { kind: 'applied', change: { reset: false, items: this.mainFlowIndexes(touched), keys, length } };
  }

  /**
   * A child run's items take no room in the main list: a patch to one re-renders the card it belongs to instead (its
   * panel), so 8 children streaming at once re-render 1 card per frame, not 8 hidden items and the card.
   */
  private mainFlowIndexes(touched: readonly number[]): Set<number> {
    const items = this.current!.items;
    const out = new Set<number>();
    for (const i of touched) {
      const card = this.subagents.cardIndexOf(i);
      if (card !== undefined) out.add(card);
      else if (!isChildItem(items[i])) out.add(i);
    }
    return out;
  }
}

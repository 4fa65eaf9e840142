import type { ChildRunFields, SubagentItem, TranscriptItem } from '../../src/shared/sessionState';

/** The kinds a child run's conversation is made of; a child's approvals and questions stay in the main flow. */
const CHILD_CONVERSATION_KINDS: ReadonlySet<TranscriptItem['kind']> = new Set(['assistant', 'tool', 'user']);

/** An item of a child run (a SubagentItem, a child's reply, tool call or steering message): shown in its card's panel, not in the main flow. */
export function isChildItem(item: TranscriptItem | undefined): boolean {
  if (!item) return false;
  if (item.kind === 'subagent') return true;
  return CHILD_CONVERSATION_KINDS.has(item.kind) && (item as ChildRunFields).childRunId !== undefined;
}

/** A `subagent` tool call of the main flow: its card carries the panel of the runs it started. */
export function isSubagentCard(item: TranscriptItem | undefined): boolean {
  return item?.kind === 'tool' && item.name === 'subagent' && item.childRunId === undefined;
}

/** Upstream's containers (a batch, a chain) start runs of their own; only `single` runs are children with rows. */
export function isRowRun(item: SubagentItem): boolean {
  return item.mode === 'single';
}

interface RunEntry {
  index: number;
  /** The main-flow card it belongs to (its tool call id), once known. */
  card?: string;
  /** The indexes of its replies and tool calls, in transcript order. */
  items: number[];
}

/**
 * Which transcript items belong to which `subagent` card: the store keeps it so that a child's patch re-renders only
 * its parent card (and the card's panel finds its runs without scanning the transcript). A run belongs to the card its
 * `parentToolCallId` names, else to its parent run's card (a batch's or chain's children, nested runs). Items arrive
 * after what they link to (the card, then the run, then its items), so one pass in order resolves them; what cannot be
 * resolved yet is retried as new items come.
 */
export class SubagentIndex {
  private readonly cardIndexes = new Map<string, number>();
  private readonly runs = new Map<string, RunEntry>();
  private readonly cardRuns = new Map<string, string[]>();
  /** The card of every indexed child item, by its transcript index. */
  private readonly cardOfIndex = new Map<number, string>();
  /** The key (`kind:id`) of every indexed item: a different item at a known index means a rebuild. */
  private readonly keys = new Map<number, string>();
  private unresolved: number[] = [];
  private items: readonly TranscriptItem[] = [];

  /** Indexes a whole transcript (a snapshot, a truncation). */
  rebuild(items: readonly TranscriptItem[]): void {
    this.cardIndexes.clear();
    this.runs.clear();
    this.cardRuns.clear();
    this.cardOfIndex.clear();
    this.keys.clear();
    this.unresolved = [];
    this.items = items;
    for (let i = 0; i < items.length; i++) this.add(i);
  }

  /** Indexes the items a patch touched (appended or replaced); true when it had to rebuild. */
  note(items: readonly TranscriptItem[], touched: Iterable<number>): boolean {
    this.items = items;
    const fresh: number[] = [];
    for (const i of touched) {
      const item = items[i];
      if (!item) continue;
      const known = this.keys.get(i);
      if (known === undefined) fresh.push(i);
      else if (known !== keyOf(item) || this.linkChanged(i, item)) {
        this.rebuild(items);
        return true;
      }
    }
    fresh.sort((a, b) => a - b);
    for (const i of fresh) this.add(i);
    if (fresh.length > 0 && this.unresolved.length > 0) this.retryUnresolved();
    return false;
  }

  /** The transcript index of the card a child item belongs to; undefined for a main-flow item or an unlinked child. */
  cardIndexOf(index: number): number | undefined {
    const card = this.cardOfIndex.get(index);
    return card === undefined ? undefined : this.cardIndexes.get(card);
  }

  /** The runs a card started (SubagentItem indexes), in start order. */
  runsOf(cardId: string): number[] {
    const ids = this.cardRuns.get(cardId) ?? [];
    return ids.map((id) => this.runs.get(id)!.index);
  }

  /** The indexes of a run's replies and tool calls, in transcript order. */
  itemsOf(runId: string): readonly number[] {
    return this.runs.get(runId)?.items ?? [];
  }

  /** How deep a run is below its card's runs (0 for a direct child; a batch's children count as direct). */
  depthOf(runId: string): number {
    let depth = 0;
    let run = this.run(runId);
    const seen = new Set<string>();
    while (run?.parentRunId && !seen.has(run.id)) {
      seen.add(run.id);
      const parent = this.run(run.parentRunId);
      if (!parent) break;
      if (isRowRun(parent)) depth++;
      run = parent;
    }
    return depth;
  }

  private run(runId: string): SubagentItem | undefined {
    const entry = this.runs.get(runId);
    const item = entry ? this.items[entry.index] : undefined;
    return item?.kind === 'subagent' ? item : undefined;
  }

  private linkChanged(index: number, item: TranscriptItem): boolean {
    if (item.kind !== 'subagent') return false;
    const entry = this.runs.get(item.id);
    return entry !== undefined && entry.card === undefined && this.resolveRunCard(item) !== undefined;
  }

  private add(index: number): void {
    const item = this.items[index];
    this.keys.set(index, keyOf(item));
    if (item.kind === 'tool' && item.childRunId === undefined) {
      this.cardIndexes.set(item.id, index);
      return;
    }
    if (!isChildItem(item)) return;
    if (!this.link(index)) this.unresolved.push(index);
  }

  /** Links a child item to its card; false when what it links to has not arrived. */
  private link(index: number): boolean {
    const item = this.items[index];
    if (item.kind === 'subagent') {
      const entry = this.runs.get(item.id) ?? { index, items: [] };
      entry.index = index;
      this.runs.set(item.id, entry);
      const card = this.resolveRunCard(item);
      if (card === undefined) return false;
      entry.card = card;
      this.cardOfIndex.set(index, card);
      const list = this.cardRuns.get(card) ?? [];
      if (!list.includes(item.id)) list.push(item.id);
      this.cardRuns.set(card, list);
      return true;
    }
    const runId = (item as ChildRunFields).childRunId!;
    const entry = this.runs.get(runId);
    if (!entry?.card) return false;
    entry.items.push(index);
    this.cardOfIndex.set(index, entry.card);
    return true;
  }

  private resolveRunCard(item: SubagentItem): string | undefined {
    if (item.parentToolCallId !== undefined && this.cardIndexes.has(item.parentToolCallId)) return item.parentToolCallId;
    if (item.parentRunId !== undefined) return this.runs.get(item.parentRunId)?.card;
    return undefined;
  }

  private retryUnresolved(): void {
    const pending = this.unresolved;
    this.unresolved = [];
    let progress = true;
    let left = pending;
    while (progress && left.length > 0) {
      progress = false;
      const next: number[] = [];
      for (const i of left) {
        if (this.link(i)) progress = true;
        else next.push(i);
      }
      left = next;
    }
    this.unresolved = left;
    // Items linked late may sit before earlier-linked ones: keep each run's items in transcript order.
    for (const entry of this.runs.values()) entry.items.sort((a, b) => a - b);
  }
}

function keyOf(item: TranscriptItem): string {
  return `${item.kind}:${item.id}`;
}

/**
 * The rows of a card in tree order: each run in start order, with the runs it started right under it (a nested call's
 * children follow their parent, not the parent's later siblings).
 */
export function rowOrder(runs: readonly SubagentItem[]): SubagentItem[] {
  const ids = new Set(runs.map((r) => r.id));
  const children = new Map<string, SubagentItem[]>();
  const roots: SubagentItem[] = [];
  for (const run of runs) {
    if (run.parentRunId !== undefined && ids.has(run.parentRunId) && run.parentRunId !== run.id) {
      const list = children.get(run.parentRunId) ?? [];
      list.push(run);
      children.set(run.parentRunId, list);
    } else roots.push(run);
  }
  const out: SubagentItem[] = [];
  const seen = new Set<string>();
  const visit = (run: SubagentItem) => {
    if (seen.has(run.id)) return;
    seen.add(run.id);
    out.push(run);
    for (const child of children.get(run.id) ?? []) visit(child);
  };
  for (const run of roots) visit(run);
  // A cycle of parent ids (a malformed stream) leaves runs unvisited: they keep their start order at the end.
  for (const run of runs) visit(run);
  return out;
}

/** "1m 05s", "12s", "0.4s": how long a run has been going. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** "1.2k", "830": a token count in a row. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}

/** The row's status word: the final state once done, else the phase it is in. */
export function runStatusText(item: SubagentItem): string {
  switch (item.state) {
    case 'completed':
      return 'Done';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
    default:
      return PHASE_TEXT[item.phase] ?? item.phase;
  }
}

const PHASE_TEXT: Record<string, string> = {
  start: 'Starting',
  steered: 'Steered',
  streaming: 'Writing',
  tool: 'Running a tool',
  tool_end: 'Working',
  done: 'Finishing',
};

/** How many of a run's latest messages an expanded row shows before "Show earlier". */
export const CHILD_PAGE = 50;

/** The slice of a run's items an expanded row shows: the last `shown` of them. */
export function visibleChildItems(items: readonly number[], shown: number): { indexes: readonly number[]; hidden: number } {
  const hidden = Math.max(0, items.length - shown);
  return { indexes: items.slice(hidden), hidden };
}

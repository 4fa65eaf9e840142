import type { ChildRunFields, SubagentItem, TranscriptItem } from '../../src/shared/sessionState';

/**
 * Where a goal's workers are in the transcript: their SubagentItems and the indexes of their replies, tool calls and
 * approvals, by run id. The store's SubagentIndex links a run to the `subagent` card that started it, and a goal's
 * workers have none (their parent run is the goal), so the Control Center keeps this one: the transcript only grows
 * between snapshots, so each update reads only the items appended since the last (a truncation or a replaced item at
 * the last index read means a full rescan).
 */
export class GoalRunIndex {
  private readonly runs = new Map<string, number>();
  private readonly children = new Map<string, number[]>();
  private readonly approvals = new Map<string, number[]>();
  /** Run indexes by the run that started them (a goal's workers, scout and reviewer: the goal id). */
  private readonly byParent = new Map<string, number[]>();
  private scanned = 0;
  private lastKey = '';

  update(items: readonly TranscriptItem[], reset: boolean): void {
    if (reset || items.length < this.scanned || (this.scanned > 0 && keyOf(items[this.scanned - 1]) !== this.lastKey)) this.clear();
    for (let i = this.scanned; i < items.length; i++) this.add(items[i], i);
    this.scanned = items.length;
    this.lastKey = items.length > 0 ? keyOf(items[items.length - 1]) : '';
  }

  /** The run's SubagentItem, if the core reported it. */
  run(items: readonly TranscriptItem[], runId: string): SubagentItem | undefined {
    const index = this.runs.get(runId);
    const item = index === undefined ? undefined : items[index];
    return item?.kind === 'subagent' ? item : undefined;
  }

  /** The indexes of the run's conversation (replies, tool calls, steering), in transcript order: what its row shows. */
  itemsOf(runId: string): readonly number[] {
    return this.children.get(runId) ?? [];
  }

  /** The indexes of the runs whose parent is `parentRunId`, in start order. */
  runsUnder(parentRunId: string): readonly number[] {
    return this.byParent.get(parentRunId) ?? [];
  }

  /** The indexes of the run's approval requests (they also stay in the chat's main flow and its review list). */
  approvalsOf(runId: string): readonly number[] {
    return this.approvals.get(runId) ?? [];
  }

  private add(item: TranscriptItem, index: number): void {
    if (item.kind === 'subagent') {
      this.runs.set(item.id, index);
      if (item.parentRunId !== undefined) push(this.byParent, item.parentRunId, index);
      return;
    }
    const runId = (item as ChildRunFields).childRunId;
    if (runId === undefined) return;
    const map = item.kind === 'approval' ? this.approvals : CONVERSATION.has(item.kind) ? this.children : undefined;
    if (map) push(map, runId, index);
  }

  private clear(): void {
    this.runs.clear();
    this.children.clear();
    this.approvals.clear();
    this.byParent.clear();
    this.scanned = 0;
  }
}

const CONVERSATION: ReadonlySet<TranscriptItem['kind']> = new Set(['assistant', 'tool', 'user']);

function push(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

function keyOf(item: TranscriptItem): string {
  return `${item.kind}:${item.id}`;
}

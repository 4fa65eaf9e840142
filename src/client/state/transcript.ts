// Immutable helpers over SessionState: every change copies only the path it touches and returns the same object when
// nothing changed, so `diffState` sees unchanged items by identity and produces small patches.
import type { AssistantItem, RunStatus, SessionState, ToolCardStatus, ToolItem, TranscriptItem } from '../../shared/sessionState';

type Run = SessionState['run'];

/** An id for an item created in the step that leads to revision `state.revision + 1` (unique per state lineage). */
export function newItemId(s: SessionState, prefix: string): string {
  return `${prefix}${s.revision + 1}`;
}

export function appendItem(s: SessionState, item: TranscriptItem): SessionState {
  return { ...s, items: [...s.items, item] };
}

export function replaceItemAt(s: SessionState, index: number, item: TranscriptItem): SessionState {
  if (s.items[index] === item) return s;
  const items = s.items.slice();
  items[index] = item;
  return { ...s, items };
}

/** Shallow-merges `changes` into the item at `index`; the same state when every field already has that value. */
export function updateItemAt<T extends TranscriptItem>(s: SessionState, index: number, changes: Partial<T>): SessionState {
  const item = s.items[index] as T | undefined;
  if (!item) return s;
  const changed = Object.entries(changes).some(([k, v]) => (item as unknown as Record<string, unknown>)[k] !== v);
  return changed ? replaceItemAt(s, index, { ...item, ...changes }) : s;
}

export function withItems(s: SessionState, items: TranscriptItem[]): SessionState {
  return items === s.items ? s : { ...s, items };
}

export function withRun(s: SessionState, changes: Partial<Run>): SessionState {
  const run: Run = { ...s.run, ...changes };
  if (run.queued === undefined) delete run.queued;
  if (run.runId === undefined) delete run.runId;
  const same = run.status === s.run.status && run.runId === s.run.runId && run.queued === s.run.queued;
  return same ? s : { ...s, run };
}

export function findLastIndex(items: readonly TranscriptItem[], pred: (item: TranscriptItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i])) return i;
  return -1;
}

export function indexOfItem(items: readonly TranscriptItem[], kind: TranscriptItem['kind'], id: string): number {
  return findLastIndex(items, (item) => item.kind === kind && item.id === id);
}

export function isStreamingTool(item: TranscriptItem | undefined): item is ToolItem {
  return item?.kind === 'tool' && item.status === 'streaming' && item.childRunId === undefined;
}

/** Whether an item is a child run's (a SubagentItem, an IntercomItem, or an item with `childRunId`): the main stream skips it. */
export function isChildItem(item: TranscriptItem | undefined): boolean {
  if (!item) return false;
  if (item.kind === 'subagent' || item.kind === 'intercom') return true;
  return 'childRunId' in item && item.childRunId !== undefined;
}

/** The index of the last item of the main flow at or before `from` (child items skipped); -1 if none. */
function lastMainIndex(items: readonly TranscriptItem[], from: number): number {
  let i = from;
  while (i >= 0 && isChildItem(items[i])) i--;
  return i;
}

/** The tool cards of the model response being streamed: the run of 'streaming' cards at the end, in order (child items skipped). */
export function streamingToolIndexes(items: readonly TranscriptItem[]): number[] {
  const indexes: number[] = [];
  for (let i = lastMainIndex(items, items.length - 1); i >= 0 && isStreamingTool(items[i]); i = lastMainIndex(items, i - 1))
    indexes.unshift(i);
  return indexes;
}

/** The assistant item text streams into: the last of the main flow, or the last before the streaming tool cards; -1 if none. */
export function currentAssistantIndex(items: readonly TranscriptItem[]): number {
  let i = lastMainIndex(items, items.length - 1);
  while (i >= 0 && isStreamingTool(items[i])) i = lastMainIndex(items, i - 1);
  const item = items[i];
  return item?.kind === 'assistant' && item.streaming ? i : -1;
}

const LIVE_TOOL_STATUSES: ReadonlySet<ToolCardStatus> = new Set(['streaming', 'pending', 'awaiting_approval', 'running']);

/**
 * Ends a run in the transcript: streaming assistant items stop streaming, unfinished tool cards, running subagents and
 * pending approval/ask/sudo/intercom cards become cancelled. With `runId`, only items of that run (or without a run id) are touched;
 * asks and sudos carry no run id and are only closed when `includeUnscoped`.
 */
export function finalizeItems(items: TranscriptItem[], runId: string | undefined, includeUnscoped: boolean): TranscriptItem[] {
  let out: TranscriptItem[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const next = finalizedItem(items[i], runId, includeUnscoped);
    if (next === items[i]) continue;
    out ??= items.slice();
    out[i] = next;
  }
  return out ?? items;
}

function finalizedItem(item: TranscriptItem, runId: string | undefined, includeUnscoped: boolean): TranscriptItem {
  if (item.kind === 'ask' || item.kind === 'sudo')
    return includeUnscoped && item.state === 'pending' ? { ...item, state: 'cancelled' } : item;
  if (item.kind === 'user' || item.kind === 'notice' || item.kind === 'bash' || item.kind === 'checkpoint') return item;
  if (runId !== undefined && item.runId !== undefined && item.runId !== runId) return item;
  if (item.kind === 'assistant') return item.streaming ? { ...item, streaming: false } : item;
  if (item.kind === 'tool') return LIVE_TOOL_STATUSES.has(item.status) ? { ...item, status: 'cancelled' } : item;
  // A child whose run ended without its `subagent_done` (upstream drops a direct child's as stale after an abort).
  if (item.kind === 'subagent') return item.state === 'running' ? { ...item, state: 'cancelled' } : item;
  return item.state === 'pending' ? { ...item, state: 'cancelled' } : item;
}

/** What the run is waiting for, after an interaction card changed; idle stays idle. */
export function runStatusFor(items: readonly TranscriptItem[], current: RunStatus): RunStatus {
  if (current === 'idle') return 'idle';
  let waitingInput = false;
  for (const item of items) {
    if (item.kind === 'approval' && item.state === 'pending') return 'waiting_approval';
    if ((item.kind === 'ask' || item.kind === 'sudo' || item.kind === 'intercom') && item.state === 'pending') waitingInput = true;
  }
  return waitingInput ? 'waiting_input' : 'running';
}

export function withRecomputedRunStatus(s: SessionState): SessionState {
  return withRun(s, { status: runStatusFor(s.items, s.run.status) });
}

export function newAssistantItem(s: SessionState, runId: string | undefined, fields: Partial<AssistantItem>): AssistantItem {
  const item: AssistantItem = { kind: 'assistant', id: newItemId(s, 'a'), text: '', thinking: '', streaming: true, ...fields };
  if (runId !== undefined) item.runId = runId;
  return item;
}

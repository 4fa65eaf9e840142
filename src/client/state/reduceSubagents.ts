// Reducers for child runs (the `subagent` tool): one flat SubagentItem per run, the child's replies and tools as items
// with `childRunId`. Child items carry the ROOT run's `runId`, so ending that run closes them; nothing here ever learns a
// run id for `state.run` (a child's run_id is not the foreground run's).
import {
  type AssistantItem,
  type SessionState,
  type SubagentItem,
  type SubagentState,
  type SubagentWorktree,
  SUBAGENT_STATES,
  type ToolCardStatus,
  type ToolItem,
  type TranscriptItem,
  type UserItem,
} from '../../shared/sessionState';
import { subagentTarget } from '../../protocol/subagents';
import { CHILD_TOOL_ID_PREFIX, childToolId } from '../../shared/childToolId';
import { type UntrustedEvent, num, record, str, strings } from './eventFields';
import { withCost } from './reduceUsage';
import { appendItem, findLastIndex, indexOfItem, isChildItem, newItemId, replaceItemAt, updateItemAt, withItems } from './transcript';

const LIVE_TOOL_STATUSES: ReadonlySet<ToolCardStatus> = new Set(['streaming', 'pending', 'awaiting_approval', 'running']);

export function subagentIndex(items: readonly TranscriptItem[], runId: string): number {
  return indexOfItem(items, 'subagent', runId);
}

/** Whether `item` is the child's ToolItem for its call `callId` (a reused call id gets a `#n` suffix on the item id). */
export function isChildCall(item: TranscriptItem, runId: string, callId: string): item is ToolItem {
  if (item.kind !== 'tool' || item.childRunId !== runId) return false;
  const id = childToolId(runId, callId);
  return item.id === id || (item.id.startsWith(`${id}#`) && /^\d+$/.test(item.id.slice(id.length + 1)));
}

export function isLiveTool(item: ToolItem): boolean {
  return LIVE_TOOL_STATUSES.has(item.status);
}

/** The latest unfinished ToolItem of the child's call `callId`; -1 if none. */
function liveChildToolIndex(items: readonly TranscriptItem[], runId: string, callId: string): number {
  return findLastIndex(items, (item) => isChildCall(item, runId, callId) && isLiveTool(item));
}

// ── Runs ─────────────────────────────────────────────────────────────────────

export function reduceSubagentStart(s: SessionState, e: UntrustedEvent<'subagent_start'>): SessionState {
  const id = str(e.run_id);
  if (!id) return s;
  const mode = str(e.mode) ?? 'single';
  const agent = str(e.agent) ?? '';
  const agents = strings(e.agents);
  const depth = num(e.depth) ?? 0;
  const link = linkOf(s, str(e.parent_run_id), str(e.tool_call_id), depth);
  const fields: Omit<SubagentItem, 'kind' | 'id' | 'state' | 'phase' | 'toolCount' | 'tokensIn' | 'tokensOut' | 'elapsedMs'> = {
    mode,
    agent,
    agents: agents.length ? agents : agent ? [agent] : [],
    task: str(e.task) ?? '',
    ...(str(e.model) ? { model: str(e.model) } : {}),
    depth,
    startedAt: num(e.started_at) ?? 0,
    target: agent && mode === 'single' ? subagentTarget(id, agent) : '',
    ...link,
  };
  const index = subagentIndex(s.items, id);
  // A worktree is set up before its run starts: the placeholder made then gets the run's fields now.
  if (index >= 0) return replaceSubagent(s, index, { ...(s.items[index] as SubagentItem), ...fields });
  return appendItem(s, {
    kind: 'subagent',
    id,
    state: 'running',
    phase: 'start',
    toolCount: 0,
    tokensIn: 0,
    tokensOut: 0,
    elapsedMs: 0,
    ...fields,
  });
}

type Link = Pick<SubagentItem, 'runId' | 'parentRunId' | 'parentToolCallId'>;

/**
 * Where a new run belongs. Its parent run, when it is a known child (a batch, a chain, our nested parent), leads to the
 * card and the root. Otherwise the parent is the foreground run: the card is `tool_call_id` (ours), else that run's latest
 * live `subagent` card. Upstream names the foreground run as a NESTED child's parent too: a deeper start under a card
 * that already has a running, shallower child is taken as that child's.
 */
function linkOf(s: SessionState, parentRunId: string | undefined, toolCallId: string | undefined, depth: number): Link {
  const parentIndex = parentRunId === undefined ? -1 : subagentIndex(s.items, parentRunId);
  if (parentIndex >= 0) {
    const parent = s.items[parentIndex] as SubagentItem;
    return compact({ runId: parent.runId, parentRunId, parentToolCallId: parent.parentToolCallId });
  }
  // A goal's worker: the goal is its root (a turn's end never closes it) and no tool card started it, so none may claim it.
  if (parentRunId !== undefined && parentRunId === s.goal?.id) return { runId: parentRunId, parentRunId };
  const runId = parentRunId ?? s.run.runId;
  const card = foregroundCard(s.items, toolCallId, runId);
  const nestedParent = card === undefined ? undefined : shallowerRunningChild(s.items, card, depth);
  return compact({ runId, parentRunId: nestedParent ?? parentRunId, parentToolCallId: card });
}

function foregroundCard(items: readonly TranscriptItem[], toolCallId: string | undefined, runId: string | undefined): string | undefined {
  if (toolCallId !== undefined) {
    const index = indexOfItem(items, 'tool', toolCallId);
    if (index >= 0 && !isChildItem(items[index])) return toolCallId;
  }
  const index = findLastIndex(
    items,
    (item) =>
      item.kind === 'tool' &&
      !isChildItem(item) &&
      item.name === 'subagent' &&
      LIVE_TOOL_STATUSES.has(item.status) &&
      (runId === undefined || item.runId === undefined || item.runId === runId),
  );
  return index >= 0 ? items[index].id : undefined;
}

function shallowerRunningChild(items: readonly TranscriptItem[], card: string, depth: number): string | undefined {
  let best: SubagentItem | undefined;
  for (const item of items) {
    if (item.kind !== 'subagent' || item.parentToolCallId !== card || item.state !== 'running' || item.mode !== 'single') continue;
    if (item.depth < depth && (best === undefined || item.depth >= best.depth)) best = item;
  }
  return best?.id;
}

export function reduceSubagentProgress(s: SessionState, e: UntrustedEvent<'subagent_progress'>): SessionState {
  const index = subagentIndexOf(s, e.run_id);
  const item = s.items[index] as SubagentItem | undefined;
  if (item?.state !== 'running') return s;
  const phase = str(e.phase) ?? item.phase;
  const changes: Partial<SubagentItem> = { phase, tool: phase === 'tool' ? (str(e.tool) ?? item.tool) : undefined };
  // `start` and `done` are sent with zero counters: they would wipe the real ones.
  if (phase !== 'start' && phase !== 'done') {
    changes.toolCount = num(e.tool_count) ?? item.toolCount;
    changes.tokensIn = num(e.tokens_in) ?? item.tokensIn;
    changes.tokensOut = num(e.tokens_out) ?? item.tokensOut;
    changes.elapsedMs = num(e.elapsed_ms) ?? item.elapsedMs;
  }
  if (!item.agent && str(e.agent)) changes.agent = str(e.agent);
  return replaceSubagent(s, index, { ...item, ...changes });
}

export function reduceSubagentDone(s: SessionState, e: UntrustedEvent<'subagent_done'>): SessionState {
  const index = subagentIndexOf(s, e.run_id);
  if (index < 0) return s;
  const item = s.items[index] as SubagentItem;
  const reported = str(e.state);
  const state: SubagentState =
    reported !== undefined && reported !== 'running' && (SUBAGENT_STATES as readonly string[]).includes(reported)
      ? (reported as SubagentState)
      : 'completed';
  const changes: Partial<SubagentItem> = { state, phase: 'done', tool: undefined, elapsedMs: num(e.duration_ms) ?? item.elapsedMs };
  const summary = str(e.summary);
  if (summary) changes.summary = summary;
  // Ours: the child's own requests priced; they are in no turn's cost_update, so the session's cost adds them here.
  const usd = e.estimated_usd === null ? null : num(e.estimated_usd);
  if (usd !== undefined) changes.costUsd = usd;
  const next = usd === undefined || item.costUsd !== undefined ? s : withCost(s, usd);
  return closeChildItems(replaceSubagent(next, index, { ...item, ...changes }), item.id);
}

/** A finished child's streaming reply stops and its unfinished tools become cancelled (what a dropped event leaves). */
function closeChildItems(s: SessionState, runId: string): SessionState {
  let items: TranscriptItem[] | undefined;
  for (let i = 0; i < s.items.length; i++) {
    const item = s.items[i];
    if (!('childRunId' in item) || item.childRunId !== runId) continue;
    let next: TranscriptItem = item;
    if (item.kind === 'assistant' && item.streaming) next = { ...item, streaming: false };
    else if (item.kind === 'tool' && LIVE_TOOL_STATUSES.has(item.status)) next = { ...item, status: 'cancelled' };
    else if ((item.kind === 'approval' || item.kind === 'intercom') && item.state === 'pending') next = { ...item, state: 'cancelled' };
    if (next === item) continue;
    items ??= s.items.slice();
    items[i] = next;
  }
  return items ? withItems(s, items) : s;
}

// ── Messages and tools ───────────────────────────────────────────────────────

/** Ours: a chunk of the child's streamed reply, appended to its streaming AssistantItem. */
export function reduceSubagentDelta(s: SessionState, e: UntrustedEvent<'subagent_delta'>): SessionState {
  const piece = str(e.text);
  const sub = liveSubagentOf(s, e.run_id);
  if (!piece || !sub) return s;
  const index = streamingReplyIndex(s.items, sub.id);
  if (index >= 0) return updateItemAt<AssistantItem>(s, index, { text: (s.items[index] as AssistantItem).text + piece });
  return appendItem(s, childReply(s, sub, piece, true));
}

/**
 * A child's message: `assistant` is a whole reply (it ends the one streamed by deltas, or is the reply itself when the
 * core streams quietly, as upstream's does); `system` is the orchestrator's steer; `user` is the task, already on the row.
 */
export function reduceSubagentMessage(s: SessionState, e: UntrustedEvent<'subagent_message'>): SessionState {
  const content = str(e.content);
  const sub = liveSubagentOf(s, e.run_id);
  if (content === undefined || !sub) return s;
  const role = str(e.role);
  if (role === 'assistant') {
    const index = streamingReplyIndex(s.items, sub.id);
    if (index >= 0) return updateItemAt<AssistantItem>(s, index, { text: content, streaming: false });
    return content ? appendItem(s, childReply(s, sub, content, false)) : s;
  }
  if (role === 'system' && content) {
    const steer: UserItem = {
      kind: 'user',
      id: newItemId(s, `${CHILD_TOOL_ID_PREFIX}${sub.id}:u`),
      text: content,
      images: 0,
      ...childFields(sub),
    };
    return appendItem(s, steer);
  }
  return s;
}

export function reduceSubagentToolCall(s: SessionState, e: UntrustedEvent<'subagent_tool_call'>): SessionState {
  const callId = str(e.call_id);
  const sub = liveSubagentOf(s, e.run_id);
  if (!callId || !sub) return s;
  const next = endStreamingReply(s, sub.id);
  const base = childToolId(sub.id, callId);
  const id = indexOfItem(next.items, 'tool', base) >= 0 ? uniqueId(next.items, base) : base;
  const card: ToolItem = {
    kind: 'tool',
    id,
    name: str(e.name) ?? '',
    args: JSON.stringify(record(e.args) ?? {}),
    status: 'running',
    files: [],
    ...childFields(sub),
  };
  return appendItem(next, card);
}

export function reduceSubagentToolResult(s: SessionState, e: UntrustedEvent<'subagent_tool_result'>): SessionState {
  const callId = str(e.call_id);
  const sub = liveSubagentOf(s, e.run_id);
  if (!callId || !sub) return s;
  const index = liveChildToolIndex(s.items, sub.id, callId);
  const changes: Partial<ToolItem> = { status: e.ok === true ? 'success' : 'failed' };
  const result = str(e.result);
  if (result !== undefined) changes.output = result;
  if (index >= 0) {
    // A denied child call is reported as a failed result; its card says denied, as the main agent's would.
    if ((s.items[index] as ToolItem).status === 'denied' && e.ok !== true) delete changes.status;
    return updateItemAt<ToolItem>(s, index, changes);
  }
  const id = uniqueId(s.items, childToolId(sub.id, callId));
  return appendItem(s, {
    kind: 'tool',
    id,
    name: str(e.name) ?? '',
    args: '{}',
    status: 'failed',
    files: [],
    ...childFields(sub),
    ...changes,
  });
}

function childReply(s: SessionState, sub: SubagentItem, text: string, streaming: boolean): AssistantItem {
  return { kind: 'assistant', id: newItemId(s, `${CHILD_TOOL_ID_PREFIX}${sub.id}:a`), text, thinking: '', streaming, ...childFields(sub) };
}

function streamingReplyIndex(items: readonly TranscriptItem[], runId: string): number {
  return findLastIndex(items, (item) => item.kind === 'assistant' && item.childRunId === runId && item.streaming);
}

function endStreamingReply(s: SessionState, runId: string): SessionState {
  const index = streamingReplyIndex(s.items, runId);
  return index >= 0 ? updateItemAt<AssistantItem>(s, index, { streaming: false }) : s;
}

/** The fields every item of a child carries: its run, its agent, the root run (so ending the turn closes it). */
export function childFields(sub: SubagentItem): { childRunId: string; agent: string; runId?: string } {
  return sub.runId === undefined ? { childRunId: sub.id, agent: sub.agent } : { childRunId: sub.id, agent: sub.agent, runId: sub.runId };
}

function uniqueId(items: readonly TranscriptItem[], base: string): string {
  for (let n = 2; ; n++) if (indexOfItem(items, 'tool', `${base}#${n}`) < 0) return `${base}#${n}`;
}

// ── Worktrees (they come before the run's start; a placeholder row holds them until it) ──────────────────────────

export function reduceWorktreeReady(s: SessionState, e: UntrustedEvent<'worktree_ready'>): SessionState {
  const runId = str(e.run_id);
  if (!runId) return s;
  const worktree = compact({ path: str(e.path), branch: str(e.branch) });
  const index = subagentIndex(s.items, runId);
  if (index >= 0) return withWorktree(s, index, worktree);
  const link = linkOf(s, undefined, undefined, 0);
  return appendItem(s, {
    kind: 'subagent',
    id: runId,
    mode: 'single',
    agent: '',
    agents: [],
    task: '',
    depth: 0,
    phase: 'start',
    state: 'running',
    toolCount: 0,
    tokensIn: 0,
    tokensOut: 0,
    startedAt: 0,
    elapsedMs: 0,
    target: '',
    worktree,
    ...link,
  });
}

export function reduceWorktreeSeeded(s: SessionState, e: UntrustedEvent<'worktree_seeded'>): SessionState {
  const index = subagentIndexOf(s, e.run_id);
  return index < 0 ? s : withWorktree(s, index, { seeded: strings(e.paths) });
}

export function reduceWorktreePromoted(s: SessionState, e: UntrustedEvent<'worktree_promoted'>): SessionState {
  const index = subagentIndexOf(s, e.run_id);
  return index < 0 ? s : withWorktree(s, index, { promoted: strings(e.paths) });
}

/** `worktree_cleaned` names only the path. */
export function reduceWorktreeCleaned(s: SessionState, e: UntrustedEvent<'worktree_cleaned'>): SessionState {
  const path = str(e.path);
  const index = path ? findLastIndex(s.items, (item) => item.kind === 'subagent' && item.worktree?.path === path) : -1;
  return index < 0 ? s : withWorktree(s, index, { cleaned: true });
}

function withWorktree(s: SessionState, index: number, changes: SubagentWorktree): SessionState {
  const item = s.items[index] as SubagentItem;
  return replaceSubagent(s, index, { ...item, worktree: { ...item.worktree, ...changes } });
}

// ── Helpers ──────────────────────────────────────────────────────────────────

function subagentIndexOf(s: SessionState, runId: unknown): number {
  const id = str(runId);
  return id ? subagentIndex(s.items, id) : -1;
}

/**
 * A row that still runs. Upstream lets a parallel child's events escape after an abort (research A:31); once the turn
 * closed the row, they would only add cards nothing ever ends.
 */
function liveSubagentOf(s: SessionState, runId: unknown): SubagentItem | undefined {
  const sub = subagentOf(s, runId);
  return sub?.state === 'running' ? sub : undefined;
}

export function subagentOf(s: SessionState, runId: unknown): SubagentItem | undefined {
  const index = subagentIndexOf(s, runId);
  return index < 0 ? undefined : (s.items[index] as SubagentItem);
}

/** Replaces the row when a field changed (`undefined` fields are dropped, so an unset optional is no change). */
function replaceSubagent(s: SessionState, index: number, item: SubagentItem): SessionState {
  const next = compact(item);
  return sameSubagent(s.items[index] as SubagentItem, next) ? s : replaceItemAt(s, index, next);
}

function sameSubagent(a: SubagentItem, b: SubagentItem): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

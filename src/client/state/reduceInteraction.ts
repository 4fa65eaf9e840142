// Reducers for what blocks a run on the user: approvals, the ask tool's questions, sudo passwords.
import type { ApprovalItem, AskQuestionView, SessionState, SubagentItem, ToolItem, TranscriptItem } from '../../shared/sessionState';
import type { ApprovalAnsweredEvent, AskAnsweredEvent, SudoAnsweredEvent } from './clientEvents';
import type { AskQuestion, EventOf } from '../../protocol';
import { type Untrusted, type UntrustedEvent, bool, num, records, str, strings } from './eventFields';
import { suggestPattern } from './suggestedPattern';
import { appendItem, findLastIndex, indexOfItem, updateItemAt, withRecomputedRunStatus, withRun } from './transcript';
import { noteRunActivity } from './reduceStream';
import { childToolId } from '../../shared/childToolId';
import { childFields, isChildCall, isLiveTool, subagentOf } from './reduceSubagents';

/** An `approval_request` as an SCV connection writes it (channel/scv/scvEventMapping.ts): the server's summary and risk word. */
export type ScvApprovalRequestEvent = EventOf<'approval_request'> & { summary: string; scv_risk: string };

/** An SCV server's approval also carries the server's one-line summary, which the adapter passes on. */
type ApprovalRequest = UntrustedEvent<'approval_request'> & Untrusted<Pick<ScvApprovalRequestEvent, 'summary'>>;

export function reduceApprovalRequest(s: SessionState, e: ApprovalRequest): SessionState {
  const requestId = str(e.request_id);
  if (!requestId || indexOfItem(s.items, 'approval', requestId) >= 0) return s;
  const runId = str(e.run_id);
  if (isChildTarget(s, runId)) return reduceChildApprovalRequest(s, e, requestId, runId);
  const next = noteRunActivity(s, e);
  const toolCallId = str(e.tool_call_id) ?? '';
  const cardIndex = toolCallId ? indexOfItem(next.items, 'tool', toolCallId) : -1;
  const item = approvalItem(e, requestId, toolCallId, cardIndex >= 0 ? (next.items[cardIndex] as ToolItem) : undefined);
  if (runId !== undefined) item.runId = runId;
  return withApprovalCard(next, item, cardIndex);
}

/**
 * A child's approval: its `run_id` is the child's intercom target, its `tool_call_id` the child's call id (which may
 * collide across children). It is the latest unfinished child call with that id whose run has that target. The card
 * carries the root run's id (ending the turn closes it) and the child's run and agent for its label.
 */
function reduceChildApprovalRequest(s: SessionState, e: ApprovalRequest, requestId: string, target: string): SessionState {
  const callId = str(e.tool_call_id) ?? '';
  const cardIndex = findLastIndex(
    s.items,
    (item) =>
      item.kind === 'tool' &&
      item.childRunId !== undefined &&
      isChildCall(item, item.childRunId, callId) &&
      isLiveTool(item) &&
      subagentOf(s, item.childRunId)?.target === target,
  );
  const card = cardIndex >= 0 ? (s.items[cardIndex] as ToolItem) : undefined;
  const sub = card ? subagentOf(s, card.childRunId) : targetRun(s, target);
  const item = approvalItem(e, requestId, card?.id ?? (sub ? childToolId(sub.id, callId) : callId), card);
  if (sub) Object.assign(item, childFields(sub));
  else if (s.run.runId !== undefined) item.runId = s.run.runId;
  return withApprovalCard(s, item, cardIndex);
}

/** A `run_id` that is not a run of this session but a child's target (`subagent-<agent>-<id>`). */
function isChildTarget(s: SessionState, runId: string | undefined): runId is string {
  if (runId === undefined || runId === s.run.runId) return false;
  return runId.startsWith('subagent-') || targetRun(s, runId) !== undefined;
}

function targetRun(s: SessionState, target: string): SubagentItem | undefined {
  const index = findLastIndex(s.items, (item) => item.kind === 'subagent' && item.target === target);
  return index < 0 ? undefined : (s.items[index] as SubagentItem);
}

function approvalItem(e: ApprovalRequest, requestId: string, toolCallId: string, card: ToolItem | undefined): ApprovalItem {
  const tool = str(e.tool) ?? card?.name ?? '';
  // approval_request.args is a redacted ≤2000-char preview; the matching tool_call had the full raw args.
  const args = card && card.status !== 'streaming' && card.args ? card.args : (str(e.args) ?? '');
  const item: ApprovalItem = {
    kind: 'approval',
    id: requestId,
    toolCallId,
    tool,
    risk: str(e.risk) ?? str(e.requested_permission) ?? 'destructive',
    args,
    createdAt: num(e.created_at) ?? 0,
    state: 'pending',
  };
  const diff = str(e.diff);
  if (diff) item.diff = diff;
  const summary = str(e.summary)?.trim();
  if (summary) item.summary = summary;
  if (card?.outerId !== undefined) item.outerId = card.outerId;
  const pattern = suggestPattern(tool, args);
  if (pattern) item.suggestedPattern = pattern;
  return item;
}

/** Adds the approval card; its tool card waits for the answer, and so does the run (unless none is going). */
function withApprovalCard(s: SessionState, item: ApprovalItem, cardIndex: number): SessionState {
  const next = cardIndex >= 0 ? updateItemAt<ToolItem>(s, cardIndex, { status: 'awaiting_approval' }) : s;
  const added = appendItem(next, item);
  return added.run.status === 'idle' ? added : withRun(added, { status: 'waiting_approval' });
}

/** The user answered in this client; the card shows it at once, the core's tool_result follows. */
export function reduceApprovalAnswered(s: SessionState, e: ApprovalAnsweredEvent): SessionState {
  const index = indexOfItem(s.items, 'approval', e.requestId);
  const item = s.items[index] as ApprovalItem | undefined;
  if (!item || item.state !== 'pending') return s;
  const approved = e.decision !== 'no';
  const changes: Partial<ApprovalItem> = { state: approved ? 'approved' : 'denied', decision: e.decision };
  if (approved && e.edited === true) changes.edited = true;
  let next = updateItemAt<ApprovalItem>(s, index, changes);
  const cardIndex = item.toolCallId ? indexOfItem(next.items, 'tool', item.toolCallId) : -1;
  if (cardIndex >= 0 && (next.items[cardIndex] as ToolItem).status === 'awaiting_approval') {
    next = updateItemAt<ToolItem>(next, cardIndex, { status: approved ? 'running' : 'denied' });
  }
  return withRecomputedRunStatus(next);
}

/**
 * A file tool's successful tool_result carries the diff of what the core wrote. It replaces the proposal's diff on the
 * approved card: after a per-change review or a hand edit the two differ, and the card shows what is on disk.
 */
export function reduceWrittenDiff(s: SessionState, e: UntrustedEvent<'tool_result'>): SessionState {
  const toolCallId = str(e.id);
  const diff = str(e.diff);
  if (!toolCallId || !diff || e.ok !== true) return s;
  const index = findLastIndex(s.items, (item) => item.kind === 'approval' && item.toolCallId === toolCallId);
  const item = s.items[index] as ApprovalItem | undefined;
  if (item?.state !== 'approved' || item.diff === diff) return s;
  return updateItemAt<ApprovalItem>(s, index, { diff });
}

/** The core's error code for an allow_pattern answer that does not cover the request (the tool call is then denied). */
export const APPROVAL_SCOPE_ERROR = 'approval_scope';

/**
 * An `error` about an approval answer: the core refuses an allow_pattern answer right after it was given (before the
 * tool_result). The message goes on that approval item, the latest allow_pattern answer whose tool has not finished;
 * the error notice is added as for any error. Any other error leaves the items as they are.
 */
export function reduceApprovalError(s: SessionState, e: UntrustedEvent<'error'>): SessionState {
  const message = str(e.message);
  const code = str(e.code);
  if (code !== APPROVAL_SCOPE_ERROR && !(code === undefined && message?.startsWith('approval pattern'))) return s;
  const runId = str(e.run_id);
  const index = findLastIndex(
    s.items,
    (item) =>
      item.kind === 'approval' &&
      item.decision === 'allow_pattern' &&
      item.error === undefined &&
      (runId === undefined || item.runId === undefined || item.runId === runId) &&
      !toolFinished(s.items, item),
  );
  if (index < 0) return s;
  // The core denies the call when it refuses the pattern: the card says so rather than "approved".
  return updateItemAt<ApprovalItem>(s, index, { state: 'denied', error: message || 'the core refused this approval pattern' });
}

/** Whether the approval's tool call already has its result (then a later error is about something else). */
function toolFinished(items: readonly TranscriptItem[], approval: ApprovalItem): boolean {
  const cardIndex = approval.toolCallId ? indexOfItem(items, 'tool', approval.toolCallId) : -1;
  if (cardIndex < 0) return false;
  const status = (items[cardIndex] as ToolItem).status;
  return status !== 'running' && status !== 'awaiting_approval' && status !== 'pending';
}

export function reduceApprovalExpired(s: SessionState, e: UntrustedEvent<'approval_expired'>): SessionState {
  const requestId = str(e.request_id);
  const index = requestId ? indexOfItem(s.items, 'approval', requestId) : -1;
  if (index < 0 || (s.items[index] as ApprovalItem).state !== 'pending') return s;
  return withRecomputedRunStatus(updateItemAt<ApprovalItem>(s, index, { state: 'expired' }));
}

export function reduceAskRequest(s: SessionState, e: UntrustedEvent<'ask_request'>): SessionState {
  const requestId = str(e.request_id);
  if (!requestId || indexOfItem(s.items, 'ask', requestId) >= 0) return s;
  const questions = records<AskQuestion>(e.questions)
    .map(questionView)
    .filter((q): q is AskQuestionView => q !== undefined);
  const next = appendItem(noteRunActivity(s, e), { kind: 'ask', id: requestId, questions, state: 'pending' });
  return withRun(next, { status: next.run.status === 'waiting_approval' ? 'waiting_approval' : 'waiting_input' });
}

function questionView(q: Untrusted<AskQuestion>): AskQuestionView | undefined {
  const id = str(q.id);
  if (!id) return undefined;
  const view: AskQuestionView = { id, prompt: str(q.prompt) ?? '', type: q.type === 'select' ? 'select' : 'text' };
  const options = strings(q.options);
  if (options.length) view.options = options;
  const allowCustom = bool(q.allowCustom);
  if (allowCustom !== undefined) view.allowCustom = allowCustom;
  const placeholder = str(q.placeholder);
  if (placeholder !== undefined) view.placeholder = placeholder;
  const required = bool(q.required);
  if (required !== undefined) view.required = required;
  return view;
}

export function reduceAskAnswered(s: SessionState, e: AskAnsweredEvent): SessionState {
  const index = indexOfItem(s.items, 'ask', e.requestId);
  if (index < 0 || s.items[index].kind !== 'ask' || (s.items[index] as { state: string }).state !== 'pending') return s;
  const changes = e.answers === null ? { state: 'skipped' as const } : { state: 'answered' as const, answers: { ...e.answers } };
  return withRecomputedRunStatus(updateItemAt(s, index, changes));
}

export function reduceSudoRequest(s: SessionState, e: UntrustedEvent<'sudo_request'>): SessionState {
  const requestId = str(e.request_id);
  if (!requestId || indexOfItem(s.items, 'sudo', requestId) >= 0) return s;
  const next = appendItem(noteRunActivity(s, e), { kind: 'sudo', id: requestId, command: str(e.command) ?? '', state: 'pending' });
  return withRun(next, { status: next.run.status === 'waiting_approval' ? 'waiting_approval' : 'waiting_input' });
}

export function reduceSudoAnswered(s: SessionState, e: SudoAnsweredEvent): SessionState {
  const index = indexOfItem(s.items, 'sudo', e.requestId);
  if (index < 0 || (s.items[index] as { state: string }).state !== 'pending') return s;
  return withRecomputedRunStatus(updateItemAt(s, index, { state: 'answered' as const }));
}

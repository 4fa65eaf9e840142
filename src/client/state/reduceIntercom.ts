// Reducers for the intercom: a subagent's messages to the orchestrator (the user) and what became of its questions.
// The core sends no event when a question times out: that is read from the child's failing contact_supervisor result,
// or from the core's "no pending intercom ask" error to a late reply.
import { ORCHESTRATOR_TARGET } from '../../protocol/subagents';
import type { IntercomItem, SessionState, SubagentItem } from '../../shared/sessionState';
import type { IntercomRepliedEvent } from './clientEvents';
import { type UntrustedEvent, str } from './eventFields';
import { childFields, subagentOf } from './reduceSubagents';
import { appendItem, findLastIndex, indexOfItem, newItemId, updateItemAt, withRecomputedRunStatus } from './transcript';

const PROGRESS_UPDATE = 'progress_update';
/** What contact_supervisor returns when the wait ended without a reply (cancel, the child's end, a session reset). */
const UNANSWERED_RESULTS: ReadonlySet<string> = new Set(['[interrupted]', '[agent finished]', '[session replaced]']);
const NO_PENDING_ASK = /^no pending intercom ask for id (\S+)/;

export function reduceIntercomMessage(s: SessionState, e: UntrustedEvent<'intercom_message'>): SessionState {
  // A goal worker's question the core answered itself comes with no id (nobody can reply): it is shown as info.
  const id = str(e.id) ?? (e.auto_resolved === true ? newItemId(s, 'auto-resolved-') : undefined);
  if (!id || indexOfItem(s.items, 'intercom', id) >= 0) return s;
  const from = str(e.from) ?? '';
  const reason = str(e.reason) ?? '';
  const to = str(e.to);
  const asks = (to === undefined || to === ORCHESTRATOR_TARGET) && reason !== PROGRESS_UPDATE && e.auto_resolved !== true;
  const sub = senderOf(s, from);
  const item: IntercomItem = { kind: 'intercom', id, from, reason, message: str(e.message) ?? '', state: asks ? 'pending' : 'info' };
  Object.assign(item, sub ? childFields(sub) : s.run.runId === undefined ? {} : { runId: s.run.runId });
  return withRecomputedRunStatus(appendItem(s, item));
}

/** The user's reply, shown at once; the core confirms with an info, or refuses it when the ask is gone. */
export function reduceIntercomReplied(s: SessionState, e: IntercomRepliedEvent): SessionState {
  const index = indexOfItem(s.items, 'intercom', e.id);
  if (index < 0 || (s.items[index] as IntercomItem).state !== 'pending') return s;
  return withRecomputedRunStatus(updateItemAt<IntercomItem>(s, index, { state: 'answered', reply: e.reply }));
}

/** `error "no pending intercom ask for id <id>"`: the question expired (timed out, or its child ended) before the reply. */
export function reduceIntercomError(s: SessionState, e: UntrustedEvent<'error'>): SessionState {
  const id = NO_PENDING_ASK.exec(str(e.message) ?? '')?.[1];
  const index = id ? indexOfItem(s.items, 'intercom', id) : -1;
  const item = s.items[index] as IntercomItem | undefined;
  if (!item || (item.state !== 'pending' && item.state !== 'answered')) return s;
  return withRecomputedRunStatus(updateItemAt<IntercomItem>(s, index, { state: 'expired' }));
}

/**
 * A child's contact_supervisor result settles its latest open question: failed = timed out; one of the bracketed
 * markers = the wait was cancelled; otherwise it is the reply (given here or by another client).
 */
export function reduceIntercomResult(s: SessionState, e: UntrustedEvent<'subagent_tool_result'>): SessionState {
  if (str(e.name) !== 'contact_supervisor') return s;
  const sub = subagentOf(s, e.run_id);
  if (!sub?.target) return s;
  const index = findLastIndex(
    s.items,
    (item) => item.kind === 'intercom' && item.from === sub.target && (item.state === 'pending' || item.state === 'answered'),
  );
  if (index < 0) return s;
  const item = s.items[index] as IntercomItem;
  const result = str(e.result) ?? '';
  let changes: Partial<IntercomItem>;
  if (e.ok !== true) changes = { state: 'expired' };
  else if (UNANSWERED_RESULTS.has(result.trim())) changes = { state: 'cancelled' };
  else changes = { state: 'answered', reply: item.reply ?? result };
  return withRecomputedRunStatus(updateItemAt<IntercomItem>(s, index, changes));
}

function senderOf(s: SessionState, from: string): SubagentItem | undefined {
  if (!from) return undefined;
  const index = findLastIndex(s.items, (item) => item.kind === 'subagent' && item.target === from);
  return index < 0 ? undefined : subagentOf(s, s.items[index].id);
}

// Reducers that tell the user something: the core's info and error events, retries, compaction, recovery.
import type { NoticeItem, SessionState } from '../../shared/sessionState';
import type { NoticeEvent } from './clientEvents';
import { type UntrustedEvent, bool, num, str, strings } from './eventFields';
import { reduceQueueInfo } from './reduceRun';
import { reduceVisionInfo } from './visionNote';
import { appendItem, currentAssistantIndex, newItemId, streamingToolIndexes, updateItemAt, withItems } from './transcript';

/** What the user can do about an error code: log in for auth problems, read the log for provider failures. */
const ERROR_ACTIONS: Record<string, NoticeItem['action']> = {
  auth_error: 'login',
  not_logged_in: 'login',
  missing_key: 'login',
  no_provider: 'login',
  no_model: 'login',
  provider_error: 'showLog',
  internal_error: 'showLog',
  protocol_read_error: 'showLog',
};

type NoticeFields = Omit<NoticeItem, 'kind' | 'id'>;

export function addNotice(s: SessionState, notice: NoticeFields): SessionState {
  const item: NoticeItem = { kind: 'notice', id: newItemId(s, 'n'), level: notice.level, text: notice.text };
  if (notice.code !== undefined) item.code = notice.code;
  if (notice.action !== undefined) item.action = notice.action;
  return appendItem(s, item);
}

/** Replaces the last item when it is a notice with the same code (retries and compaction progress update in place). */
export function upsertNotice(s: SessionState, notice: NoticeFields): SessionState {
  const index = s.items.length - 1;
  const last = s.items[index];
  if (last?.kind === 'notice' && notice.code !== undefined && last.code === notice.code) {
    return updateItemAt<NoticeItem>(s, index, { level: notice.level, text: notice.text });
  }
  return addNotice(s, notice);
}

export function reduceClientNotice(s: SessionState, e: NoticeEvent): SessionState {
  if (typeof e.text !== 'string' || !e.text) return s;
  return addNotice(s, { level: e.level ?? 'info', text: e.text, code: e.code, action: e.action });
}

export function reduceInfo(s: SessionState, e: UntrustedEvent<'info'>): SessionState {
  const message = str(e.message);
  if (!message || isGoalWorkerTally(s, e, message)) return s;
  return reduceVisionInfo(s, message) ?? reduceQueueInfo(s, message) ?? addNotice(s, { level: 'info', text: message });
}

/**
 * Deliberately not shown: a goal worker's closing token tally (`subagent done (model): …`, in the goal's run). A goal
 * has no tool card in the chat to sit under, so each worker would leave a stray line there; the Control Center's step
 * rows show the worker's tokens instead.
 */
function isGoalWorkerTally(s: SessionState, e: UntrustedEvent<'info'>, message: string): boolean {
  return s.goal !== undefined && str(e.run_id) === s.goal.id && message.startsWith('subagent done (');
}

export function reduceError(s: SessionState, e: UntrustedEvent<'error'>): SessionState {
  const code = str(e.code);
  const text = str(e.message) || (code ? `error: ${code}` : 'the core reported an error');
  return addNotice(s, { level: 'error', text, code, action: code ? ERROR_ACTIONS[code] : undefined });
}

/**
 * The core's answer to /memory: a quiet confirmation naming the note. A core that does not echo the note (upstream)
 * gets its own message shown; forget_memory's answer, which has no note, is its message as well.
 */
export function reduceMemorySaved(s: SessionState, e: UntrustedEvent<'memory_saved'>): SessionState {
  const note = str(e.text)?.trim();
  const text = note ? `Saved to memory: ${note}` : str(e.message);
  return text ? addNotice(s, { level: 'info', text }) : s;
}

/**
 * A provider retry; with `discard_partial` the output streamed by the failed attempt is void and goes away. Our core's
 * `detail` says more than upstream's generic stream `reason`, so it is shown when present.
 */
export function reduceHttpRetry(s: SessionState, e: UntrustedEvent<'http_retry'>): SessionState {
  const next = e.discard_partial === true ? discardPartialOutput(s) : s;
  const status = num(e.status);
  const reason = str(e.detail) || str(e.reason);
  const backoff = num(e.backoff_ms);
  const text =
    `The model request failed (${status !== undefined ? `HTTP ${status}` : 'stream dropped'}${reason ? `: ${reason}` : ''}); ` +
    `retrying${num(e.attempt) !== undefined ? ` (attempt ${num(e.attempt)})` : ''}${backoff !== undefined ? ` in ${formatSeconds(backoff)}` : ''}.`;
  return upsertNotice(next, { level: 'warning', text, code: 'http_retry' });
}

/** The failed attempt's output is the streaming tool cards at the end and the streaming assistant item before them. */
function discardPartialOutput(s: SessionState): SessionState {
  const cards = streamingToolIndexes(s.items);
  const index = currentAssistantIndex(s.items);
  const keep = index >= 0 ? index : (cards[0] ?? s.items.length);
  return keep < s.items.length ? withItems(s, s.items.slice(0, keep)) : s;
}

/** A subagent's own compaction (scope "subagent") is not the session's: the main transcript shows none of it. */
const isChildCompaction = (e: UntrustedEvent<'compacting' | 'compacted'>): boolean => str(e.scope) === 'subagent';

export function reduceCompacting(s: SessionState, e: UntrustedEvent<'compacting'>): SessionState {
  if (isChildCompaction(e)) return s;
  const before = num(e.before_tokens);
  const text = `Compacting the conversation${before !== undefined ? ` (${before.toLocaleString('en-US')} tokens)` : ''}…`;
  return upsertNotice(s, { level: 'info', text, code: 'compaction' });
}

export function reduceCompacted(s: SessionState, e: UntrustedEvent<'compacted'>): SessionState {
  if (isChildCompaction(e)) return s;
  const before = num(e.before_tokens);
  const after = num(e.after_tokens);
  const figures =
    before !== undefined && after !== undefined ? `: ${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} tokens` : '';
  const warning = bool(e.within_limit) === false;
  const text = `Conversation compacted${figures}${warning ? ' (still above the context limit)' : ''}.`;
  return upsertNotice(s, { level: warning ? 'warning' : 'info', text, code: 'compaction' });
}

export function reduceSessionRecovered(s: SessionState, e: UntrustedEvent<'session_recovered'>): SessionState {
  const warnings = strings(e.warnings);
  const interrupted = strings(e.interrupted_runs).length;
  const parts = [...warnings];
  if (interrupted > 0) parts.push(`${interrupted} interrupted run${interrupted === 1 ? ' was' : 's were'} marked as interrupted`);
  const text = `The session was recovered${parts.length ? `: ${parts.join('; ')}` : ''}.`;
  return addNotice(s, { level: 'warning', text, code: 'session_recovered' });
}

export function reduceSessionChangeFailed(s: SessionState, e: UntrustedEvent<'session_change_failed'>): SessionState {
  const text = str(e.message) || `could not open the session ${str(e.path) ?? ''}`.trim();
  return addNotice(s, { level: 'error', text, code: 'session_change_failed' });
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

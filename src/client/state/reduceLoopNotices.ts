// The agent loop's own quiet notices (research §12): the stuck-loop nudge, auto-reflect and its summary gate, the soft
// digest of stale tool results, and the advisor's notes. Each is one line in the transcript, never a card; only the
// summary gate's has a code, so that its second attempt replaces the first.
import type { NoticeItem, SessionState } from '../../shared/sessionState';
import { type UntrustedEvent, num, str } from './eventFields';
import { addNotice, upsertNotice } from './reduceNotices';
import { withContextTokens } from './reduceUsage';

/** How much of a core-written message a notice shows: one line's worth, the rest is for the model. */
const NOTICE_TEXT_LIMIT = 300;

/** The nudge's message is addressed to the model; its first sentence says what was repeated. */
export function reduceStuckNudge(s: SessionState, e: UntrustedEvent<'stuck_nudge'>): SessionState {
  const first = firstSentence(str(e.message) ?? '');
  const text = first ? `Loop nudge: ${first}` : 'Loop nudge: the agent was repeating the same tool call.';
  return addNotice(s, { level: 'info', text });
}

/** Upstream's web toast, as a line that updates in place from attempt 1 to 2. */
export function reduceSummaryRequired(s: SessionState, e: UntrustedEvent<'summary_required'>): SessionState {
  const attempt = num(e.attempt);
  const max = num(e.max_attempts);
  const count = attempt !== undefined && max !== undefined ? ` (${attempt}/${max})` : '';
  return upsertNotice(s, { level: 'info', text: `Writing completion summary${count}…`, code: 'summary_required' });
}

export function reduceReflecting(s: SessionState, e: UntrustedEvent<'reflecting'>): SessionState {
  const recurrence = num(e.recurrence);
  const patterns = recurrence ? ` (${recurrence} recurring pattern${recurrence === 1 ? '' : 's'})` : '';
  return addNotice(s, { level: 'info', text: `Reflecting on the turn${patterns}…` });
}

/**
 * A child's digest (scope "subagent") is its own context, not the session's: neither the transcript nor the context
 * meter shows it, as for compaction.
 */
export function reduceDigested(s: SessionState, e: UntrustedEvent<'digested'>): SessionState {
  if (str(e.scope) === 'subagent') return s;
  const results = num(e.results);
  const before = num(e.before_tokens);
  const after = num(e.after_tokens);
  const what = results !== undefined ? `${results} stale tool result${results === 1 ? '' : 's'}` : 'stale tool results';
  const figures =
    before !== undefined && after !== undefined ? ` (${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} tokens)` : '';
  const noted = addNotice(s, { level: 'info', text: `Reclaimed ${what}${figures}.` });
  // The context meter shows the smaller context at once, as upstream's TUI; the next request's metrics correct it.
  return after !== undefined ? withContextTokens(noted, after) : noted;
}

const ADVISOR_LEVELS: Record<string, NoticeItem['level']> = { nit: 'info', concern: 'warning', blocker: 'warning' };

/** Upstream's UIs show concern and blocker as warnings, a nit as information. */
export function reduceAdvisorNote(s: SessionState, e: UntrustedEvent<'advisor_note'>): SessionState {
  const message = str(e.message)?.trim();
  if (!message) return s;
  const severity = str(e.severity) ?? '';
  const level = Object.hasOwn(ADVISOR_LEVELS, severity) ? ADVISOR_LEVELS[severity] : 'info';
  const advisor = str(e.advisor);
  const who = advisor && advisor !== 'default' ? `Advisor ${advisor}` : 'Advisor';
  const label = Object.hasOwn(ADVISOR_LEVELS, severity) ? ` (${severity})` : '';
  return addNotice(s, { level, text: `${who}${label}: ${clip(message)}` });
}

function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const end = line.search(/[.!?](\s|$)/);
  return clip(end >= 0 ? line.slice(0, end + 1) : line);
}

function clip(text: string): string {
  return text.length > NOTICE_TEXT_LIMIT ? `${text.slice(0, NOTICE_TEXT_LIMIT - 1)}…` : text;
}

// Reducers for the session as a whole: the session list, switching files, reset, and the history a core replays.
import type { SessionSummary } from '../../protocol';
import type { CheckpointItem, SessionState, SessionView, TranscriptItem } from '../../shared/sessionState';
import { type UntrustedEvent, bool, num, records, str } from './eventFields';
import { itemsFromHistory, withHistoryTurnCosts } from './historyItems';
import { withHistorySubagents } from './historySubagents';
import { reduceAllRunsEnded } from './reduceRun';
import { newItemId } from './transcript';

export function reduceSessions(s: SessionState, e: UntrustedEvent<'sessions'>): SessionState {
  if (!Array.isArray(e.sessions)) return s;
  const sessions = records<SessionSummary>(e.sessions).flatMap((r): SessionView[] => {
    const path = str(r.path);
    if (!path) return [];
    return [
      {
        name: str(r.name) ?? path.split(/[\\/]/).pop() ?? path,
        path,
        title: str(r.title) ?? '',
        messages: num(r.messages) ?? 0,
        mtime: num(r.mtime) ?? 0,
        current: bool(r.current) ?? false,
        pinned: bool(r.pinned) ?? false,
      },
    ];
  });
  return { ...s, sessions };
}

/** The core switched files. A new session starts empty; a loaded one is followed by `reset` and `history`. */
export function reduceSessionChanged(s: SessionState, e: UntrustedEvent<'session_changed'>): SessionState {
  const path = str(e.path);
  let next: SessionState = path === undefined || path === s.sessionFile ? s : { ...s, sessionFile: path };
  if (path !== undefined && next.sessions.some((v) => v.current !== (v.path === path))) {
    next = { ...next, sessions: next.sessions.map((v) => (v.current === (v.path === path) ? v : { ...v, current: v.path === path })) };
  }
  if (e.new !== true) return next;
  const cleared = reduceAllRunsEnded(next.items.length ? { ...next, items: [] } : next);
  const usage = { tokensIn: 0, tokensOut: 0, cachedTokens: 0 };
  const fresh: SessionState = { ...cleared, usage };
  delete fresh.context;
  return fresh;
}

export function reduceSessionRenamed(s: SessionState, e: UntrustedEvent<'session_renamed'>): SessionState {
  const title = str(e.title);
  return title === undefined ? s : updateSessionView(s, str(e.path), { title });
}

export function reduceSessionPinned(s: SessionState, e: UntrustedEvent<'session_pinned'>): SessionState {
  const pinned = bool(e.pinned);
  return pinned === undefined ? s : updateSessionView(s, str(e.path), { pinned });
}

export function reduceSessionDeleted(s: SessionState, e: UntrustedEvent<'session_deleted'>): SessionState {
  const path = str(e.path);
  const sessions = s.sessions.filter((v) => v.path !== path);
  return sessions.length === s.sessions.length ? s : { ...s, sessions };
}

function updateSessionView(s: SessionState, path: string | undefined, changes: Partial<SessionView>): SessionState {
  const index = s.sessions.findIndex((v) => v.path === path);
  if (index < 0) return s;
  const sessions = s.sessions.slice();
  sessions[index] = { ...sessions[index], ...changes };
  return { ...s, sessions };
}

/** `reset`: the conversation is empty (reset, clear, new or loaded session); no run survives it. */
export function reduceReset(s: SessionState): SessionState {
  return reduceAllRunsEnded(s.items.length ? { ...s, items: [] } : s);
}

/**
 * `history` replaces the transcript with the stored conversation (resume after a restart, load, undo), so nothing is
 * shown twice; a `subagent` card gets its ended runs' rows back. Notices at the end of the transcript are kept after it: they tell what just happened (a restart).
 */
export function reduceHistory(s: SessionState, e: UntrustedEvent<'history'>): SessionState {
  if (!Array.isArray(e.messages)) return s;
  const prefix = newItemId(s, 'h');
  const replayed = withHistorySubagents(withHistoryTurnCosts(itemsFromHistory(e.messages, prefix), prefix, e.turn_costs), e.subagents);
  const rebuilt = keepCheckpointRows(s.items, replayed);
  const items: TranscriptItem[] = [...rebuilt, ...trailingNotices(s.items)];
  return { ...s, items };
}

/**
 * The conversation's history carries no checkpoints, so a rebuild (after `undo`, a compaction, a restart) would drop
 * their rows. Each row goes back after the same user message it followed (same position among user messages, same
 * text); rows of turns the history no longer has (an undone turn) go. A different session starts from cleared items.
 */
function keepCheckpointRows(old: readonly TranscriptItem[], rebuilt: TranscriptItem[]): TranscriptItem[] {
  const after = new Map<number, { text: string | undefined; rows: CheckpointItem[] }>();
  let ordinal = -1;
  let userText: string | undefined;
  for (const item of old) {
    if (item.kind === 'user') {
      ordinal++;
      userText = item.text;
    } else if (item.kind === 'checkpoint') {
      const slot = after.get(ordinal) ?? { text: userText, rows: [] };
      slot.rows.push(item);
      after.set(ordinal, slot);
    }
  }
  if (after.size === 0) return rebuilt;
  const out: TranscriptItem[] = [...(after.get(-1)?.rows ?? [])];
  ordinal = -1;
  for (const item of rebuilt) {
    out.push(item);
    if (item.kind !== 'user') continue;
    ordinal++;
    const slot = after.get(ordinal);
    if (slot && slot.text === item.text) out.push(...slot.rows);
  }
  return out;
}

function trailingNotices(items: readonly TranscriptItem[]): TranscriptItem[] {
  let i = items.length;
  while (i > 0 && items[i - 1].kind === 'notice') i--;
  return items.slice(i);
}

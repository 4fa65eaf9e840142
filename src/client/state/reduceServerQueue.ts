// Reducers for what only an adapter's server reports (SCV): its own queue, tool progress lines, turns it starts itself.
import { type ServerQueueView, type SessionState, type ToolItem, TOOL_PROGRESS_LINES } from '../../shared/sessionState';
import type { ServerQueueEvent, ServerTurnEvent, ToolProgressEvent } from './clientEvents';
import { appendItem, indexOfItem, newItemId, updateItemAt, withRun } from './transcript';

const MAX_PROGRESS_LINE = 200;

/** The server's queue replaces the mirror wholesale; malformed entries are dropped, never shown. */
export function reduceServerQueue(s: SessionState, e: ServerQueueEvent): SessionState {
  const q = e.queue;
  if (typeof q !== 'object' || q === null || !Array.isArray(q.entries)) return s;
  const entries = q.entries.filter(
    (x) =>
      typeof x === 'object' &&
      x !== null &&
      typeof x.id === 'string' &&
      x.id !== '' &&
      typeof x.prompt === 'string' &&
      Number.isSafeInteger(x.revision),
  );
  const queue: ServerQueueView = {
    entries: entries.map((x) => ({ id: x.id, revision: x.revision, prompt: x.prompt })),
    paused: q.paused === true,
  };
  return { ...s, serverQueue: queue };
}

/** Keeps the newest TOOL_PROGRESS_LINES lines on the tool's card; ignored once the tool has no card. */
export function reduceToolProgress(s: SessionState, e: ToolProgressEvent): SessionState {
  if (typeof e.id !== 'string' || typeof e.text !== 'string') return s;
  const index = indexOfItem(s.items, 'tool', e.id);
  if (index < 0) return s;
  const tool = s.items[index] as ToolItem;
  const lines = e.text
    .split('\n')
    .map((l) => l.trimEnd().slice(0, MAX_PROGRESS_LINE))
    .filter((l) => l !== '');
  if (lines.length === 0) return s;
  const progress = [...(tool.progress ?? []), ...lines].slice(-TOOL_PROGRESS_LINES);
  return updateItemAt<ToolItem>(s, index, { progress });
}

/** A turn the server started: an info row says why, then the run is on (its events carry `run_id`). */
export function reduceServerTurn(s: SessionState, e: ServerTurnEvent): SessionState {
  if (typeof e.runId !== 'string' || e.runId === '') return s;
  const reason = typeof e.reason === 'string' && e.reason.trim() ? e.reason.trim() : 'the server started a turn';
  const next = appendItem(s, { kind: 'notice', id: newItemId(s, 'srv'), level: 'info', text: `The server started a turn: ${reason}.` });
  return withRun(next, { status: 'running', runId: e.runId });
}

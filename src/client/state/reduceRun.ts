// Reducers for a run's lifecycle: the user's prompt, the one-deep queue, steering, and the ways a run ends.
import { type SessionState, UI_CAPABILITIES } from '../../shared/sessionState';
import type { PromptEvent } from './clientEvents';
import { type UntrustedEvent, str } from './eventFields';
import { appendItem, finalizeItems, newItemId, withItems, withRun } from './transcript';

const STEER_ID_PREFIX = 'steer';

/**
 * The user's prompt shows at once when idle; while a run is going the core queues it one deep. A core with a server-side
 * queue (SCV) reports a prompt only as its turn starts (the adapter, when the server dequeues it): whatever run the state
 * still shows is over by then, so it is closed and the prompt starts the next turn.
 */
export function reducePrompt(s: SessionState, e: PromptEvent): SessionState {
  if (typeof e.text !== 'string') return s;
  const serverQueue = s.core.capabilities.includes(UI_CAPABILITIES.serverQueue);
  if (s.run.status !== 'idle' && !serverQueue) return withRun(s, { queued: e.text });
  const before = s.run.status === 'idle' ? s : withItems(s, finalizeItems(s.items, s.run.runId, true));
  const images = Number.isInteger(e.images) && e.images > 0 ? e.images : 0;
  const next = appendItem(before, { kind: 'user', id: newItemId(s, 'u'), text: e.text, images });
  return withRun(next, { status: 'running', runId: undefined });
}

/** `done`: the run is over; a queued prompt now starts as the next run (the core starts it right after). */
export function reduceDone(s: SessionState, e: UntrustedEvent<'done'>): SessionState {
  const ended = endRun(s, str(e.run_id));
  if (ended.scope === 'other') return ended.state;
  const queued = s.run.queued;
  const idle = withRun(ended.state, { status: 'idle', runId: undefined, queued: undefined });
  return queued === undefined ? idle : reducePrompt(idle, { type: 'client:prompt', text: queued, images: 0 });
}

/** `aborted`: after a steer the new run is already starting (its prompt is the last item); otherwise idle, queue dropped. */
export function reduceAborted(s: SessionState, e: UntrustedEvent<'aborted'>): SessionState {
  const ended = endRun(s, str(e.run_id));
  if (ended.scope === 'other') return ended.state;
  const last = ended.state.items[ended.state.items.length - 1];
  if (last?.kind === 'user' && last.id.startsWith(STEER_ID_PREFIX)) return ended.state;
  return withRun(ended.state, { status: 'idle', runId: undefined, queued: undefined });
}

/** `run_cancelled`: terminal for that run; `done` may never come (its events are dropped as stale). */
export function reduceRunCancelled(s: SessionState, e: UntrustedEvent<'run_cancelled'>): SessionState {
  const ended = endRun(s, str(e.run_id));
  if (ended.scope === 'other') return ended.state;
  if (str(e.reason) === 'steering') return withRun(ended.state, { status: 'running', runId: undefined });
  return withRun(ended.state, { status: 'idle', runId: undefined, queued: undefined });
}

/** `steer`: the prompt that redirects the run; the old run is cancelled next and a new one starts with this prompt. */
export function reduceSteer(s: SessionState, e: UntrustedEvent<'steer'>): SessionState {
  const prompt = str(e.prompt);
  if (prompt === undefined) return s;
  const finished = withItems(s, finalizeItems(s.items, s.run.runId, false));
  const next = appendItem(finished, { kind: 'user', id: newItemId(s, STEER_ID_PREFIX), text: prompt, images: 0 });
  return withRun(next, { status: 'running', runId: undefined });
}

/** The core's queue notices (`info`): "prompt queued…" confirms the queue, "queue cleared/already empty" empties it. */
export function reduceQueueInfo(s: SessionState, message: string): SessionState | undefined {
  if (message.startsWith('prompt queued')) return withRun(s, { queued: s.run.queued ?? '' });
  if (message === 'queue cleared' || message === 'queue already empty') return withRun(s, { queued: undefined });
  return undefined;
}

/** Ends every run in the transcript: the core is gone (crashed, restarting, stopped) or the conversation was replaced. */
export function reduceAllRunsEnded(s: SessionState): SessionState {
  const next = withItems(s, finalizeItems(s.items, undefined, true));
  return withRun(next, { status: 'idle', runId: undefined, queued: undefined });
}

/**
 * Finalizes the items of the ended run. `scope` 'current' when the event is about the current run (or carries no
 * run id), 'other' when it names an older run, whose items are closed without touching the current run's status.
 */
function endRun(s: SessionState, runId: string | undefined): { state: SessionState; scope: 'current' | 'other' } {
  const current = runId === undefined || s.run.runId === undefined || runId === s.run.runId;
  const items = finalizeItems(s.items, runId ?? s.run.runId, current);
  return { state: withItems(s, items), scope: current ? 'current' : 'other' };
}

// Reducers for workspace activity shown in the transcript: the user's own shell commands and checkpoints.
import type { CheckpointItem, SessionState } from '../shared/sessionState';
import { type Fields, str } from './eventFields';
import { appendItem, indexOfItem, newItemId, updateItemAt } from './transcript';

export function reduceBashExecution(s: SessionState, e: Fields): SessionState {
  const command = str(e.command);
  if (command === undefined) return s;
  return appendItem(s, { kind: 'bash', id: newItemId(s, 'b'), command, output: str(e.output) ?? '', ok: e.ok === true });
}

export function reduceCheckpointCreated(s: SessionState, e: Fields): SessionState {
  const id = str(e.id);
  if (!id || indexOfItem(s.items, 'checkpoint', id) >= 0) return s;
  const item: CheckpointItem = { kind: 'checkpoint', id, label: str(e.label) ?? id, auto: e.auto === true };
  const runId = str(e.run_id);
  if (runId !== undefined) item.runId = runId;
  return appendItem(s, item);
}

export function reduceCheckpointRestored(s: SessionState, e: Fields): SessionState {
  const id = str(e.id);
  const index = id ? indexOfItem(s.items, 'checkpoint', id) : -1;
  return index < 0 ? s : updateItemAt<CheckpointItem>(s, index, { restored: true });
}

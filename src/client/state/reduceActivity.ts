// Reducers for workspace activity shown in the transcript: the user's own shell commands and checkpoints.
import type { BashItem, CheckpointItem, SessionState } from '../../shared/sessionState';
import { createdAtFromId, timestampMs } from '../checkpoints/checkpointEvents';
import { type UntrustedEvent, str, strings } from './eventFields';
import { appendItem, indexOfItem, newItemId, updateItemAt } from './transcript';

export function reduceBashExecution(s: SessionState, e: UntrustedEvent<'bash_execution'>): SessionState {
  const command = str(e.command);
  if (command === undefined) return s;
  const item: BashItem = { kind: 'bash', id: newItemId(s, 'b'), command, output: str(e.output) ?? '', ok: e.ok === true };
  if (e.exclude_from_context === true) item.excludedFromContext = true;
  return appendItem(s, item);
}

export function reduceCheckpointCreated(s: SessionState, e: UntrustedEvent<'checkpoint_created'>): SessionState {
  const id = str(e.id);
  if (!id || indexOfItem(s.items, 'checkpoint', id) >= 0) return s;
  const item: CheckpointItem = { kind: 'checkpoint', id, label: str(e.label) ?? id, auto: e.auto === true };
  const runId = str(e.run_id);
  if (runId !== undefined) item.runId = runId;
  const createdAt = timestampMs(e.created_at) ?? createdAtFromId(id);
  if (createdAt !== undefined) item.createdAt = createdAt;
  return appendItem(s, item);
}

/** Marks the row restored, with the core's counts when it sent its lists (a one-file restore counts one). */
export function reduceCheckpointRestored(s: SessionState, e: UntrustedEvent<'checkpoint_restored'>): SessionState {
  const id = str(e.id);
  const index = id ? indexOfItem(s.items, 'checkpoint', id) : -1;
  if (index < 0) return s;
  const changes: Partial<CheckpointItem> = { restored: true };
  if (Array.isArray(e.restored)) changes.restoredFiles = strings(e.restored).length;
  if (Array.isArray(e.removed)) changes.removedFiles = strings(e.removed).length;
  return updateItemAt<CheckpointItem>(s, index, changes);
}

export function reduceCheckpointDeleted(s: SessionState, e: UntrustedEvent<'checkpoint_deleted'>): SessionState {
  const id = str(e.id);
  const index = id ? indexOfItem(s.items, 'checkpoint', id) : -1;
  return index < 0 ? s : updateItemAt<CheckpointItem>(s, index, { deleted: true });
}

import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../coreRuntime';
import type { CheckpointRecord } from '../checkpoints/types';
import { emitHistory } from './sessionEvents';

export function checkpointInfo(cp: CheckpointRecord): Record<string, unknown> {
  return { id: cp.id, label: cp.label, created_at: cp.created_at, kind: cp.kind, head_sha: cp.head_sha, stash_sha: cp.stash_sha, paths: cp.paths, dir: cp.dir, auto: cp.auto, run_id: cp.run_id ?? null };
}

export async function handleCreateCheckpoint(rt: CoreRuntime, cmd: CommandOf<'create_checkpoint'>): Promise<void> {
  const paths = Array.isArray(cmd.paths) ? cmd.paths.filter((p): p is string => typeof p === 'string') : undefined;
  const cp = await rt.checkpoints.create({ label: typeof cmd.label === 'string' && cmd.label ? cmd.label : 'manual', paths, auto: false });
  rt.emit({ type: 'checkpoint_created', id: cp.id, label: cp.label, kind: cp.kind, auto: false, paths: cp.paths });
}

export function handleListCheckpoints(rt: CoreRuntime): void {
  rt.emit({ type: 'checkpoints', checkpoints: rt.checkpoints.list().map(checkpointInfo) });
}

export async function handleRestoreCheckpoint(rt: CoreRuntime, cmd: CommandOf<'restore_checkpoint'>): Promise<void> {
  const cp = rt.checkpoints.list().find((c) => c.id === cmd.id);
  if (!cp) {
    rt.emit({ type: 'error', code: 'not_found', message: `unknown checkpoint: ${String(cmd.id)}` });
    return;
  }
  if (rt.runs.active) {
    rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; abort it before restoring a checkpoint' });
    return;
  }
  const result = await rt.checkpoints.restore(cp.id);
  rt.emit({ type: 'checkpoint_restored', id: cp.id, kind: cp.kind, restored: result.restored, removed: result.removed });
  rt.emit({ type: 'info', message: `restored checkpoint ${cp.label} (${result.restored.length} file(s) restored, ${result.removed.length} removed)` });
}

/** `undo`: drops the last turn from the conversation and restores the automatic checkpoint taken in that turn, if any. */
export async function handleUndo(rt: CoreRuntime): Promise<void> {
  if (rt.runs.active) {
    rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; abort it before undoing' });
    return;
  }
  const start = rt.conversation.lastTurnStart();
  if (start < 0) {
    rt.emit({ type: 'info', message: 'nothing to undo' });
    emitHistory(rt);
    return;
  }
  const runs = rt.conversation.runRecords;
  const lastTurn = [...runs].reverse().find((r) => r.kind === 'turn' && r.state === 'started');
  const checkpoint = lastTurn ? [...rt.checkpoints.list()].reverse().find((c) => c.auto && c.run_id === lastTurn.run_id) : undefined;
  rt.conversation.replace(rt.conversation.all.slice(0, start), runs.filter((r) => r.run_id !== lastTurn?.run_id));
  if (checkpoint) {
    try {
      const result = await rt.checkpoints.restore(checkpoint.id);
      rt.emit({ type: 'checkpoint_restored', id: checkpoint.id, kind: checkpoint.kind, restored: result.restored, removed: result.removed });
    } catch (err) {
      rt.emit({ type: 'error', code: 'checkpoint_restore', message: `the conversation was rolled back but its files were not: ${(err as Error).message}` });
    }
  }
  emitHistory(rt);
}

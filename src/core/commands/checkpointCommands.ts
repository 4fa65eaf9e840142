import { CHECKPOINT_ERROR_CODES, type CheckpointInfo, type CommandOf, type ErrorEvent } from '../../protocol';
import { emitCreated } from '../app/autoCheckpoints';
import type { CoreRuntime } from '../app/coreRuntime';
import { CheckpointNotFoundError } from '../checkpoints/checkpointManager';
import { toWorkspaceRelative } from '../checkpoints/relPath';
import type { CheckpointRecord } from '../checkpoints/types';
import { emitHistory } from './sessionEvents';

/** `checkpoint_file` sends content up to this size (the wire's lines are capped at 8 MiB). */
export const CHECKPOINT_FILE_MAX_BYTES = 2 * 1024 * 1024;

const secs = (ms: number) => Math.floor(ms / 1000);

export function checkpointInfo(cp: CheckpointRecord): CheckpointInfo {
  return {
    id: cp.id,
    label: cp.label,
    created_at: secs(cp.created_at),
    kind: cp.kind,
    head_sha: cp.head_sha || null,
    stash_sha: cp.stash_sha || null,
    paths: cp.paths,
    dir: cp.dir || null,
    auto: cp.auto,
    run_id: cp.run_id ?? null,
    ...(cp.skipped?.length ? { skipped: cp.skipped } : {}),
    ...(cp.max_file_bytes ? { max_file_bytes: cp.max_file_bytes } : {}),
  };
}

/** The fields a checkpoint command's error adds: which checkpoint and file it is about. */
type CheckpointErrorSubject = Pick<ErrorEvent, 'id' | 'path'>;

function checkpointError(rt: CoreRuntime, code: string, message: string, extra: CheckpointErrorSubject = {}): void {
  rt.emit({ type: 'error', code, message, ...extra });
}

/** A live checkpoint, or undefined after answering `checkpoint_not_found`. */
function findCheckpoint(rt: CoreRuntime, id: unknown): CheckpointRecord | undefined {
  const cp = typeof id === 'string' ? rt.checkpoints.list().find((c) => c.id === id) : undefined;
  if (!cp)
    checkpointError(rt, CHECKPOINT_ERROR_CODES.notFound, `unknown checkpoint: ${String(id).slice(0, 80)}`, {
      id: typeof id === 'string' ? id : null,
    });
  return cp;
}

/** A workspace-relative file path, or undefined after answering `invalid_path`. */
function validPath(rt: CoreRuntime, id: string, p: unknown): string | undefined {
  let rel: string | undefined;
  if (typeof p === 'string' && p !== '' && !p.includes('\0')) {
    try {
      rel = toWorkspaceRelative(rt.workspace, p);
    } catch {
      rel = undefined;
    }
  }
  if (!rel) {
    checkpointError(
      rt,
      CHECKPOINT_ERROR_CODES.invalidPath,
      `invalid path for checkpoint ${id}: ${JSON.stringify(String(p).slice(0, 200))} (expected a file inside the workspace)`,
      { id, path: typeof p === 'string' ? p : null },
    );
  }
  return rel;
}

/** Answers a failed checkpoint operation with a coded error instead of the dispatcher's generic one. */
function failed(rt: CoreRuntime, id: string, err: unknown, extra: CheckpointErrorSubject = {}): void {
  const message = (err as Error).message;
  if (err instanceof CheckpointNotFoundError)
    return checkpointError(rt, CHECKPOINT_ERROR_CODES.notFound, `unknown checkpoint: ${id}`, { id });
  if (/outside the workspace|not covered by this checkpoint/.test(message))
    return checkpointError(rt, CHECKPOINT_ERROR_CODES.invalidPath, message, { id, ...extra });
  rt.log(`checkpoint ${id}: ${(err as Error).stack ?? message}`);
  checkpointError(rt, 'checkpoint_failed', `checkpoint ${id}: ${message}`, { id, ...extra });
}

export async function handleCreateCheckpoint(rt: CoreRuntime, cmd: CommandOf<'create_checkpoint'>): Promise<void> {
  const paths = Array.isArray(cmd.paths) ? cmd.paths.filter((p): p is string => typeof p === 'string') : undefined;
  try {
    const cp = await rt.checkpoints.create({
      label: typeof cmd.label === 'string' && cmd.label ? cmd.label : 'manual',
      paths,
      auto: false,
    });
    emitCreated(rt, cp);
  } catch (err) {
    const message = (err as Error).message;
    if (/outside the workspace/.test(message)) return checkpointError(rt, CHECKPOINT_ERROR_CODES.invalidPath, message);
    rt.log(`create_checkpoint: ${(err as Error).stack ?? message}`);
    checkpointError(rt, 'checkpoint_failed', `could not create the checkpoint: ${message}`);
  }
}

export function handleListCheckpoints(rt: CoreRuntime): void {
  rt.emit({ type: 'checkpoints', checkpoints: rt.checkpoints.list().map(checkpointInfo) });
}

export async function handleRestoreCheckpoint(rt: CoreRuntime, cmd: CommandOf<'restore_checkpoint'>): Promise<void> {
  const cp = findCheckpoint(rt, cmd.id);
  if (!cp) return;
  let paths: string[] | undefined;
  if (Array.isArray(cmd.paths) && cmd.paths.length > 0) {
    paths = [];
    for (const p of cmd.paths) {
      const rel = validPath(rt, cp.id, p);
      if (rel === undefined) return;
      paths.push(rel);
    }
  }
  if (rt.runs.active) {
    checkpointError(rt, 'busy', 'a turn is running; abort it before restoring a checkpoint', { id: cp.id });
    return;
  }
  try {
    const result = await rt.checkpoints.restore(cp.id, paths);
    rt.emit({ type: 'checkpoint_restored', id: cp.id, kind: cp.kind, restored: result.restored, removed: result.removed });
    const what = paths ? `${paths.length} path(s) of checkpoint` : 'checkpoint';
    rt.emit({
      type: 'info',
      message: `restored ${what} ${cp.label} (${result.restored.length} file(s) restored, ${result.removed.length} removed)`,
    });
  } catch (err) {
    failed(rt, cp.id, err);
  }
}

export async function handleDeleteCheckpoint(rt: CoreRuntime, cmd: CommandOf<'delete_checkpoint'>): Promise<void> {
  const cp = findCheckpoint(rt, cmd.id);
  if (!cp) return;
  try {
    await rt.checkpoints.delete(cp.id);
    rt.emit({ type: 'checkpoint_deleted', id: cp.id });
  } catch (err) {
    failed(rt, cp.id, err);
  }
}

/**
 * Read-only queries answer when the checkpoint queue gets to them without holding up the command loop, so a burst of
 * them (a client refreshing every checkpoint) never delays `abort` or `approve`. Their answers keep their order.
 */
export function handleCheckpointQuery(rt: CoreRuntime, cmd: CommandOf<'checkpoint_changes'> | CommandOf<'checkpoint_file'>): void {
  const done = cmd.type === 'checkpoint_changes' ? handleCheckpointChanges(rt, cmd) : handleCheckpointFile(rt, cmd);
  void done.catch((err: Error) =>
    checkpointError(rt, 'checkpoint_failed', `${cmd.type} failed: ${err.message}`, { id: typeof cmd.id === 'string' ? cmd.id : null }),
  );
}

export async function handleCheckpointChanges(rt: CoreRuntime, cmd: CommandOf<'checkpoint_changes'>): Promise<void> {
  const cp = findCheckpoint(rt, cmd.id);
  if (!cp) return;
  try {
    const files = await rt.checkpoints.changedFiles(cp.id);
    rt.emit({ type: 'checkpoint_changes', id: cp.id, files });
  } catch (err) {
    failed(rt, cp.id, err);
  }
}

/** Text as UTF-8, unless it has a NUL in its first 8000 bytes (git's test) or is not valid UTF-8. */
function decodeText(buf: Buffer): string | undefined {
  if (buf.subarray(0, 8000).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return undefined;
  }
}

export async function handleCheckpointFile(rt: CoreRuntime, cmd: CommandOf<'checkpoint_file'>): Promise<void> {
  const cp = findCheckpoint(rt, cmd.id);
  if (!cp) return;
  const rel = validPath(rt, cp.id, cmd.path);
  if (rel === undefined) return;
  const answer = { type: 'checkpoint_file', id: cp.id, path: cmd.path } as const;
  try {
    const content = await rt.checkpoints.readFileAt(cp.id, rel);
    if (content === null) return rt.emit({ ...answer, exists: false });
    if (content.length > CHECKPOINT_FILE_MAX_BYTES) return rt.emit({ ...answer, exists: true, too_large: true });
    const text = decodeText(content);
    rt.emit(text === undefined ? { ...answer, exists: true, binary: true } : { ...answer, exists: true, content: text });
  } catch (err) {
    failed(rt, cp.id, err, { path: cmd.path });
  }
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
  rt.conversation.replace(
    rt.conversation.all.slice(0, start),
    runs.filter((r) => r.run_id !== lastTurn?.run_id),
  );
  if (checkpoint) {
    try {
      const result = await rt.checkpoints.restore(checkpoint.id);
      rt.emit({
        type: 'checkpoint_restored',
        id: checkpoint.id,
        kind: checkpoint.kind,
        restored: result.restored,
        removed: result.removed,
      });
    } catch (err) {
      rt.emit({
        type: 'error',
        code: 'checkpoint_restore',
        message: `the conversation was rolled back but its files were not: ${(err as Error).message}`,
      });
    }
  }
  // Upstream's undo clears the goal too (research A §6.1), as reset and load_session do.
  rt.goal.clear();
  emitHistory(rt);
}

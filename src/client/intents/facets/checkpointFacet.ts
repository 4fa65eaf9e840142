import type { CommandOf } from '../../../protocol';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import { isCheckpointId, safeRelativePath } from '../../checkpoints/checkpointEvents';
import type { IntentContext } from '../intentContext';

export type CheckpointIntents = ReturnType<typeof checkpointFacet>;

/** Checkpoints: each sends one validated command (false when refused); the answers arrive as core events. */
export function checkpointFacet(ctx: IntentContext) {
  const checkpoints = (cmd: CommandOf<'create_checkpoint' | 'restore_checkpoint' | 'list_checkpoints'>) =>
    ctx.sendIfAnnounced(UI_CAPABILITIES.checkpoints, 'checkpoints', cmd);
  /** The commands about single files of a checkpoint (`checkpoint_files`); `what` names them in the refusal. */
  const checkpointFiles = (
    what: string,
    cmd: CommandOf<'restore_checkpoint' | 'delete_checkpoint' | 'checkpoint_changes' | 'checkpoint_file'>,
  ) => ctx.sendIfAnnounced(UI_CAPABILITIES.checkpointFiles, what, cmd);
  const noCheckpoint = () => ctx.refuse('No checkpoint was given.');

  return {
    listCheckpoints(): boolean {
      return checkpoints({ type: 'list_checkpoints' });
    },

    createCheckpoint(label?: string): boolean {
      const cmd: CommandOf<'create_checkpoint'> = { type: 'create_checkpoint' };
      if (label?.trim()) cmd.label = label.trim();
      return checkpoints(cmd);
    },

    /** With `paths` (a core with `checkpoint_files`), only those files; a path the checkpoint lacks is removed. */
    restoreCheckpoint(id: string, paths?: readonly string[]): boolean {
      if (!isCheckpointId(id)) return noCheckpoint();
      if (paths === undefined) return checkpoints({ type: 'restore_checkpoint', id });
      const valid = checkpointPaths(paths);
      if (!valid) return ctx.refuse('Restore needs workspace-relative file paths.');
      return checkpointFiles('restoring single files of a checkpoint', { type: 'restore_checkpoint', id, paths: valid });
    },

    deleteCheckpoint(id: string): boolean {
      if (!isCheckpointId(id)) return noCheckpoint();
      return checkpointFiles('deleting checkpoints', { type: 'delete_checkpoint', id });
    },

    /** Asks how the working tree differs from the checkpoint → `checkpoint_changes{id, files}`. */
    checkpointChanges(id: string): boolean {
      if (!isCheckpointId(id)) return noCheckpoint();
      return checkpointFiles('comparing checkpoints', { type: 'checkpoint_changes', id });
    },

    /** Asks for one file's content at the checkpoint → `checkpoint_file{id, path, exists, content?}`. */
    checkpointFile(id: string, path: string): boolean {
      if (!isCheckpointId(id)) return noCheckpoint();
      const rel = safeRelativePath(path);
      if (!rel) return ctx.refuse('A checkpoint file is named by a workspace-relative path.');
      return checkpointFiles('comparing checkpoints', { type: 'checkpoint_file', id, path: rel });
    },
  };
}

/** Every path workspace-relative (normalized), at least one, at most 10 000; undefined otherwise. */
function checkpointPaths(paths: unknown): string[] | undefined {
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > 10_000) return undefined;
  const out = paths.map(safeRelativePath);
  return out.every((p): p is string => p !== undefined) ? out : undefined;
}

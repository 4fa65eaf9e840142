/** Identifiers of the checkpoints feature, shared with package.json `contributes`; keep them in sync. */

export const CHECKPOINT_SCM_ID = 'catalystCheckpoints';
export const CHECKPOINT_SCM_LABEL = 'Catalyst Checkpoints';

export const CHECKPOINT_COMMANDS = {
  /** Palette, the Source Control title and the input box (Ctrl+Enter). */
  create: 'catalystCode.createCheckpoint',
  /** Palette: a quick pick of checkpoints with the files each would change. */
  restorePick: 'catalystCode.restoreCheckpoint',
  /** Source Control group (inline): the whole checkpoint. */
  restore: 'catalystCode.checkpoint.restore',
  /** Source Control resource (inline): the selected files. */
  restoreFile: 'catalystCode.checkpoint.restoreFile',
  /** Source Control group (inline). */
  delete: 'catalystCode.checkpoint.delete',
  /** Source Control resource click: checkpoint version ↔ working file. */
  openChange: 'catalystCode.checkpoint.openChange',
  /** Source Control resource (inline): the working file. */
  openFile: 'catalystCode.checkpoint.openFile',
  /** Source Control title. */
  refresh: 'catalystCode.checkpoint.refresh',
  /** The chat's checkpoint row (arguments: checkpoint id, CheckpointRowAction). Not in the palette. */
  chatAction: 'catalystCode.checkpoint.chatAction',
} as const;

/** True when some running core can list, compare and delete checkpoint files (menus use it). */
export const CHECKPOINT_FILES_CONTEXT = 'catalystCode.checkpointFiles';

/** Groups shown in Source Control; the palette's Restore Checkpoint… lists every checkpoint. */
export const MAX_GROUPS = 50;

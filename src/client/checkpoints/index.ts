// Pure logic of checkpoints in the editor (no vscode imports; the Source Control glue lives in src/vscode/checkpoints).
export {
  comparePaths,
  createdAtFromId,
  isCheckpointId,
  parseCheckpointChanges,
  parseCheckpointDeleted,
  parseCheckpointEntry,
  parseCheckpointFile,
  parseCheckpointList,
  parseCheckpointRestored,
  safeRelativePath,
  timestampMs,
  type CheckpointChangeStatus,
  type CheckpointChanges,
  type CheckpointEntry,
  type CheckpointFileChange,
  type CheckpointFileContent,
  type CheckpointRestored,
} from './checkpointEvents';
export { CheckpointList } from './checkpointList';
export {
  absoluteTime,
  changeDecoration,
  checkpointPickRows,
  deleteConfirmation,
  describeRestoreCounts,
  displayLabel,
  groupLabel,
  plural,
  previewFiles,
  relativeTime,
  restoreConfirmation,
  restoreCounts,
  restoredMessage,
  restoreFileConfirmation,
  shortRunId,
  statusTooltip,
  type ChangeDecoration,
  type CheckpointPickRow,
  type Confirmation,
  type RestoreCounts,
} from './checkpointFormat';
export { CHECKPOINT_SCHEME, checkpointDocPath, parseCheckpointDocPath, relativeToFolder, type CheckpointDocRef } from './checkpointPaths';
export {
  CheckpointRequestError,
  CheckpointRequests,
  answerOf,
  failedKindOf,
  fileKey,
  REQUEST_COMMANDS,
  type CheckpointAnswers,
  type CheckpointRequestKind,
} from './checkpointRequests';
export { COMPARED_CHECKPOINTS, FolderCheckpointModel, type CheckpointSession, type FolderCheckpointHooks } from './folderCheckpointModel';
export {
  chatRestoreOptions,
  promptOfRun,
  turnsSinceCheckpoint,
  type ChatRestoreContext,
  type ChatRestoreMode,
  type ChatRestoreOption,
} from './conversationRollback';

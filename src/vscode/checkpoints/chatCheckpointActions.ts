import * as vscode from 'vscode';
import {
  chatRestoreOptions,
  describeRestoreCounts,
  displayLabel,
  relativeTime,
  restoreCounts,
  turnsSinceCheckpoint,
  type ChatRestoreMode,
  type CheckpointEntry,
} from '../../client/checkpoints';
import { UI_CAPABILITIES } from '../../shared/sessionState';
import type { CheckpointRowAction } from '../../shared/webviewMessages';
import { errorText } from '../coreManager';
import { checkpointEntry, compareCheckpoint, restoreCheckpoint, runRestore } from './checkpointActions';
import type { FolderCheckpoints } from './folderCheckpoints';

/** The label of the checkpoint taken before a conversation-only rollback (so the files can be put back). */
export const ROLLBACK_SAFETY_LABEL = 'Before conversation rollback';

/** The chat row's Compare and Restore: the row belongs to the chat's (active) folder. */
export async function runChatCheckpointAction(folder: FolderCheckpoints, id: string, action: CheckpointRowAction): Promise<void> {
  switch (action) {
    case 'compare':
      return compareCheckpoint(folder, id);
    case 'restore': {
      const mode = await pickRestoreMode(folder, id);
      if (mode) await restoreFromChat(folder, id, mode);
      return;
    }
    case 'restoreFiles':
      return restoreFromChat(folder, id, 'files');
    case 'restoreConversation':
      return restoreFromChat(folder, id, 'conversation');
    case 'restoreBoth':
      return restoreFromChat(folder, id, 'both');
  }
}

function optionsFor(folder: FolderCheckpoints, id: string) {
  const state = folder.core.session.state;
  const row = state.items.find((i) => i.kind === 'checkpoint' && i.id === id);
  return chatRestoreOptions({
    turns: turnsSinceCheckpoint(state.items, id),
    canUndo: folder.core.session.capabilities().has(UI_CAPABILITIES.undo),
    running: state.run.status !== 'idle',
    deleted: row?.kind === 'checkpoint' && row.deleted === true,
  });
}

type ModeItem = vscode.QuickPickItem & { mode: ChatRestoreMode; unavailable?: string };

/** "Restore ▾": files only / conversation only / both, each saying what it does or why it cannot be chosen now. */
async function pickRestoreMode(folder: FolderCheckpoints, id: string): Promise<ChatRestoreMode | undefined> {
  const items: ModeItem[] = optionsFor(folder, id).map((o) => ({
    mode: o.mode,
    label: o.unavailable ? `$(circle-slash) ${o.label}` : o.label,
    description: o.unavailable,
    detail: o.detail,
    unavailable: o.unavailable,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Catalyst Code: Restore Checkpoint',
    placeHolder: 'What should go back to this checkpoint?',
  });
  if (!picked) return undefined;
  if (picked.unavailable) {
    void vscode.window.showInformationMessage(
      `Catalyst Code: ${picked.label.replace(/^\$\([^)]*\)\s*/, '')} is not available: ${picked.unavailable}`,
    );
    return undefined;
  }
  return picked.mode;
}

async function restoreFromChat(folder: FolderCheckpoints, id: string, mode: ChatRestoreMode): Promise<void> {
  if (mode === 'files') {
    await restoreCheckpoint(folder, id);
    return;
  }
  const option = optionsFor(folder, id).find((o) => o.mode === mode);
  if (option?.unavailable) {
    void vscode.window.showInformationMessage(`Catalyst Code: ${option.label} is not available: ${option.unavailable}`);
    return;
  }
  const turns = turnsSinceCheckpoint(folder.core.session.state.items, id) ?? 0;
  const entry = await checkpointEntry(folder, id);
  if (!entry || !(await confirmRollback(folder, entry, mode, turns))) return;
  await rollBack(folder, entry, mode, turns);
}

async function confirmRollback(
  folder: FolderCheckpoints,
  entry: CheckpointEntry,
  mode: 'conversation' | 'both',
  turns: number,
): Promise<boolean> {
  const turnText = turns === 1 ? 'the last turn' : `the last ${turns} turns`;
  const when = `“${displayLabel(entry)}” (${relativeTime(entry.createdAt, Date.now())})`;
  let message: string;
  let detail: string;
  if (mode === 'both') {
    const files = await folder.model.changesFor(entry.id, true);
    message = `Restore files and conversation to checkpoint ${when}?`;
    detail = `${turnText[0].toUpperCase()}${turnText.slice(1)} ${turns === 1 ? 'is' : 'are'} removed from the conversation. ${files ? `${describeRestoreCounts(restoreCounts(files))}.` : 'Files go back to the checkpoint.'}`;
  } else {
    message = `Remove ${turnText} from the conversation?`;
    detail = `The conversation goes back to checkpoint ${when}. Your files stay as they are now: a checkpoint “${ROLLBACK_SAFETY_LABEL}” is taken first and put back afterwards.`;
  }
  const button = mode === 'both' ? 'Restore Both' : 'Remove Turns';
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) === button;
}

/**
 * The core has no "truncate the conversation" command, only `undo` (drop the last turn and restore that turn's automatic
 * checkpoint). So: `turns` undos (the core runs commands in order), then a restore — of this checkpoint for "both", or
 * of a checkpoint of the files taken just before for "conversation only".
 */
async function rollBack(folder: FolderCheckpoints, entry: CheckpointEntry, mode: 'conversation' | 'both', turns: number): Promise<void> {
  const session = folder.core.session;
  let target = entry;
  if (mode === 'conversation') {
    try {
      target = await folder.model.create(ROLLBACK_SAFETY_LABEL);
    } catch (err) {
      void vscode.window.showErrorMessage(
        `Catalyst Code: the files could not be checkpointed, so the conversation was left as it is: ${errorText(err)}`,
      );
      return;
    }
  }
  for (let i = 0; i < turns; i++) {
    if (session.undo() === false) {
      void vscode.window.showErrorMessage(`Catalyst Code: rolling back stopped after ${i} of ${turns} turns (the core refused undo).`);
      break;
    }
  }
  await runRestore(folder, target);
}

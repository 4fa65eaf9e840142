import * as vscode from 'vscode';
import { registerReportingCommands, type HandlersFor } from '../commands';
import { CHECKPOINT_SCHEME, type CheckpointFileChange } from '../../client/checkpoints';
import { CHECKPOINT_ROW_ACTIONS, type CheckpointRowAction } from '../../shared/webviewMessages';
import type { CoreManager } from '../coreManager';
import { runChatCheckpointAction } from './chatCheckpointActions';
import {
  createCheckpoint,
  deleteCheckpoint,
  openChange,
  pickCheckpointToRestore,
  restoreCheckpoint,
  restoreFiles,
} from './checkpointActions';
import { CHECKPOINT_COMMANDS } from './checkpointIds';
import { CheckpointRegistry } from './checkpointRegistry';
import { CheckpointStatusBar } from './checkpointStatusBar';
import type { FolderCheckpoints } from './folderCheckpoints';

export { CHECKPOINT_COMMANDS, CHECKPOINT_SCM_ID } from './checkpointIds';

export interface CheckpointDeps {
  cores: CoreManager;
  log: vscode.LogOutputChannel;
}

/**
 * Checkpoints in the editor: a Source Control provider per folder core, the checkpoint documents, the commands and the
 * status-bar count. Cheap to call from `activate()`: it registers and subscribes; providers appear with their cores.
 */
export function registerCheckpoints(deps: CheckpointDeps): vscode.Disposable {
  const registry = new CheckpointRegistry(deps.cores, deps.log);
  const disposables: vscode.Disposable[] = [
    registry,
    vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, registry.content),
    new CheckpointStatusBar(registry, deps.cores),
    ...registerCheckpointCommands(registry, deps.log),
  ];
  return vscode.Disposable.from(...disposables);
}

function registerCheckpointCommands(registry: CheckpointRegistry, log: vscode.LogOutputChannel): vscode.Disposable[] {
  /** From a Source Control title or input box: that folder; from the palette: the chat's folder (started if needed). */
  const folderOf = async (sc: unknown): Promise<FolderCheckpoints | undefined> =>
    registry.forSourceControl(sc) ?? (await registry.ensureActive());

  const handlers: HandlersFor<typeof CHECKPOINT_COMMANDS> = {
    [CHECKPOINT_COMMANDS.create]: async (sc?: unknown) => {
      const folder = await folderOf(sc);
      if (!folder) return;
      const input = folder.sourceControl && sc === folder.sourceControl ? folder.sourceControl.inputBox : undefined;
      let label = input?.value;
      if (!input) {
        label = await vscode.window.showInputBox({
          title: 'Catalyst Code: Create Checkpoint',
          prompt: 'A label for the checkpoint (optional)',
          placeHolder: 'e.g. before refactoring the parser',
        });
        if (label === undefined) return;
      }
      await createCheckpoint(folder, label, input);
    },
    [CHECKPOINT_COMMANDS.restorePick]: async (sc?: unknown) => {
      const folder = await folderOf(sc);
      if (folder) await pickCheckpointToRestore(folder);
    },
    [CHECKPOINT_COMMANDS.restore]: async (group?: unknown) => {
      const found = registry.forGroup(group);
      if (found) await restoreCheckpoint(found.folder, found.id);
      else await vscode.commands.executeCommand(CHECKPOINT_COMMANDS.restorePick);
    },
    [CHECKPOINT_COMMANDS.delete]: async (group?: unknown) => {
      const found = registry.forGroup(group);
      if (found) await deleteCheckpoint(found.folder, found.id);
    },
    [CHECKPOINT_COMMANDS.restoreFile]: async (...states: unknown[]) => {
      // The clicked resource, plus the others selected with it (VS Code passes each as an argument).
      const byCheckpoint = new Map<string, { folder: FolderCheckpoints; id: string; changes: CheckpointFileChange[] }>();
      for (const state of states.flat()) {
        const found = registry.forResource(state);
        if (!found) continue;
        const key = `${found.folder.folder.uri.toString()}\0${found.ref.id}`;
        const slot = byCheckpoint.get(key) ?? { folder: found.folder, id: found.ref.id, changes: [] };
        if (!slot.changes.some((c) => c.path === found.ref.change.path)) slot.changes.push(found.ref.change);
        byCheckpoint.set(key, slot);
      }
      for (const { folder, id, changes } of byCheckpoint.values()) await restoreFiles(folder, id, changes);
    },
    [CHECKPOINT_COMMANDS.openChange]: async (state?: unknown) => {
      const found = registry.forResource(state);
      if (found) await openChange(found.folder, found.ref.id, found.ref.change);
    },
    [CHECKPOINT_COMMANDS.openFile]: async (...states: unknown[]) => {
      for (const state of states.flat()) {
        const found = registry.forResource(state);
        if (!found) continue;
        if (found.ref.change.status === 'deleted') {
          await openChange(found.folder, found.ref.id, found.ref.change);
          continue;
        }
        await vscode.window.showTextDocument(found.folder.workingUri(found.ref.change.path), { preview: states.length === 1 });
      }
    },
    [CHECKPOINT_COMMANDS.refresh]: async (sc?: unknown) => {
      const folders = registry.forSourceControl(sc) ? [registry.forSourceControl(sc) as FolderCheckpoints] : registry.all();
      await Promise.allSettled(folders.filter((f) => f.model.isReady() && f.model.supported).map((f) => f.model.reload(true)));
    },
    [CHECKPOINT_COMMANDS.chatAction]: async (id?: unknown, action?: unknown) => {
      if (typeof id !== 'string' || !(CHECKPOINT_ROW_ACTIONS as readonly unknown[]).includes(action)) return;
      const folder = registry.active() ?? (await registry.ensureActive());
      if (folder) await runChatCheckpointAction(folder, id, action as CheckpointRowAction);
    },
  };
  return registerReportingCommands(handlers, log);
}

import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  checkpointPickRows,
  deleteConfirmation,
  displayLabel,
  plural,
  restoreConfirmation,
  restoredMessage,
  restoreFileConfirmation,
  type CheckpointEntry,
  type CheckpointFileChange,
  type CheckpointRestored,
  type Confirmation,
} from '../../client/checkpoints';
import { errorText } from '../coreManager';
import { showWrittenFile } from '../review/editorSync';
import type { FolderCheckpoints } from './folderCheckpoints';

// The user-facing flows: confirm with what will change, do it with progress, say what happened, bring open editors
// up to date. Every one of them goes through the folder's core; none touches files itself.

const STATUS_MESSAGE_MS = 6000;

/** The checkpoint, listing again once if it is not known yet; tells the user when it is gone. */
export async function checkpointEntry(folder: FolderCheckpoints, id: string): Promise<CheckpointEntry | undefined> {
  let entry = folder.model.list.get(id);
  if (!entry) {
    try {
      await folder.model.reload(true);
    } catch {
      // Reported below as "no longer exists".
    }
    entry = folder.model.list.get(id);
  }
  if (!entry) void vscode.window.showWarningMessage('Catalyst Code: that checkpoint no longer exists.');
  return entry;
}

/** The core refuses restores during a turn; say so with a way out. */
async function refuseWhileRunning(folder: FolderCheckpoints, what: string): Promise<boolean> {
  if (folder.core.session.state.run.status === 'idle') return false;
  const choice = await vscode.window.showWarningMessage(
    `Catalyst Code: a turn is running in ${folder.folder.name}; stop it before ${what}.`,
    'Abort Turn',
  );
  if (choice) await vscode.commands.executeCommand('catalystCode.abort');
  return true;
}

async function confirm(c: Confirmation): Promise<boolean> {
  if (c.nothingToDo) {
    void vscode.window.showInformationMessage(`Catalyst Code: ${c.message} ${c.detail}`);
    return false;
  }
  return (await vscode.window.showWarningMessage(c.message, { modal: true, detail: c.detail }, c.button)) === c.button;
}

/** Open editors with unsaved text among these files: they keep it, which the user should know before a restore. */
function unsavedNote(folder: FolderCheckpoints, paths: readonly string[]): string {
  const wanted = new Set(paths);
  const dirty = vscode.workspace.textDocuments
    .filter((d) => d.isDirty && wanted.has(folder.relativePath(d.uri) ?? ''))
    .map((d) => folder.relativePath(d.uri) ?? d.fileName);
  if (dirty.length === 0) return '';
  const names = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? ', …' : '');
  return `\n\n${plural(dirty.length, 'open editor')} with unsaved changes (${names}) keep ${dirty.length === 1 ? 'its' : 'their'} text; saving would overwrite the restored file.`;
}

function withProgress<T>(title: string, task: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl, title }, () =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `$(history) ${title}` }, task),
  );
}

function failed(what: string, err: unknown): void {
  void vscode.window
    .showErrorMessage(`Catalyst Code: ${what} failed: ${errorText(err)}`, 'Show Core Log')
    .then((c) => c && vscode.commands.executeCommand('catalystCode.showLog'));
}

// ── Create ───────────────────────────────────────────────────────────────────

/** Creates a checkpoint; from the input box its text is the label and is cleared once the checkpoint exists. */
export async function createCheckpoint(
  folder: FolderCheckpoints,
  label: string | undefined,
  input?: vscode.SourceControlInputBox,
): Promise<CheckpointEntry | undefined> {
  const text = label?.trim() || undefined;
  try {
    const entry = await withProgress('Creating a checkpoint…', () => folder.model.create(text));
    if (input && input.value.trim() === (text ?? '')) input.value = '';
    vscode.window.setStatusBarMessage(`$(history) Checkpoint “${displayLabel(entry)}” created`, STATUS_MESSAGE_MS);
    return entry;
  } catch (err) {
    failed('creating the checkpoint', err);
    return undefined;
  }
}

// ── Restore ──────────────────────────────────────────────────────────────────

/** Restore a whole checkpoint after a modal that lists what will change. Returns true when it was restored. */
export async function restoreCheckpoint(folder: FolderCheckpoints, id: string): Promise<boolean> {
  const entry = await checkpointEntry(folder, id);
  if (!entry || (await refuseWhileRunning(folder, 'restoring a checkpoint'))) return false;
  const files = await folder.model.changesFor(id, true);
  const c = restoreConfirmation(entry, files, Date.now());
  if (files)
    c.detail += unsavedNote(
      folder,
      files.map((f) => f.path),
    );
  if (!(await confirm(c))) return false;
  return runRestore(folder, entry);
}

/** Restore without asking (the chat's flows confirm themselves). */
export async function runRestore(folder: FolderCheckpoints, entry: CheckpointEntry, paths?: readonly string[]): Promise<boolean> {
  try {
    const result = await withProgress(`Restoring “${displayLabel(entry)}”…`, () => folder.model.restore(entry.id, paths));
    vscode.window.setStatusBarMessage(
      `$(history) ${restoredMessage(displayLabel(entry), result.restored, result.removed)}`,
      STATUS_MESSAGE_MS,
    );
    void syncEditors(folder, result);
    return true;
  } catch (err) {
    failed(`restoring “${displayLabel(entry)}”`, err);
    return false;
  }
}

/** Restore the given files of a checkpoint (the resource's inline action, with its multi-selection). */
export async function restoreFiles(folder: FolderCheckpoints, id: string, changes: readonly CheckpointFileChange[]): Promise<boolean> {
  if (changes.length === 0) return false;
  const entry = await checkpointEntry(folder, id);
  if (!entry || (await refuseWhileRunning(folder, 'restoring files'))) return false;
  if (!folder.model.filesSupported) {
    void vscode.window.showInformationMessage('Catalyst Code: this core restores whole checkpoints only.');
    return false;
  }
  const c = changes.length === 1 ? restoreFileConfirmation(entry, changes[0], Date.now()) : restoreConfirmation(entry, changes, Date.now());
  c.detail += unsavedNote(
    folder,
    changes.map((f) => f.path),
  );
  if (!(await confirm(c))) return false;
  return runRestore(
    folder,
    entry,
    changes.map((f) => f.path),
  );
}

/**
 * After a restore the files changed on disk: open editors that did not reload by themselves are reverted (an undoable
 * step); an editor with unsaved text keeps it.
 */
async function syncEditors(folder: FolderCheckpoints, result: CheckpointRestored): Promise<void> {
  const restored = new Set(result.restored ?? []);
  const open = vscode.workspace.textDocuments.filter((d) => !d.isDirty && restored.has(folder.relativePath(d.uri) ?? ''));
  for (const doc of open) {
    // Best effort: an editor that could not be refreshed still shows VS Code's own "changed on disk" handling.
    await showWrittenFile(doc.uri, { replaceUnsaved: false }).catch(() => undefined);
  }
}

// ── Delete ───────────────────────────────────────────────────────────────────

export async function deleteCheckpoint(folder: FolderCheckpoints, id: string): Promise<boolean> {
  const entry = await checkpointEntry(folder, id);
  if (!entry) return false;
  if (!folder.model.filesSupported) {
    void vscode.window.showInformationMessage('Catalyst Code: this core cannot delete checkpoints.');
    return false;
  }
  if (!(await confirm(deleteConfirmation(entry, Date.now())))) return false;
  try {
    await withProgress(`Deleting “${displayLabel(entry)}”…`, () => folder.model.delete(id));
    vscode.window.setStatusBarMessage(`$(trash) Checkpoint “${displayLabel(entry)}” deleted`, STATUS_MESSAGE_MS);
    return true;
  } catch (err) {
    failed(`deleting “${displayLabel(entry)}”`, err);
    return false;
  }
}

// ── Compare ──────────────────────────────────────────────────────────────────

/** Checkpoint version ↔ working file (for a file deleted since: ↔ an empty document). */
export async function openChange(
  folder: FolderCheckpoints,
  id: string,
  change: CheckpointFileChange,
  opts: { preview?: boolean; preserveFocus?: boolean } = {},
): Promise<void> {
  if (!folder.model.filesSupported) {
    void vscode.window.showInformationMessage('Catalyst Code: this core cannot show a checkpoint’s files.');
    return;
  }
  const entry = folder.model.list.get(id);
  const left = folder.docUri(id, change.path);
  const right = change.status === 'deleted' ? folder.docUri(id, change.path, true) : folder.workingUri(change.path);
  const name = path.posix.basename(change.path);
  const when = entry ? `“${displayLabel(entry)}”` : 'checkpoint';
  const title =
    change.status === 'deleted'
      ? `${name} (${when} ↔ deleted)`
      : change.status === 'added'
        ? `${name} (created since ${when})`
        : `${name} (${when} ↔ now)`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, {
    preview: opts.preview ?? true,
    preserveFocus: opts.preserveFocus ?? false,
  });
}

/** Shows the checkpoint in Source Control and opens its first changed file's diff. */
export async function compareCheckpoint(folder: FolderCheckpoints, id: string): Promise<void> {
  const entry = await checkpointEntry(folder, id);
  if (!entry) return;
  await vscode.commands.executeCommand('workbench.view.scm');
  const files = await folder.model.changesFor(id, true);
  if (!files) {
    void vscode.window.showInformationMessage(
      `Catalyst Code: checkpoint “${displayLabel(entry)}” is in Source Control; this core cannot list its files.`,
    );
    return;
  }
  if (files.length === 0) {
    void vscode.window.showInformationMessage(
      `Catalyst Code: the workspace matches checkpoint “${displayLabel(entry)}”; nothing to compare.`,
    );
    return;
  }
  await openChange(folder, id, files[0]);
}

// ── Restore Checkpoint… (palette) ────────────────────────────────────────────

type PickItem = vscode.QuickPickItem & { id: string };

const COMPARE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: 'Compare with the working tree' };
const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete checkpoint' };

/** Every checkpoint, newest first, each with the files restoring it would change; refreshed while open. */
export async function pickCheckpointToRestore(folder: FolderCheckpoints): Promise<void> {
  const qp = vscode.window.createQuickPick<PickItem>();
  qp.title = `Catalyst Code: Restore Checkpoint${(vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? ` (${folder.folder.name})` : ''}`;
  qp.placeholder = 'Choose a checkpoint to restore; each line shows what restoring it would change';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let closed = false;
  const fill = () => {
    if (closed) return;
    const activeId = qp.activeItems[0]?.id;
    const rows = checkpointPickRows(
      folder.model.list.all,
      (id) => folder.model.list.changesOf(id),
      Date.now(),
      folder.model.filesSupported,
    );
    qp.items = rows.map((r) => ({
      id: r.id,
      label: `$(history) ${r.label}`,
      description: r.description,
      detail: r.detail,
      buttons: folder.model.filesSupported ? [COMPARE_BUTTON, DELETE_BUTTON] : [],
    }));
    const active = activeId && qp.items.find((i) => i.id === activeId);
    if (active) qp.activeItems = [active];
    if (!qp.busy && rows.length === 0)
      qp.placeholder = 'No checkpoints yet: the agent takes one before its first edit of a turn, or use Create Checkpoint';
  };
  const picked = new Promise<string | undefined>((resolve) => {
    const subs = [
      folder.onDidChange(fill),
      qp.onDidAccept(() => {
        resolve(qp.selectedItems[0]?.id);
        qp.hide();
      }),
      qp.onDidTriggerItemButton(async (e) => {
        if (e.button === COMPARE_BUTTON) {
          await compareCheckpoint(folder, e.item.id);
        } else if (e.button === DELETE_BUTTON) {
          qp.hide();
          await deleteCheckpoint(folder, e.item.id);
        }
      }),
      qp.onDidHide(() => {
        closed = true;
        subs.forEach((d) => d.dispose());
        qp.dispose();
        resolve(undefined);
      }),
    ];
  });
  qp.busy = true;
  fill();
  qp.show();
  folder.model
    .reload(true)
    .catch((err) => failed('listing the checkpoints', err))
    .finally(() => {
      if (closed) return;
      qp.busy = false;
      fill();
    });
  const id = await picked;
  if (id) await restoreCheckpoint(folder, id);
}

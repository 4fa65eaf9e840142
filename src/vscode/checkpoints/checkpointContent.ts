import * as vscode from 'vscode';
import { CHECKPOINT_SCHEME, parseCheckpointDocPath, type CheckpointDocRef } from '../../client/checkpoints';
import { errorText } from '../coreManager';
import type { FolderCheckpoints } from './folderCheckpoints';

/**
 * `catalyst-checkpoint:/<folderIndex>/<id>/<path>`: a file as the checkpoint has it, read from the folder's core
 * (`checkpoint_file`, cached by the folder per id and path). Read-only by construction. A document asked for while
 * its core is not running (an editor restored with the window) says so and is re-read once the core is up.
 */
export class CheckpointContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly waitingForCore = new Map<string, vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly folderAt: (index: number) => FolderCheckpoints | undefined) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === 'empty') return '';
    const ref = parseCheckpointDocPath(uri.path);
    if (!ref) return '';
    const folder = this.folderAt(ref.folderIndex);
    if (!folder || !folder.model.isReady()) {
      this.waitingForCore.set(uri.toString(), uri);
      return `(The checkpoint's version of ${ref.path} is shown once the Catalyst core for this folder is running.)`;
    }
    if (!folder.model.filesSupported) return `(This core cannot show a checkpoint's files.)`;
    try {
      const file = await folder.model.fileContent(ref.id, ref.path);
      if (!file.exists) return '';
      if (file.binary) return `(${ref.path} is a binary file at this checkpoint; its content is not shown.)`;
      if (file.tooLarge) return `(${ref.path} is too large to show from this checkpoint.)`;
      return file.content ?? '';
    } catch (err) {
      return `(Could not read ${ref.path} from checkpoint ${ref.id}: ${errorText(err)})`;
    }
  }

  /** Open documents of this checkpoint (or every one of the folder) are read again. */
  invalidate(folderIndex: number, id?: string): void {
    for (const doc of vscode.workspace.textDocuments) {
      const ref = refOf(doc.uri);
      if (ref && ref.folderIndex === folderIndex && (id === undefined || ref.id === id)) this.changeEmitter.fire(doc.uri);
    }
  }

  /** A folder's core became ready: documents that waited for it are read now. */
  coreReady(folderIndex: number): void {
    for (const [key, uri] of [...this.waitingForCore]) {
      const ref = refOf(uri);
      if (ref?.folderIndex !== folderIndex) continue;
      this.waitingForCore.delete(key);
      this.changeEmitter.fire(uri);
    }
  }

  dispose(): void {
    this.waitingForCore.clear();
    this.changeEmitter.dispose();
  }
}

function refOf(uri: vscode.Uri): CheckpointDocRef | undefined {
  return uri.scheme === CHECKPOINT_SCHEME ? parseCheckpointDocPath(uri.path) : undefined;
}

import * as vscode from 'vscode';
import { readDiskText } from './diskText';

const RELOAD_WAIT_MS = 1500;

/**
 * After the core wrote a file: make its open editor show the disk text. VS Code reloads a clean document by itself
 * (an undoable edit, so Undo brings the old text back); when that does not happen in time, or when the user chose to
 * take the agent's version over unsaved text, the editor is reverted from disk — which is undoable too, so the unsaved
 * text stays reachable.
 */
export async function showWrittenFile(uri: vscode.Uri, opts: { replaceUnsaved: boolean }): Promise<void> {
  const doc = openDocument(uri);
  if (!doc) return;
  const disk = await readDiskText(uri);
  if (disk === null) return;
  if (!doc.isDirty) {
    if (await waitForText(doc, disk, RELOAD_WAIT_MS)) return;
  } else if (!opts.replaceUnsaved) {
    // The user typed into it while the core was writing: theirs to keep; saving will show VS Code's conflict dialog.
    return;
  }
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

function sameText(doc: vscode.TextDocument, disk: string): boolean {
  return doc.getText() === (doc.eol === vscode.EndOfLine.CRLF ? disk.replace(/\r?\n/g, '\r\n') : disk.replace(/\r\n/g, '\n'));
}

function waitForText(doc: vscode.TextDocument, disk: string, timeoutMs: number): Promise<boolean> {
  if (sameText(doc, disk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => finish(sameText(doc, disk)), timeoutMs);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && sameText(doc, disk)) finish(true);
    });
  });
}

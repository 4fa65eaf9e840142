import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { resolveInsideWorkspace, isInside } from '../client/workspacePaths';

/** "Insert at cursor" on a code block: replaces the selections of the editor the user was last in. */
export async function insertAtCursor(text: string): Promise<void> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) {
    void vscode.window.showInformationMessage(
      'Catalyst Code: open a file and place the cursor where the code should go, then insert again.',
    );
    return;
  }
  await editor.edit((edit) => editor.selections.forEach((s) => edit.replace(s, text)));
  await vscode.window.showTextDocument(editor.document, editor.viewColumn);
}

/**
 * Opens a file the chat links to, only inside the workspace: the webview renders model output, so the path is
 * untrusted (no `..`, absolute paths elsewhere or symlinks out).
 */
export async function openWorkspaceFile(requested: string, base: vscode.WorkspaceFolder | undefined, line?: number): Promise<void> {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const resolved = base && resolveInsideWorkspace(requested, base.uri.fsPath, roots);
  const real = resolved && (await realpathInside(resolved, roots));
  if (!real) {
    void vscode.window.showWarningMessage(`Catalyst Code: "${requested.slice(0, 200)}" is not a file in this workspace.`);
    return;
  }
  const options: vscode.TextDocumentShowOptions = { preview: true };
  if (line && line > 0) options.selection = new vscode.Range(line - 1, 0, line - 1, 0);
  await vscode.window.showTextDocument(vscode.Uri.file(real), options);
}

async function realpathInside(path: string, roots: string[]): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
    return realRoots.some((root) => isInside(root, real)) ? real : undefined;
  } catch {
    return undefined;
  }
}

import * as vscode from 'vscode';
import type { ChatHub } from './chatHub';
import { formatPathMention, formatSelectionForPrompt, selectionLineRange } from '../client/presentation/selectionPrompt';

/** "Ask About Selection": the selection, with its path and line range, into the composer, which gets the focus. */
export async function askAboutSelection(hub: ChatHub): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage('Catalyst Code: select some code in an editor first, then ask about it.');
    return;
  }
  const { document, selection } = editor;
  const text = formatSelectionForPrompt({
    relativePath: vscode.workspace.asRelativePath(document.uri, false),
    ...selectionLineRange(selection.start, selection.end),
    languageId: document.languageId,
    text: document.getText(selection),
  });
  await hub.deliver({ type: 'insertText', text }, { type: 'focusInput' });
}

/** "Add File to Chat": `@path` mentions of the explorer selection (or the active editor's file) into the composer. */
export async function addFileToChat(hub: ChatHub, clicked?: vscode.Uri, selected?: vscode.Uri[]): Promise<void> {
  const uris = selected?.length ? selected : clicked ? [clicked] : activeDocumentUri();
  const mentions = uris
    .filter((u) => vscode.workspace.getWorkspaceFolder(u))
    .map((u) => formatPathMention(vscode.workspace.asRelativePath(u, false)));
  if (mentions.length === 0) {
    void vscode.window.showInformationMessage(
      'Catalyst Code: pick a file of this workspace (in the explorer or an editor) to add it to the chat.',
    );
    return;
  }
  await hub.deliver({ type: 'insertText', text: `${mentions.join(' ')} ` }, { type: 'focusInput' });
}

function activeDocumentUri(): vscode.Uri[] {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri ? [uri] : [];
}

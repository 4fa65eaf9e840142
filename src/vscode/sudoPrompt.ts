import * as vscode from 'vscode';
import type { ChatSession } from '../client/intents/chatSession';

/**
 * Answers a core's `sudo_request` with a native password box. The password goes straight to the core; it is never
 * stored, logged or shown. Escape declines the request.
 */
export async function answerSudo(session: ChatSession, requestId: string): Promise<void> {
  const request = session.state.items.find((i) => i.kind === 'sudo' && i.id === requestId);
  if (!request || request.kind !== 'sudo' || request.state !== 'pending') {
    void vscode.window.showInformationMessage('Catalyst Code: that sudo request was already answered or cancelled.');
    return;
  }
  const password = await vscode.window.showInputBox({
    title: 'Catalyst Code: sudo password',
    prompt: `The agent wants to run with sudo: ${request.command.slice(0, 300)}. Enter your password to allow it, or press Escape to refuse.`,
    password: true,
    ignoreFocusOut: true,
  });
  if (password === undefined) session.sudoReply(requestId, false);
  else session.sudoReply(requestId, true, password);
}

import * as vscode from 'vscode';
import type { MemoryView } from '../client/intents/memoryEntries';
import type { FolderCore } from './coreManager';

type MemoryPick = vscode.QuickPickItem & { entry: MemoryView };
type MemoryChoice = { action: 'forget'; entry: MemoryView } | { action: 'refresh' } | undefined;

const FORGET_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Forget…' };
const REFRESH_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('refresh'),
  tooltip: 'Refresh (reread the notes from disk)',
};

/**
 * "Show Memory" (and `/memory` alone): the core's durable notes in a QuickPick, each with Forget (after a confirmation),
 * and Refresh in the title bar. The list shows again after each action, from the core's new answer.
 */
export async function showMemory(core: FolderCore): Promise<void> {
  if (!(await core.session.start())) return;
  for (;;) {
    const entries = await core.session.fetchMemory();
    if (!entries) return;
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('Catalyst Code: no memory yet. "/memory <note>" in the chat saves one.');
      return;
    }
    const choice = await pickMemory(entries);
    if (!choice) return;
    if (choice.action === 'refresh') core.session.refreshMemory();
    else await forgetAfterConfirming(core, choice.entry);
  }
}

async function forgetAfterConfirming(core: FolderCore, entry: MemoryView): Promise<void> {
  const confirmed = await vscode.window.showWarningMessage(
    'Forget this note?',
    { modal: true, detail: `${entry.text}\n\nThe agent no longer sees it in this workspace's future turns.` },
    'Forget',
  );
  if (confirmed !== 'Forget') return;
  const answer = await core.session.forgetMemory(entry.id);
  // "memory forgotten" also shows in the chat; an id the core no longer has is worth saying here.
  if (answer !== undefined && /no memory/i.test(answer)) void vscode.window.showWarningMessage(`Catalyst Code: ${answer}.`);
}

function pickMemory(entries: readonly MemoryView[]): Promise<MemoryChoice> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<MemoryPick>();
    pick.title = `Catalyst Code: Memory (${entries.length})`;
    pick.placeholder = 'Pick a note to forget it';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.buttons = [REFRESH_BUTTON];
    pick.items = entries.map(memoryPick);
    let choice: MemoryChoice;
    const finish = (c: MemoryChoice) => {
      choice = c;
      pick.hide();
    };
    pick.onDidTriggerButton(() => finish({ action: 'refresh' }));
    pick.onDidTriggerItemButton((e) => finish({ action: 'forget', entry: e.item.entry }));
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0];
      if (picked) finish({ action: 'forget', entry: picked.entry });
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(choice);
    });
    pick.show();
  });
}

function memoryPick(entry: MemoryView): MemoryPick {
  const [first = '', ...rest] = entry.text.split('\n');
  const detail = [rest.join(' ').trim(), entry.tags.length ? `tags: ${entry.tags.join(', ')}` : ''].filter(Boolean).join(' · ');
  return { label: first || entry.id, description: entry.scope, detail: detail || undefined, buttons: [FORGET_BUTTON], entry };
}

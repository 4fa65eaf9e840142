import * as vscode from 'vscode';
import type { IntercomItem } from '../shared/sessionState';
import type { CoreManager, FolderCore } from './coreManager';
import { intercomNeedsToast, noticePrefix } from './folderNotices';

type AgentPick = vscode.QuickPickItem & { agent: string };

/**
 * "Run Subagent…": a QuickPick of the core's agents (their source shown: a project's agents come with the repository),
 * then the task; the model is asked, in upstream's wording, to run it through the subagent tool.
 */
export async function pickAndRunSubagent(core: FolderCore): Promise<boolean> {
  // From the palette the core may not be running yet; a failed start ends up in the chat's state.
  if (!(await core.session.start())) return false;
  const agents = await core.session.fetchAgents();
  if (!agents) return false;
  if (agents.length === 0) {
    void vscode.window.showInformationMessage('Catalyst Code: this core has no agents.');
    return false;
  }
  const picked = await vscode.window.showQuickPick<AgentPick>(
    agents.map((a) => ({ label: a.name, description: a.source, detail: a.description || undefined, agent: a.name })),
    { title: 'Catalyst Code: Run Subagent', placeHolder: 'Pick the agent', matchOnDescription: true, matchOnDetail: true },
  );
  if (!picked) return false;
  const task = await vscode.window.showInputBox({
    title: `Catalyst Code: Run ${picked.agent}`,
    prompt: `The task for the ${picked.agent} subagent`,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Describe the task.'),
  });
  if (!task?.trim()) return false;
  return core.session.runSubagent(picked.agent, task) !== false;
}

/**
 * While no chat on screen shows the asking core (none is visible, or it shows another folder), a subagent's question
 * pops up as a notification whose "Reply…" asks for the answer in an input box and whose "Show in Chat" opens that
 * folder's chat; the first answer from anywhere wins (the chat's card, another notification).
 */
export class IntercomNotifier implements vscode.Disposable {
  private readonly notified = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly cores: CoreManager,
    private readonly chatVisible: () => boolean,
  ) {
    this.subscription = cores.onCoreEvent(({ core, event }) => {
      if (event.type === 'intercom_message') this.notify(core, String(event.id ?? ''));
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private notify(core: FolderCore, id: string): void {
    const item = pendingIntercom(core, id);
    // Question ids are per core: two folders' cores may both have an "ic-1".
    const key = `${core.folder.uri.toString()}#${id}`;
    if (!item || !intercomNeedsToast(this.chatVisible(), this.cores.active() === core) || this.notified.has(key)) return;
    this.notified.add(key);
    const who = item.agent ? `the ${item.agent} subagent` : 'a subagent';
    const prefix = noticePrefix(core.folder.name, this.cores.all().length);
    void vscode.window
      .showInformationMessage(`${prefix}${who} asks: ${clip(item.message, 300)}`, 'Reply…', 'Show in Chat')
      .then(async (choice) => {
        this.notified.delete(key);
        if (choice === 'Show in Chat') return void (await this.showInChat(core));
        if (choice !== 'Reply…' || !pendingIntercom(core, id)) return;
        const reply = await vscode.window.showInputBox({
          title: `${prefix}reply to ${who}`,
          prompt: clip(item.message, 500),
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : 'Type a reply; the subagent waits for it.'),
        });
        if (reply?.trim()) core.session.intercomReply(id, reply);
      });
  }

  /** The chat of the folder whose core asks: an inactive folder's question makes that folder the chat's first. */
  private async showInChat(core: FolderCore): Promise<void> {
    if (this.cores.all().includes(core)) this.cores.switchTo(core.folder);
    await vscode.commands.executeCommand('catalystCode.openChat');
  }
}

function pendingIntercom(core: FolderCore, id: string): IntercomItem | undefined {
  const item = core.session.state.items.find((i) => i.kind === 'intercom' && i.id === id);
  return item?.kind === 'intercom' && item.state === 'pending' ? item : undefined;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

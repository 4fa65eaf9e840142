import * as vscode from 'vscode';
import type { IntercomItem } from '../shared/sessionState';
import type { CoreManager, FolderCore } from './coreManager';

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
 * While no chat is on screen, a subagent's question pops up as a notification whose "Reply…" asks for the answer in an
 * input box; the first answer from anywhere wins (the chat's card, another notification).
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
    if (!item || this.chatVisible() || this.notified.has(id)) return;
    this.notified.add(id);
    const who = item.agent ? `the ${item.agent} subagent` : 'a subagent';
    void vscode.window
      .showInformationMessage(`Catalyst Code: ${who} asks: ${clip(item.message, 300)}`, 'Reply…', 'Show in Chat')
      .then(async (choice) => {
        this.notified.delete(id);
        if (choice === 'Show in Chat') return void (await vscode.commands.executeCommand('catalystCode.openChat'));
        if (choice !== 'Reply…' || !pendingIntercom(core, id)) return;
        const reply = await vscode.window.showInputBox({
          title: `Catalyst Code: reply to ${who}`,
          prompt: clip(item.message, 500),
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : 'Type a reply; the subagent waits for it.'),
        });
        if (reply?.trim()) core.session.intercomReply(id, reply);
      });
  }
}

function pendingIntercom(core: FolderCore, id: string): IntercomItem | undefined {
  const item = core.session.state.items.find((i) => i.kind === 'intercom' && i.id === id);
  return item?.kind === 'intercom' && item.state === 'pending' ? item : undefined;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

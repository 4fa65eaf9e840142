import type { ApprovalDecision } from '../shared/sessionState';
import * as vscode from 'vscode';
import { isExternalUrl, type CompletionItem, type HostAction, type SlashCommandInfo } from '../shared/webviewMessages';
import type { ChatSession } from '../client/intents/chatSession';
import type { CoreManager } from './coreManager';
import { insertAtCursor, openWorkspaceFile } from './editorActions';
import type { FileCompletion } from './fileCompletion';
import { COMMANDS, GOAL_COMMANDS } from './ids';
import type { ModelPreference } from './modelPreference';
import { modelSwitchDeps } from './pickers';
import { selectModelChoice } from '../client/intents/modelSwitch';
import { answerSudo } from './sudoPrompt';
import type { ChatIntent, WebviewBridge } from './webviewBridge';

export interface MessageHandlerDeps {
  cores: CoreManager;
  files: FileCompletion;
  models: ModelPreference;
  slashCommands: readonly SlashCommandInfo[];
  /** File proposals are answered through the diff review (disk and unsaved-buffer checks, closing the preview). */
  approvals?: { answer(requestId: string, decision: ApprovalDecision, opts?: { pattern?: string }): Promise<boolean> };
}

type ChatMessage = ChatIntent;

/** Turns a validated chat message into a controller intent or a VS Code action. */
export class WebviewMessageHandler {
  constructor(private readonly deps: MessageHandlerDeps) {}

  async handle(message: ChatMessage, bridge: WebviewBridge): Promise<void> {
    if (await this.handleEditorMessage(message, bridge)) return;
    const core = this.deps.cores.ensureActive();
    if (!core) {
      void vscode.window.showInformationMessage('Catalyst Code: open a folder first; the chat works inside a workspace folder.');
      return;
    }
    // Picked from another provider's group: the same switch path as "Select Model…" (set_provider, its models, select).
    if (message.type === 'setModel')
      return void (await selectModelChoice(modelSwitchDeps(this.deps.cores, core, this.deps.models), message));
    await this.handleSessionMessage(message as SessionMessage, core.session);
  }

  /** Messages that need no core. Returns true when handled. */
  private async handleEditorMessage(m: ChatMessage, bridge: WebviewBridge): Promise<boolean> {
    switch (m.type) {
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        return true;
      case 'insertAtCursor':
        await insertAtCursor(m.text);
        return true;
      case 'openFile':
        await openWorkspaceFile(m.path, this.deps.cores.activeFolder(), m.line);
        return true;
      case 'openExternal':
        // Checked again here: only an absolute http(s) URL reaches the browser (VS Code asks before a new domain).
        if (isExternalUrl(m.url)) await vscode.env.openExternal(vscode.Uri.parse(m.url, true));
        return true;
      case 'complete':
        bridge.post({ type: 'completions', requestId: m.requestId, kind: m.kind, items: await this.completions(m.kind, m.query) });
        return true;
      case 'action':
        if (m.action === 'answerSudo') return false;
        await runHostAction(m.action, m.arg);
        return true;
      case 'goalAction':
        if (m.action !== 'openControlCenter') return false;
        await vscode.commands.executeCommand(GOAL_COMMANDS.openControlCenter);
        return true;
      case 'checkpointAction':
        // The checkpoints feature (src/vscode/checkpoints) owns the flow: comparing, confirming, restoring.
        await vscode.commands.executeCommand('catalystCode.checkpoint.chatAction', m.id, m.action);
        return true;
      default:
        return false;
    }
  }

  private async handleSessionMessage(m: SessionMessage, s: ChatSession): Promise<void> {
    switch (m.type) {
      case 'send':
        return void (await s.sendPrompt(m.text, m.images));
      case 'steer':
        return void (await s.steer(m.text));
      case 'abort':
        return void (await s.abort());
      case 'clearQueue':
        return void (await s.clearQueue());
      case 'userBash':
        return void (await s.userBash(m.command, m.excludeFromContext));
      case 'queueEdit':
        return void (await s.editQueued(m.id, m.prompt));
      case 'queueMove':
        return void (await s.moveQueued(m.id, m.beforeId));
      case 'queueRemove':
        return void (await s.removeQueued(m.id));
      case 'queuePause':
        return void (await s.pauseQueue(m.paused));
      case 'approve':
        if (this.deps.approvals)
          return void (await this.deps.approvals.answer(m.requestId, m.decision, m.pattern === undefined ? {} : { pattern: m.pattern }));
        return void (await s.approve(m.requestId, m.decision, m.pattern === undefined ? undefined : { pattern: m.pattern }));
      case 'askReply':
        return void (await s.askReply(m.requestId, m.answers));
      case 'intercomReply':
        return void (await s.intercomReply(m.id, m.reply));
      case 'setReasoning':
        return void (await s.setReasoning(m.effort));
      case 'setApprovalMode':
        return void (await s.setApprovalMode(m.mode));
      case 'slash':
        // `/memory` alone lists the notes (with Forget and Refresh) in a QuickPick.
        if (m.name === 'memory' && !m.args.trim()) return void (await vscode.commands.executeCommand(COMMANDS.showMemory));
        if (m.name === 'vision') return void (await vscode.commands.executeCommand(COMMANDS.visionSettings));
        if (m.name === 'usage') return void (await vscode.commands.executeCommand(COMMANDS.showUsage));
        // `/goal` (with a goal sent, or alone) shows the Control Center.
        if ((await s.runSlash(m.name, m.args)) && m.name === 'goal') await vscode.commands.executeCommand(GOAL_COMMANDS.openControlCenter);
        return;
      case 'goalStart':
        return void (await s.startGoal({
          goal: m.goal,
          autoDeploy: m.autoDeploy,
          ceoMode: m.ceoMode,
          ...(m.concurrency !== undefined ? { concurrency: m.concurrency } : {}),
          ...(m.maxTasks !== undefined ? { maxTasks: m.maxTasks } : {}),
          ...(m.model !== undefined ? { model: m.model } : {}),
        }));
      case 'goalAction':
        if (m.action !== 'openControlCenter') await s.goalAction(m.action, m.feedback);
        return;
      case 'listSessions':
        return void (await s.listSessions());
      case 'newSession':
        return void (await s.newSession());
      case 'openSession':
        return void (await s.loadSession(m.path));
      case 'renameSession':
        return void (await s.renameSession(m.path, m.title));
      case 'pinSession':
        return void (await s.pinSession(m.path, m.pinned));
      case 'deleteSession':
        return void (await s.deleteSession(m.path));
      case 'action':
        if (m.action === 'answerSudo' && m.arg) await answerSudo(s, m.arg);
        return;
    }
  }

  private async completions(kind: 'file' | 'slash', query: string): Promise<CompletionItem[]> {
    if (kind === 'slash') {
      const q = query.replace(/^\//, '').toLowerCase();
      return this.deps.slashCommands
        .filter((c) => c.name.startsWith(q))
        .map((c) => ({ label: `/${c.name}`, detail: c.description, insertText: `/${c.name}${c.args ? ' ' : ''}` }));
    }
    const folder = this.deps.cores.activeFolder();
    return folder ? this.deps.files.complete(folder, query) : [];
  }
}

type SessionMessage = Exclude<ChatMessage, { type: 'copy' | 'insertAtCursor' | 'openFile' | 'complete' | 'checkpointAction' | 'setModel' }>;

/** Buttons in the chat (error cards, welcome panel) that run a VS Code command. */
async function runHostAction(action: Exclude<HostAction, 'answerSudo'>, arg: string | undefined): Promise<void> {
  switch (action) {
    case 'login':
      return void (await vscode.commands.executeCommand(COMMANDS.login));
    case 'logout':
      return void (await vscode.commands.executeCommand(COMMANDS.logout));
    case 'restartCore':
      return void (await vscode.commands.executeCommand(COMMANDS.restartCore));
    case 'showLog':
      return void (await vscode.commands.executeCommand(COMMANDS.showLog));
    case 'openSettings':
      return void (await vscode.commands.executeCommand('workbench.action.openSettings', 'catalystCode'));
    case 'openChatInEditor':
      return void (await vscode.commands.executeCommand(COMMANDS.openChatInEditor));
    case 'showStats':
      return void (await vscode.commands.executeCommand(COMMANDS.showStats));
    case 'reviewApproval':
      return reviewApproval(arg);
  }
}

/** Reviewing a file approval in the diff editor is contributed by the diff-approval feature when it is installed. */
async function reviewApproval(requestId: string | undefined): Promise<void> {
  const available = (await vscode.commands.getCommands(true)).includes('catalystCode.reviewApproval');
  if (available) await vscode.commands.executeCommand('catalystCode.reviewApproval', requestId);
  else
    void vscode.window.showInformationMessage(
      'Catalyst Code: reviewing a proposal in the diff editor is not available in this version; answer it in the chat.',
    );
}

import * as vscode from 'vscode';
import type { SessionState } from '../shared/sessionState';
import type { CoreManager } from './coreManager';
import { CONTEXT_KEYS } from './ids';

/** `catalystCode.running` and `catalystCode.awaitingApproval` for keybindings and menus, set only when they change. */
export class ChatContextKeys implements vscode.Disposable {
  private running = false;
  private awaitingApproval = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly cores: CoreManager) {
    this.subscriptions = [cores.onDidChangeActiveState(({ state }) => this.update(state)), cores.onDidSwitch(() => this.update(cores.active()?.session.state))];
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }

  private update(state: SessionState | undefined): void {
    const running = !!state && state.core.status === 'ready' && state.run.status !== 'idle';
    const awaiting = !!state && state.run.status === 'waiting_approval';
    if (running !== this.running) {
      this.running = running;
      void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.running, running);
    }
    if (awaiting !== this.awaitingApproval) {
      this.awaitingApproval = awaiting;
      void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.awaitingApproval, awaiting);
    }
  }
}

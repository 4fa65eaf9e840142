import * as vscode from 'vscode';
import type { CoreManager } from './coreManager';
import { COMMANDS } from './ids';
import { describeStatus } from '../client/presentation/statusPresentation';

/** The status bar item: the active core's state and model; a click opens the chat. */
export class CoreStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('catalystCode.status', vscode.StatusBarAlignment.Right, 100);
  private readonly subscriptions: vscode.Disposable[];
  private lastText = '';
  private lastTooltip = '';
  /** Shows the item again when a rate limit it names ends (no state change says so). */
  private rateLimitTimer: ReturnType<typeof setTimeout> | undefined;
  private rateLimitUntil: number | undefined;

  constructor(private readonly cores: CoreManager) {
    this.item.name = 'Catalyst Code';
    this.item.command = COMMANDS.openChat;
    this.subscriptions = [cores.onDidChangeActiveState(() => this.update()), cores.onDidSwitch(() => this.update())];
    this.update();
    this.item.show();
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    clearTimeout(this.rateLimitTimer);
    this.item.dispose();
  }

  /** Called per state change (many per second while streaming): touches the item only when its text changes. */
  private update(): void {
    const core = this.cores.active();
    this.refreshWhenRateLimitEnds(core?.session.state.rateLimitedUntil);
    const status = describeStatus(core?.session.state, multiRoot() ? core?.folder.name : undefined);
    if (status.text === this.lastText && status.tooltip === this.lastTooltip) return;
    this.lastText = status.text;
    this.lastTooltip = status.tooltip;
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.backgroundColor =
      status.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : status.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  private refreshWhenRateLimitEnds(until: number | undefined): void {
    if (until === this.rateLimitUntil) return;
    this.rateLimitUntil = until;
    clearTimeout(this.rateLimitTimer);
    const wait = until === undefined ? 0 : until * 1000 - Date.now();
    this.rateLimitTimer = wait > 0 ? setTimeout(() => this.update(), Math.min(wait + 500, 2 ** 31 - 1)) : undefined;
  }
}

function multiRoot(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}

import * as vscode from 'vscode';
import type { CoreManager } from '../coreManager';
import { GOAL_COMMANDS } from '../ids';
import { goalNotice, type GoalNotice } from '../../client/presentation/goalPresentation';

const SHOW = {
  info: vscode.window.showInformationMessage,
  warning: vscode.window.showWarningMessage,
  error: vscode.window.showErrorMessage,
};

/**
 * A notification when the goal's plan waits for approval and when the goal ends, once per plan version and per end,
 * and none while the Control Center is on screen (it shows the same).
 */
export class GoalNotifier implements vscode.Disposable {
  private readonly shown = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    cores: CoreManager,
    private readonly controlCenterVisible: () => boolean,
  ) {
    this.subscription = cores.onDidChangeActiveState(({ state }) => this.consider(goalNotice(state.goal)));
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private consider(notice: GoalNotice | undefined): void {
    if (!notice || this.shown.has(notice.key)) return;
    this.shown.add(notice.key);
    if (this.controlCenterVisible()) return;
    const button = notice.kind === 'planReady' ? 'Review Plan' : 'Open Control Center';
    void SHOW[notice.level](notice.message, button).then(
      (choice) => choice && vscode.commands.executeCommand(GOAL_COMMANDS.openControlCenter),
    );
  }
}

import * as vscode from 'vscode';
import type { CoreManager } from '../coreManager';
import { GOAL_COMMANDS } from '../ids';
import { goalStatusText } from '../../client/presentation/goalPresentation';

/** A status-bar item while the chat's goal is active (phase, wave, steps done); a click opens the Control Center. */
export class GoalStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('catalystCode.goal', vscode.StatusBarAlignment.Right, 99);
  private readonly subscriptions: vscode.Disposable[];
  private last = '';

  constructor(private readonly cores: CoreManager) {
    this.item.name = 'Catalyst Code Goal';
    this.item.command = GOAL_COMMANDS.openControlCenter;
    this.subscriptions = [cores.onDidChangeActiveState(() => this.update()), cores.onDidSwitch(() => this.update())];
    this.update();
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    this.item.dispose();
  }

  /** Per state change: touches the item only when what it says changes. */
  private update(): void {
    const state = this.cores.active()?.session.state;
    const status = goalStatusText(state?.goal, state?.workState);
    const key = status ? `${status.text}\n${status.tooltip}` : '';
    if (key === this.last) return;
    this.last = key;
    if (!status) return this.item.hide();
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.show();
  }
}

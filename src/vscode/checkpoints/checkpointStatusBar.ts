import * as vscode from 'vscode';
import { statusTooltip } from '../../client/checkpoints';
import type { CoreManager } from '../coreManager';
import type { CheckpointRegistry } from './checkpointRegistry';

/** "$(history) N": the chat folder's checkpoint count, once its core is up with checkpoints; a click shows them. */
export class CheckpointStatusBar implements vscode.Disposable {
  private item: vscode.StatusBarItem | undefined;
  private readonly subscriptions: vscode.Disposable[];
  private last = '';

  constructor(
    private readonly registry: CheckpointRegistry,
    private readonly cores: CoreManager,
  ) {
    this.subscriptions = [registry.onDidChange(() => this.update()), cores.onDidSwitch(() => this.update())];
  }

  private update(): void {
    const folder = this.registry.active();
    if (!folder?.sourceControl) {
      this.item?.hide();
      this.last = '';
      return;
    }
    const count = folder.model.list.size;
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const text = `$(history) ${count}`;
    const tooltip = statusTooltip(count, folder.model.list.newest(), multi ? folder.folder.name : undefined, Date.now());
    const key = `${text}\0${tooltip}`;
    if (key === this.last) return;
    this.last = key;
    if (!this.item) {
      // Created with the first folder that has checkpoints, never in activate().
      this.item = vscode.window.createStatusBarItem('catalystCode.checkpoints', vscode.StatusBarAlignment.Left, 10);
      this.item.name = 'Catalyst Checkpoints';
      this.item.command = 'workbench.view.scm';
    }
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `${count} Catalyst checkpoints`, role: 'button' };
    this.item.show();
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    this.item?.dispose();
  }
}

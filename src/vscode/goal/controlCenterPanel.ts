import * as vscode from 'vscode';
import type { ChatHub } from '../chatHub';
import { GOAL_PANEL_ID } from '../ids';
import type { WebviewBridge } from '../webviewBridge';
import { chatWebviewOptions } from '../../client/chatView/webviewHtml';

/**
 * Goal mode's Control Center: one editor tab showing the session's goal (the start form, the plan to review, the waves
 * and their child runs, verdicts, the summary). It is a webview in placement 'controlCenter' — its own bundle,
 * dist/controlCenter.js — attached to the same hub as the chat, so it shares the live session state; restored after a
 * window reload through the serializer.
 */
export class ControlCenterPanel implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly hub: ChatHub,
    private readonly extensionUri: vscode.Uri,
  ) {}

  /** Opens the tab, or brings it to the front. */
  open(): WebviewBridge | undefined {
    if (this.panel) {
      this.panel.reveal();
      return undefined;
    }
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(GOAL_PANEL_ID, 'Goal — Catalyst Code', column, {
      ...chatWebviewOptions(vscode.Uri.joinPath(this.extensionUri, 'dist')),
      retainContextWhenHidden: true,
      enableFindWidget: true,
    });
    return this.adopt(panel);
  }

  /** Whether the user can see the Control Center now (then a goal notification is noise). */
  visible(): boolean {
    return this.panel?.visible ?? false;
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    if (this.panel) {
      panel.dispose();
      return;
    }
    this.adopt(panel);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private adopt(panel: vscode.WebviewPanel): WebviewBridge {
    this.panel = panel;
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.extensionUri, 'media', 'catalyst-light.svg'),
      dark: vscode.Uri.joinPath(this.extensionUri, 'media', 'catalyst-dark.svg'),
    };
    const bridge = this.hub.attach(panel.webview, 'controlCenter', () => panel.visible);
    const subscriptions = [
      panel.onDidChangeViewState(({ webviewPanel }) => webviewPanel.visible && bridge.onVisible()),
      panel.onDidDispose(() => {
        subscriptions.forEach((d) => d.dispose());
        bridge.dispose();
        this.panel = undefined;
      }),
    ];
    return bridge;
  }
}

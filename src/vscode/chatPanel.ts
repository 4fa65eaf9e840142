import * as vscode from 'vscode';
import type { ChatHub } from './chatHub';
import { CHAT_PANEL_ID } from './ids';
import type { WebviewBridge } from './webviewBridge';
import { chatWebviewOptions } from '../client/chatView/webviewHtml';

/**
 * The chat as an editor tab ("Open Chat in Editor"): one panel showing the same live state as the sidebar, restored
 * after a window reload through the serializer.
 */
export class ChatPanelManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private bridge: WebviewBridge | undefined;

  constructor(
    private readonly hub: ChatHub,
    private readonly extensionUri: vscode.Uri,
  ) {
    hub.openPanel = () => this.open();
  }

  open(): WebviewBridge {
    if (this.panel && this.bridge) {
      this.panel.reveal();
      return this.bridge;
    }
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_ID, 'Catalyst Code', column, {
      ...chatWebviewOptions(vscode.Uri.joinPath(this.extensionUri, 'dist')),
      retainContextWhenHidden: true,
      enableFindWidget: true,
    });
    return this.adopt(panel);
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
    const bridge = this.hub.attach(panel.webview, 'editor', () => panel.visible);
    this.bridge = bridge;
    const subscriptions = [
      panel.onDidChangeViewState(({ webviewPanel }) => {
        if (webviewPanel.active) this.hub.markUsed(bridge);
        if (webviewPanel.visible) bridge.onVisible();
      }),
      panel.onDidDispose(() => {
        subscriptions.forEach((d) => d.dispose());
        bridge.dispose();
        this.panel = undefined;
        this.bridge = undefined;
      }),
    ];
    return bridge;
  }
}

import * as vscode from 'vscode';
import type { ChatHub } from './chatHub';
import type { Placement, WebviewBridge } from './webviewBridge';
import { chatWebviewOptions } from '../client/chatView/webviewHtml';

/** What tells one editor-tab webview from another. */
export interface SingletonPanelSpec {
  /** The panel's view type (also its serializer's). */
  viewType: string;
  title: string;
  placement: Placement;
}

/**
 * An editor tab that exists at most once: opened or brought to the front, attached to the hub (so it shows the same live
 * state as the other views), restored after a window reload through the serializer (a second restored copy is closed).
 */
export class SingletonWebviewPanel implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private bridge: WebviewBridge | undefined;

  constructor(
    protected readonly hub: ChatHub,
    private readonly extensionUri: vscode.Uri,
    private readonly spec: SingletonPanelSpec,
  ) {}

  /** Opens the tab, or brings it to the front. */
  open(): WebviewBridge {
    if (this.panel && this.bridge) {
      this.panel.reveal();
      return this.bridge;
    }
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(this.spec.viewType, this.spec.title, column, {
      ...chatWebviewOptions(vscode.Uri.joinPath(this.extensionUri, 'dist')),
      retainContextWhenHidden: true,
      enableFindWidget: true,
    });
    return this.adopt(panel);
  }

  /** Whether the user can see the tab now. */
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

  /** The tab became the active editor. */
  protected onActive(_bridge: WebviewBridge): void {}

  private adopt(panel: vscode.WebviewPanel): WebviewBridge {
    this.panel = panel;
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.extensionUri, 'media', 'catalyst-light.svg'),
      dark: vscode.Uri.joinPath(this.extensionUri, 'media', 'catalyst-dark.svg'),
    };
    const bridge = this.hub.attach(panel.webview, this.spec.placement, () => panel.visible);
    this.bridge = bridge;
    const subscriptions = [
      panel.onDidChangeViewState(({ webviewPanel }) => {
        if (webviewPanel.active) this.onActive(bridge);
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

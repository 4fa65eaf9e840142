import * as vscode from 'vscode';
import type { ChatHub } from './chatHub';

/** The sidebar chat (`catalystCode.chatView` in the "Catalyst Code" activity-bar container). */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(private readonly hub: ChatHub) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const bridge = this.hub.attach(view.webview, 'sidebar', () => view.visible);
    const subscriptions = [
      view.onDidChangeVisibility(() => {
        if (!view.visible) return;
        this.hub.markUsed(bridge);
        bridge.onVisible();
      }),
      view.onDidDispose(() => {
        subscriptions.forEach((d) => d.dispose());
        bridge.dispose();
      }),
    ];
  }
}

import * as vscode from 'vscode';
import type { ChatHub } from './chatHub';
import { CHAT_PANEL_ID } from './ids';
import { SingletonWebviewPanel } from './singletonWebviewPanel';
import type { WebviewBridge } from './webviewBridge';

/**
 * The chat as an editor tab ("Open Chat in Editor"): one panel showing the same live state as the sidebar, restored
 * after a window reload through the serializer.
 */
export class ChatPanelManager extends SingletonWebviewPanel {
  constructor(hub: ChatHub, extensionUri: vscode.Uri) {
    super(hub, extensionUri, { viewType: CHAT_PANEL_ID, title: 'Catalyst Code', placement: 'editor' });
    hub.openPanel = () => this.open();
  }

  /** The chat a command's text goes to is the one last used. */
  protected override onActive(bridge: WebviewBridge): void {
    this.hub.markUsed(bridge);
  }
}

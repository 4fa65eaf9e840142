import * as vscode from 'vscode';
import type { HostToWebview } from '../shared/webviewMessages';
import { CHAT_VIEW_ID } from './ids';
import { WebviewBridge, type BridgeHost, type Placement } from './webviewBridge';

const VIEW_RESOLVE_TIMEOUT_MS = 15_000;

/**
 * Every open chat (the sidebar view and the editor panel) shows the same live state; the hub knows them all and which
 * one the user used last, so commands like "Ask About Selection" land in the chat the user is looking at.
 */
export class ChatHub implements vscode.Disposable {
  private readonly bridges = new Set<WebviewBridge>();
  private readonly visibility = new Map<WebviewBridge, () => boolean>();
  private lastUsed: WebviewBridge | undefined;
  private readonly attachEmitter = new vscode.EventEmitter<WebviewBridge>();
  /** Opens (or reveals) the editor-tab chat; set by ChatPanelManager. */
  openPanel: (() => WebviewBridge) | undefined;

  constructor(private readonly host: BridgeHost) {}

  /** A chat view or panel was resolved: that is a first use, so the core starts now, while the webview loads. */
  attach(webview: vscode.Webview, placement: Placement, isVisible: () => boolean): WebviewBridge {
    this.host.cores.ensureActive();
    const bridge = new WebviewBridge(webview, placement, this.host);
    this.bridges.add(bridge);
    this.visibility.set(bridge, isVisible);
    this.lastUsed = bridge;
    bridge.onDidInteract(() => (this.lastUsed = bridge));
    bridge.onDidDispose(() => {
      this.bridges.delete(bridge);
      this.visibility.delete(bridge);
      if (this.lastUsed === bridge) this.lastUsed = [...this.bridges].pop();
    });
    this.attachEmitter.fire(bridge);
    return bridge;
  }

  /** The user interacted with this chat (it got focus or sent a message). */
  markUsed(bridge: WebviewBridge): void {
    this.lastUsed = bridge;
  }

  /** Whether the user can see a chat right now (then its approval card is in view and a notification is noise). */
  anyVisible(): boolean {
    return [...this.visibility.values()].some((isVisible) => isVisible());
  }

  /** Whether a chat proper (sidebar or editor tab, not the Goal Control Center, which shows no transcript) is on screen. */
  anyChatVisible(): boolean {
    return [...this.visibility].some(([bridge, isVisible]) => bridge.placement !== 'controlCenter' && isVisible());
  }

  /** Shows the sidebar chat (resolving its webview the first time) and returns its bridge. */
  async revealSidebar(): Promise<WebviewBridge | undefined> {
    const existing = this.find('sidebar');
    const attached = existing ? undefined : this.nextAttach('sidebar');
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    return existing ?? this.find('sidebar') ?? (await attached);
  }

  /** Sends a message to the chat the user last used (the editor panel if that was it), showing it first. */
  async deliver(...messages: HostToWebview[]): Promise<void> {
    const target = this.lastUsed?.placement === 'editor' && this.openPanel ? this.openPanel() : await this.revealSidebar();
    if (!target) {
      void vscode.window
        .showErrorMessage(
          'Catalyst Code: the chat view did not open. Try "Catalyst: Open Chat", or "Catalyst: Show Core Log" for details.',
          'Show Core Log',
        )
        .then((choice) => choice && vscode.commands.executeCommand('catalystCode.showLog'));
      return;
    }
    messages.forEach((m) => target.post(m));
  }

  dispose(): void {
    [...this.bridges].forEach((b) => b.dispose());
    this.attachEmitter.dispose();
  }

  private find(placement: Placement): WebviewBridge | undefined {
    return [...this.bridges].find((b) => b.placement === placement);
  }

  private nextAttach(placement: Placement): Promise<WebviewBridge | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve(undefined);
      }, VIEW_RESOLVE_TIMEOUT_MS);
      const sub = this.attachEmitter.event((b) => {
        if (b.placement !== placement) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(b);
      });
    });
  }
}

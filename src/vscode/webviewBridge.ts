import * as vscode from 'vscode';
import { validateWebviewMessage, type HostToWebview, type ViewContext, type WebviewToHost } from '../shared/webviewMessages';
import type { CoreManager } from './coreManager';
import { PatchStream } from '../client/chatView/patchStream';
import { chatWebviewShell, webviewScriptFor } from '../client/chatView/webviewHtml';

export type Placement = ViewContext['placement'];
/** What the host acts on: every chat message but the handshake, which the bridge answers itself. */
export type ChatIntent = Exclude<WebviewToHost, { type: 'ready' } | { type: 'resync' }>;

export interface BridgeHost {
  readonly cores: CoreManager;
  readonly log: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  viewContext(placement: Placement): ViewContext;
  /** Already validated. */
  handle(message: ChatIntent, bridge: WebviewBridge): Promise<void>;
}

/** One-off messages (insert text, focus) that wait for the webview's `ready`; a bound so a dead view can't hoard them. */
const MAX_QUEUED = 20;

/**
 * The link between the active core and one webview (sidebar view or editor panel): the HTML shell, the snapshot on
 * `ready`/`resync`, patches per frame, and every incoming message validated before it reaches the host.
 */
export class WebviewBridge implements vscode.Disposable {
  private readonly stream: PatchStream;
  private ready = false;
  private disposed = false;
  /** A post was dropped (the webview was not live): the next time it is visible it gets a snapshot. */
  private stale = false;
  private queued: HostToWebview[] = [];
  private readonly invalidTypesLogged = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private readonly interactEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  /** The user did something in this chat (any valid message but the handshake). */
  readonly onDidInteract = this.interactEmitter.event;

  constructor(
    readonly webview: vscode.Webview,
    readonly placement: Placement,
    private readonly host: BridgeHost,
  ) {
    const shell = chatWebviewShell(
      webview,
      vscode.Uri.joinPath(host.extensionUri, 'dist'),
      (base, ...segments) => vscode.Uri.joinPath(base, ...segments),
      { script: webviewScriptFor(placement) },
    );
    webview.options = shell.options;
    webview.html = shell.html;
    this.stream = new PatchStream({ post: (m) => this.postNow(m) });
    this.subscriptions.push(
      this.disposeEmitter,
      this.interactEmitter,
      webview.onDidReceiveMessage((raw) => this.receive(raw)),
      host.cores.onDidChangeActiveState(({ patches }) => this.stream.push(patches)),
      host.cores.onDidSwitch(() => this.ready && this.sendSnapshot()),
    );
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Sends a one-off message after the patches already pending (queued until the webview is ready). */
  post(message: HostToWebview): void {
    if (!this.ready) {
      if (this.queued.length < MAX_QUEUED) this.queued.push(message);
      return;
    }
    this.stream.flush();
    this.postNow(message);
  }

  /** The view or panel became visible again. */
  onVisible(): void {
    if (this.ready && this.stale) this.sendSnapshot();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stream.pause();
    this.ready = false;
    this.disposeEmitter.fire();
    this.subscriptions.forEach((d) => d.dispose());
  }

  private receive(raw: unknown): void {
    const message = validateWebviewMessage(raw);
    if (!message) return this.logInvalid(raw);
    if (message.type === 'ready') return this.onReady();
    if (message.type === 'resync') return this.sendSnapshot();
    this.interactEmitter.fire();
    this.host
      .handle(message, this)
      .catch((err) =>
        this.host.log.error(`handling '${message.type}' from the chat failed: ${err instanceof Error ? err.message : String(err)}`),
      );
  }

  private onReady(): void {
    // The chat is being shown: this is the "first use" that starts the core.
    this.host.cores.ensureActive();
    this.ready = true;
    this.sendSnapshot();
    const queued = this.queued;
    this.queued = [];
    queued.forEach((m) => this.post(m));
  }

  private sendSnapshot(): void {
    this.stale = false;
    this.stream.snapshot(this.host.cores.activeState(), this.host.viewContext(this.placement));
  }

  private postNow(message: HostToWebview): void {
    this.webview.postMessage(message).then(
      (delivered) => delivered || this.markStale(),
      () => this.markStale(),
    );
  }

  private markStale(): void {
    if (this.stale) return;
    this.stale = true;
    this.stream.pause();
  }

  /** Logged once per type: a misbehaving webview must not flood the log. Never logs the payload (it may hold text). */
  private logInvalid(raw: unknown): void {
    const type =
      typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string'
        ? (raw as { type: string }).type.slice(0, 60)
        : `<${typeof raw}>`;
    if (this.invalidTypesLogged.has(type)) return;
    this.invalidTypesLogged.add(type);
    this.host.log.warn(`ignored an invalid '${type}' message from the chat webview (further ones of this type are not logged)`);
  }
}

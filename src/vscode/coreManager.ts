import * as vscode from 'vscode';
import { errorText } from '../client/errorText';
import { initialSessionState, type SessionState } from '../shared/sessionState';
import type { Patch } from '../shared/statePatch';
import type { ApiKeyStore } from './apiKeyStore';
import type { ChatSession } from '../client/intents/chatSession';
import { COMMANDS } from './ids';
import type { LaunchSettings } from '../client/channel/launchSettings';
import { ProviderCatalog } from '../client/providers/providerCatalog';

export { errorText } from '../client/errorText';

/** One core: the workspace folder it works in, its session controller and what it said about providers. */
export interface FolderCore {
  readonly folder: vscode.WorkspaceFolder;
  readonly session: ChatSession;
  readonly catalog: ProviderCatalog;
  /** The settings it was launched with (Restart Core relaunches from scratch when they changed). */
  readonly launchSettings: LaunchSettings;
}

export type CoreEvent = { type: string; [field: string]: unknown };
export type SessionFactory = (folder: vscode.WorkspaceFolder) => { session: ChatSession; launchSettings: LaunchSettings };

export interface CoreManagerDeps {
  log: vscode.LogOutputChannel;
  keys: ApiKeyStore;
  createSession: SessionFactory;
}

/**
 * One core per workspace folder, started on first use. The chat follows the folder of the active editor (else the first
 * folder, or the one picked with "Switch Workspace Folder…"); listeners see the state of that active core only.
 */
export class CoreManager implements vscode.Disposable {
  private readonly cores = new Map<string, FolderCore>();
  private readonly coreSubscriptions = new Map<string, vscode.Disposable[]>();
  private readonly lastStatus = new Map<string, SessionState['core']['status']>();
  private activeKey: string | undefined;
  private readonly stateEmitter = new vscode.EventEmitter<{ state: SessionState; patches: Patch[] }>();
  private readonly switchEmitter = new vscode.EventEmitter<void>();
  private readonly eventEmitter = new vscode.EventEmitter<{ core: FolderCore; event: CoreEvent }>();
  private readonly createEmitter = new vscode.EventEmitter<FolderCore>();
  private readonly subscriptions: vscode.Disposable[] = [];

  /** The active core's state changed; `patches` turn the previous state into this one. */
  readonly onDidChangeActiveState = this.stateEmitter.event;
  /** The active core is now a different one (or was just created): listeners need a fresh snapshot. */
  readonly onDidSwitch = this.switchEmitter.event;
  /** Every raw event of every core (diff approvals and checkpoints build on this). */
  readonly onCoreEvent = this.eventEmitter.event;
  /** A core was created for a folder (first use, or Restart Core with new settings); it replaces any earlier one there. */
  readonly onDidCreateCore = this.createEmitter.event;

  constructor(private readonly deps: CoreManagerDeps) {
    this.subscriptions.push(
      this.stateEmitter,
      this.switchEmitter,
      this.eventEmitter,
      this.createEmitter,
      vscode.window.onDidChangeActiveTextEditor((editor) => this.followEditor(editor)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.onFoldersChanged()),
    );
    this.activeKey = this.activeFolder()?.uri.toString();
  }

  /** The folder the chat is about, without starting anything. */
  activeFolder(): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const chosen = folders.find((f) => f.uri.toString() === this.activeKey);
    if (chosen) return chosen;
    const editorUri = vscode.window.activeTextEditor?.document.uri;
    return (editorUri && vscode.workspace.getWorkspaceFolder(editorUri)) || folders[0];
  }

  /** The active folder's core if it was started. */
  active(): FolderCore | undefined {
    const folder = this.activeFolder();
    return folder && this.cores.get(folder.uri.toString());
  }

  /** The active folder's core, created and started on first use; undefined when no folder is open. */
  ensureActive(): FolderCore | undefined {
    const folder = this.activeFolder();
    if (!folder) return undefined;
    return this.cores.get(folder.uri.toString()) ?? this.create(folder);
  }

  all(): FolderCore[] {
    return [...this.cores.values()];
  }

  /** What the chat shows: the active core's state, or an explanation when there is no core to show. */
  activeState(): SessionState {
    const core = this.active();
    if (core) return core.session.state;
    const state = initialSessionState();
    if (this.activeFolder()) return state;
    return {
      ...state,
      core: { ...state.core, message: 'Open a folder to use Catalyst Code.' },
      items: [
        {
          kind: 'notice',
          id: 'no-folder',
          level: 'info',
          text: 'Catalyst Code works in a folder: open one (File → Open Folder…) and the chat starts there.',
        },
      ],
    };
  }

  /** Makes `folder` the chat's folder (the "Switch Workspace Folder…" command), starting its core. */
  switchTo(folder: vscode.WorkspaceFolder): void {
    if (this.activeKey === folder.uri.toString() && this.cores.has(this.activeKey)) return;
    this.activeKey = folder.uri.toString();
    this.ensureActive();
    this.switchEmitter.fire();
  }

  /** Stops the core and starts a fresh one with the current settings (a `restart()` would reuse the old launch). */
  async recreate(core: FolderCore): Promise<FolderCore> {
    const key = core.folder.uri.toString();
    this.disposeCore(key);
    await core.session.dispose().catch((err) => this.deps.log.warn(`stopping the core failed: ${errorText(err)}`));
    return this.create(core.folder);
  }

  async stopAll(): Promise<void> {
    const cores = this.all();
    for (const key of [...this.cores.keys()]) this.disposeCore(key);
    await Promise.allSettled(cores.map((c) => c.session.dispose()));
  }

  dispose(): void {
    void this.stopAll();
    this.subscriptions.forEach((d) => d.dispose());
  }

  private create(folder: vscode.WorkspaceFolder): FolderCore {
    const key = folder.uri.toString();
    const core: FolderCore = { folder, ...this.deps.createSession(folder), catalog: new ProviderCatalog() };
    this.cores.set(key, core);
    this.coreSubscriptions.set(key, [
      core.session.onDidChange((state, patches) => this.onStateChange(core, state, patches)),
      core.session.onEvent((event) => this.onEvent(core, event)),
    ]);
    this.createEmitter.fire(core);
    core.session.start().catch((err) => this.deps.log.error(`the core for ${folder.name} did not start: ${errorText(err)}`));
    if (this.isActive(core)) this.switchEmitter.fire();
    return core;
  }

  private onStateChange(core: FolderCore, state: SessionState, patches: Patch[]): void {
    if (this.isActive(core) && patches.length > 0) this.stateEmitter.fire({ state, patches });
    this.reportStatusChange(core, state);
  }

  private onEvent(core: FolderCore, event: CoreEvent): void {
    core.catalog.observe(event);
    this.eventEmitter.fire({ core, event });
  }

  /** Each time a core becomes ready (first start and restarts) it has no keys: give it the ones SecretStorage holds. */
  private async sendStoredKeys(core: FolderCore): Promise<void> {
    try {
      const keys = await this.deps.keys.keysFor(core.catalog.providers);
      if (this.cores.get(core.folder.uri.toString()) !== core) return;
      for (const [provider, key] of keys) await core.session.setKey(provider, key);
      if (keys.length > 0) this.deps.log.info(`sent the stored API keys of ${keys.map(([p]) => p).join(', ')} to the core`);
    } catch (err) {
      this.deps.log.error(`could not read the stored API keys: ${errorText(err)}`);
    }
  }

  /** The transcript tells what happened; a notification only when the core gave up, with what to do about it. */
  private reportStatusChange(core: FolderCore, state: SessionState): void {
    const key = core.folder.uri.toString();
    const previous = this.lastStatus.get(key);
    const status = state.core.status;
    if (previous === status) return;
    this.lastStatus.set(key, status);
    if (status === 'ready') void this.sendStoredKeys(core);
    if (status === 'crashed') void this.offerRecovery(core, state.core.message);
  }

  private async offerRecovery(core: FolderCore, message: string | undefined): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `Catalyst Code: the core for ${core.folder.name} stopped${message ? `: ${message}` : ''}.`,
      'Restart Core',
      'Show Log',
      'Open Settings',
    );
    if (choice === 'Restart Core') await vscode.commands.executeCommand(COMMANDS.restartCore);
    if (choice === 'Show Log') await vscode.commands.executeCommand(COMMANDS.showLog);
    if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'catalystCode');
  }

  private isActive(core: FolderCore): boolean {
    return this.activeFolder()?.uri.toString() === core.folder.uri.toString();
  }

  private followEditor(editor: vscode.TextEditor | undefined): void {
    const folder = editor && vscode.workspace.getWorkspaceFolder(editor.document.uri);
    if (!folder || folder.uri.toString() === this.activeKey) return;
    const hadCore = this.active() !== undefined;
    this.activeKey = folder.uri.toString();
    // Switching starts the new folder's core only when a chat is already in use.
    if (hadCore) this.ensureActive();
    this.switchEmitter.fire();
  }

  private onFoldersChanged(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const live = new Set(folders.map((f) => f.uri.toString()));
    for (const [key, core] of [...this.cores]) {
      if (live.has(key)) continue;
      this.disposeCore(key);
      void core.session.dispose();
    }
    if (!this.activeKey || !live.has(this.activeKey)) {
      this.activeKey = undefined;
      this.activeKey = this.activeFolder()?.uri.toString();
    }
    this.switchEmitter.fire();
  }

  private disposeCore(key: string): void {
    this.coreSubscriptions.get(key)?.forEach((d) => d.dispose());
    this.coreSubscriptions.delete(key);
    this.cores.delete(key);
    this.lastStatus.delete(key);
  }
}

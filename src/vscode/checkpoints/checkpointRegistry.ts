import * as vscode from 'vscode';
import type { CheckpointFileRef } from './folderCheckpoints';
import type { CoreManager, FolderCore } from '../coreManager';
import { whenCoreReady } from '../coreWaits';
import { CheckpointContentProvider } from './checkpointContent';
import { CHECKPOINT_FILES_CONTEXT } from './checkpointIds';
import { FolderCheckpoints } from './folderCheckpoints';

const RELABEL_MS = 60_000;

/**
 * One `FolderCheckpoints` per folder core, created with the core (CoreManager.onDidCreateCore) and replaced when the
 * core is recreated. File events and the once-a-minute relabel start with the first core, never in `activate()`.
 */
export class CheckpointRegistry implements vscode.Disposable {
  readonly content: CheckpointContentProvider;
  private readonly folders = new Map<string, FolderCheckpoints>();
  private readonly folderSubscriptions = new Map<string, vscode.Disposable>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private watching: vscode.Disposable[] | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private filesContext: boolean | undefined;
  /** Some folder's checkpoints changed, or a folder came or went. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly cores: CoreManager,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.content = new CheckpointContentProvider((index) => this.atIndex(index));
    this.subscriptions.push(
      this.changeEmitter,
      this.content,
      cores.onDidCreateCore((core) => this.attach(core)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.prune()),
    );
    for (const core of cores.all()) this.attach(core);
  }

  all(): FolderCheckpoints[] {
    return [...this.folders.values()];
  }

  forCore(core: FolderCore | undefined): FolderCheckpoints | undefined {
    const folder = core && this.folders.get(core.folder.uri.toString());
    return folder?.core === core ? folder : undefined;
  }

  /** The chat's folder, if its core was started. */
  active(): FolderCheckpoints | undefined {
    return this.forCore(this.cores.active());
  }

  atIndex(index: number): FolderCheckpoints | undefined {
    const folder = vscode.workspace.workspaceFolders?.[index];
    return folder && this.folders.get(folder.uri.toString());
  }

  forSourceControl(sc: unknown): FolderCheckpoints | undefined {
    return sc ? this.all().find((f) => f.sourceControl !== undefined && f.sourceControl === sc) : undefined;
  }

  forGroup(group: unknown): { folder: FolderCheckpoints; id: string } | undefined {
    for (const folder of this.folders.values()) {
      const id = folder.groupId(group);
      if (id) return { folder, id };
    }
    return undefined;
  }

  forResource(state: unknown): { folder: FolderCheckpoints; ref: CheckpointFileRef } | undefined {
    for (const folder of this.folders.values()) {
      const ref = folder.fileRef(state);
      if (ref) return { folder, ref };
    }
    return undefined;
  }

  /**
   * The chat's folder with its core started and ready (a palette command may be the first use). Tells the user and
   * returns undefined when there is no folder, the core does not come up, or it has no checkpoints.
   */
  async ensureActive(): Promise<FolderCheckpoints | undefined> {
    const core = this.cores.ensureActive();
    if (!core) {
      void vscode.window.showInformationMessage('Catalyst Code: open a folder first; checkpoints are taken of a workspace folder.');
      return undefined;
    }
    if (!(await whenCoreReady(core))) {
      void vscode.window
        .showWarningMessage(`Catalyst Code: the core for ${core.folder.name} is not running.`, 'Show Core Log')
        .then((c) => c && vscode.commands.executeCommand('catalystCode.showLog'));
      return undefined;
    }
    const folder = this.forCore(core) ?? this.attach(core);
    if (!folder.model.supported) {
      void vscode.window.showInformationMessage('Catalyst Code: this core does not support checkpoints.');
      return undefined;
    }
    return folder;
  }

  private attach(core: FolderCore): FolderCheckpoints {
    const key = core.folder.uri.toString();
    this.detach(key);
    const folder = new FolderCheckpoints(core, {
      log: this.log,
      invalidateDocuments: (f, id) => this.content.invalidate(f.index, id),
      coreReady: (f) => this.content.coreReady(f.index),
    });
    this.folders.set(key, folder);
    this.folderSubscriptions.set(
      key,
      folder.onDidChange(() => this.changed()),
    );
    this.startWatching();
    this.changed();
    return folder;
  }

  private detach(key: string): void {
    this.folderSubscriptions.get(key)?.dispose();
    this.folderSubscriptions.delete(key);
    this.folders.get(key)?.dispose();
    this.folders.delete(key);
  }

  private prune(): void {
    const live = new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()));
    let removed = false;
    for (const key of [...this.folders.keys()]) {
      if (live.has(key)) continue;
      this.detach(key);
      removed = true;
    }
    if (removed) this.changed();
  }

  private changed(): void {
    const files = this.all().some((f) => f.sourceControl !== undefined && f.model.filesSupported);
    if (files !== this.filesContext) {
      this.filesContext = files;
      void vscode.commands.executeCommand('setContext', CHECKPOINT_FILES_CONTEXT, files);
    }
    this.changeEmitter.fire();
  }

  /** Saves and file operations make comparisons stale; label times age. Started with the first core only. */
  private startWatching(): void {
    if (this.watching) return;
    const touched = (uris: readonly vscode.Uri[]) => {
      for (const folder of this.folders.values()) if (uris.some((u) => folder.relativePath(u) !== undefined)) folder.onWorkspaceFileEvent();
    };
    const timer = setInterval(() => this.folders.forEach((f) => f.relabel()), RELABEL_MS);
    this.watching = [
      vscode.workspace.onDidSaveTextDocument((doc) => touched([doc.uri])),
      vscode.workspace.onDidCreateFiles((e) => touched(e.files)),
      vscode.workspace.onDidDeleteFiles((e) => touched(e.files)),
      vscode.workspace.onDidRenameFiles((e) => touched(e.files.flatMap((f) => [f.oldUri, f.newUri]))),
      { dispose: () => clearInterval(timer) },
    ];
  }

  dispose(): void {
    for (const key of [...this.folders.keys()]) this.detach(key);
    this.watching?.forEach((d) => d.dispose());
    this.subscriptions.forEach((d) => d.dispose());
  }
}

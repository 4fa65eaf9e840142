import * as vscode from 'vscode';
import {
  CHECKPOINT_SCHEME,
  COMPARED_CHECKPOINTS,
  FolderCheckpointModel,
  changeDecoration,
  checkpointDocPath,
  groupLabel,
  promptOfRun,
  relativeToFolder,
  type CheckpointEntry,
  type CheckpointFileChange,
} from '../../client/checkpoints';
import type { FolderCore } from '../coreManager';
import { CHECKPOINT_COMMANDS, CHECKPOINT_SCM_ID, CHECKPOINT_SCM_LABEL, MAX_GROUPS } from './checkpointIds';

const RENDER_DELAY_MS = 30;

export interface FolderCheckpointsDeps {
  log: vscode.LogOutputChannel;
  /** The checkpoint's documents must be re-read (it was restored or deleted). */
  invalidateDocuments(folder: vscode.WorkspaceFolder, id: string): void;
  /** The core is (again) ready: documents that waited for it can be read. */
  coreReady(folder: vscode.WorkspaceFolder): void;
}

interface GroupSlot {
  id: string;
  group: vscode.SourceControlResourceGroup;
  label: string;
  files: readonly CheckpointFileChange[] | undefined;
  rendered: boolean;
}

export interface CheckpointFileRef {
  id: string;
  change: CheckpointFileChange;
}

/**
 * One folder's checkpoints as a Source Control provider: a group per checkpoint (newest first) listing how the working
 * tree differs from it, an input box that creates one, a quick diff against the newest. What it shows is the
 * `FolderCheckpointModel` (src/client/checkpoints), fed by the folder core's own events; the SourceControl appears once
 * the core is ready and supports checkpoints.
 */
export class FolderCheckpoints implements vscode.Disposable {
  readonly model: FolderCheckpointModel;
  private sc: vscode.SourceControl | undefined;
  private slots: GroupSlot[] = [];
  private readonly groupIds = new WeakMap<vscode.SourceControlResourceGroup, string>();
  private readonly fileRefs = new WeakMap<vscode.SourceControlResourceState, CheckpointFileRef>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private renderTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** The list or a comparison changed (the status bar, the palette's quick pick). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    readonly core: FolderCore,
    private readonly deps: FolderCheckpointsDeps,
  ) {
    this.model = new FolderCheckpointModel(core.session, {
      folderName: core.folder.name,
      warn: (line) => deps.log.warn(line),
      coreReady: (supported) => this.onCoreReady(supported),
      listChanged: () => this.scheduleRender(),
      invalidated: (id) => deps.invalidateDocuments(this.folder, id),
    });
    this.model.start();
  }

  get folder(): vscode.WorkspaceFolder {
    return this.core.folder;
  }

  get sourceControl(): vscode.SourceControl | undefined {
    return this.sc;
  }

  groupId(group: unknown): string | undefined {
    return typeof group === 'object' && group !== null ? this.groupIds.get(group as vscode.SourceControlResourceGroup) : undefined;
  }

  fileRef(state: unknown): CheckpointFileRef | undefined {
    return typeof state === 'object' && state !== null ? this.fileRefs.get(state as vscode.SourceControlResourceState) : undefined;
  }

  workingUri(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder.uri, ...path.split('/'));
  }

  /** The checkpoint's version of a file (`empty`: an empty document, the right side of a deleted file's diff). */
  docUri(id: string, path: string, empty = false): vscode.Uri {
    return vscode.Uri.from({
      scheme: CHECKPOINT_SCHEME,
      path: checkpointDocPath({ folderIndex: this.folder.index, id, path }),
      query: empty ? 'empty' : '',
    });
  }

  relativePath(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== this.folder.uri.scheme) return undefined;
    return relativeToFolder(this.folder.uri.fsPath, uri.fsPath, process.platform === 'win32' || process.platform === 'darwin');
  }

  /** A file in the folder was saved, created, deleted or renamed: the shown comparisons are stale. */
  onWorkspaceFileEvent(): void {
    if (this.sc) this.model.onWorkspaceFileEvent();
  }

  private onCoreReady(supported: boolean): void {
    if (!supported) {
      this.disposeSourceControl();
      return;
    }
    this.ensureSourceControl();
    this.deps.coreReady(this.folder);
  }

  // ── Source Control ─────────────────────────────────────────────────────────

  private ensureSourceControl(): void {
    if (this.sc || this.disposed) return;
    const sc = vscode.scm.createSourceControl(CHECKPOINT_SCM_ID, CHECKPOINT_SCM_LABEL, this.folder.uri);
    sc.inputBox.placeholder = 'Checkpoint label (Ctrl+Enter to create)';
    sc.acceptInputCommand = { command: CHECKPOINT_COMMANDS.create, title: 'Create Checkpoint', arguments: [sc] };
    // Checkpoints are not pending changes: keep them out of the Source Control badge.
    sc.count = 0;
    sc.quickDiffProvider = { provideOriginalResource: (uri) => this.originalResource(uri) };
    this.sc = sc;
    this.render();
  }

  private disposeSourceControl(): void {
    for (const slot of this.slots) slot.group.dispose();
    this.slots = [];
    this.sc?.dispose();
    this.sc = undefined;
    this.changeEmitter.fire();
  }

  /** Quick diff: the newest checkpoint's version of a file, when the checkpoint has it (or it was created since). */
  private async originalResource(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
    const newest = this.model.list.newest();
    const rel = newest && this.model.filesSupported && this.model.isReady() ? this.relativePath(uri) : undefined;
    if (!newest || !rel) return undefined;
    const changes = this.model.list.changesOf(newest.id);
    const createdSince = changes?.some((c) => c.path === rel && c.status === 'added') ?? false;
    try {
      const content = await this.model.fileContent(newest.id, rel);
      if (content.binary || content.tooLarge) return undefined;
      // Not in the checkpoint and not listed as created since: ignored or a build output, nothing to compare with.
      if (!content.exists && !createdSince) return undefined;
    } catch {
      return undefined;
    }
    return this.docUri(newest.id, rel);
  }

  /** Label times age: called once a minute. */
  relabel(): void {
    if (this.sc) this.render();
  }

  private scheduleRender(): void {
    if (this.renderTimer) return;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      this.render();
    }, RENDER_DELAY_MS);
  }

  /** Groups in list order (created in that order, so recreated when it changes); labels and files updated in place. */
  private render(): void {
    const sc = this.sc;
    if (!sc || this.disposed) return;
    const entries = this.model.list.all.slice(0, MAX_GROUPS);
    const sameOrder = entries.length === this.slots.length && entries.every((e, i) => e.id === this.slots[i].id);
    if (!sameOrder) {
      for (const slot of this.slots) slot.group.dispose();
      this.slots = entries.map((e) => {
        const group = sc.createResourceGroup(`checkpoint:${e.id}`, displayPlaceholder(e));
        group.hideWhenEmpty = false;
        this.groupIds.set(group, e.id);
        return { id: e.id, group, label: '', files: undefined, rendered: false };
      });
    }
    const now = Date.now();
    const items = this.core.session.state.items;
    const filesSupported = this.model.filesSupported;
    entries.forEach((entry, index) => {
      const slot = this.slots[index];
      const files = this.model.list.changesOf(entry.id);
      const filesNote = !filesSupported
        ? 'files not listed by this core'
        : !files && index >= COMPARED_CHECKPOINTS
          ? 'not compared (older)'
          : undefined;
      const label = groupLabel(entry, { now, files, prompt: entry.runId ? promptOfRun(items, entry.runId) : undefined, filesNote });
      if (label !== slot.label) {
        slot.group.label = label;
        slot.label = label;
      }
      if (!slot.rendered || files !== slot.files) {
        slot.group.resourceStates = (files ?? []).map((change) => this.resourceState(entry.id, change));
        slot.files = files;
        slot.rendered = true;
      }
    });
    this.changeEmitter.fire();
  }

  private resourceState(id: string, change: CheckpointFileChange): vscode.SourceControlResourceState {
    const d = changeDecoration(change);
    const state: { -readonly [K in keyof vscode.SourceControlResourceState]: vscode.SourceControlResourceState[K] } = {
      resourceUri: this.workingUri(change.path),
      contextValue: `checkpointFile.${change.status}`,
      decorations: {
        strikeThrough: d.strikeThrough,
        tooltip: d.tooltip,
        iconPath: new vscode.ThemeIcon(d.icon, new vscode.ThemeColor(d.color)),
      },
    };
    state.command = { command: CHECKPOINT_COMMANDS.openChange, title: 'Open Changes', arguments: [state] };
    this.fileRefs.set(state, { id, change });
    return state;
  }

  dispose(): void {
    this.disposed = true;
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.model.dispose();
    this.disposeSourceControl();
    this.changeEmitter.dispose();
  }
}

function displayPlaceholder(entry: CheckpointEntry): string {
  return entry.label || entry.id;
}

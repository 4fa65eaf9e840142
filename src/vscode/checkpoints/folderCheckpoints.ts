import * as vscode from 'vscode';
import {
  CHECKPOINT_SCHEME,
  CheckpointList,
  CheckpointRequests,
  changeDecoration,
  checkpointDocPath,
  fileKey,
  groupLabel,
  parseCheckpointChanges,
  parseCheckpointDeleted,
  parseCheckpointEntry,
  parseCheckpointList,
  parseCheckpointRestored,
  promptOfRun,
  relativeToFolder,
  type CheckpointEntry,
  type CheckpointFileChange,
  type CheckpointFileContent,
  type CheckpointRestored,
} from '../../client/checkpoints';
import { type CoreStatus, UI_CAPABILITIES } from '../../shared/sessionState';
import { errorText, type CoreEvent, type FolderCore } from '../coreManager';
import { CHECKPOINT_COMMANDS, CHECKPOINT_SCM_ID, CHECKPOINT_SCM_LABEL, COMPARED_CHECKPOINTS, MAX_GROUPS } from './checkpointIds';

const LIST_TIMEOUT_MS = 15_000;
const CHANGES_TIMEOUT_MS = 20_000;
const FILE_TIMEOUT_MS = 15_000;
/** Creating and restoring may walk a big tree; the core has its own time budget for automatic checkpoints. */
const WRITE_TIMEOUT_MS = 120_000;
const SAVE_DEBOUNCE_MS = 500;
const EVENT_REFRESH_MS = 250;
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
 * tree differs from it, an input box that creates one, a quick diff against the newest. Fed by the folder core's own
 * events; the SourceControl appears once the core is ready and supports checkpoints, and nothing runs before that.
 */
export class FolderCheckpoints implements vscode.Disposable {
  readonly list = new CheckpointList();
  private readonly requests = new CheckpointRequests();
  private readonly fileCache = new Map<string, Promise<CheckpointFileContent>>();
  private sc: vscode.SourceControl | undefined;
  private slots: GroupSlot[] = [];
  private readonly groupIds = new WeakMap<vscode.SourceControlResourceGroup, string>();
  private readonly fileRefs = new WeakMap<vscode.SourceControlResourceState, CheckpointFileRef>();
  private status: CoreStatus | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private pending = { list: false, changes: false };
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshDue = 0;
  private refreshing = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private renderTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** The list or a comparison changed (the status bar, the palette's quick pick). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    readonly core: FolderCore,
    private readonly deps: FolderCheckpointsDeps,
  ) {
    this.subscriptions.push(
      this.changeEmitter,
      core.session.onDidChange((state) => this.onStatus(state.core.status)),
      core.session.onEvent((event) => this.onEvent(event)),
    );
    this.onStatus(core.session.state.core.status);
  }

  get folder(): vscode.WorkspaceFolder {
    return this.core.folder;
  }

  get sourceControl(): vscode.SourceControl | undefined {
    return this.sc;
  }

  /** The core can list, compare, read and delete checkpoint files (ours; upstream's core only lists and restores). */
  get filesSupported(): boolean {
    return this.core.session.capabilities().has(UI_CAPABILITIES.checkpointFiles);
  }

  get supported(): boolean {
    return this.core.session.capabilities().has(UI_CAPABILITIES.checkpoints);
  }

  isReady(): boolean {
    return this.core.session.state.core.status === 'ready';
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
    return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: checkpointDocPath({ folderIndex: this.folder.index, id, path }), query: empty ? 'empty' : '' });
  }

  relativePath(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== this.folder.uri.scheme) return undefined;
    return relativeToFolder(this.folder.uri.fsPath, uri.fsPath, process.platform === 'win32' || process.platform === 'darwin');
  }

  // ── Refresh ────────────────────────────────────────────────────────────────

  /** Asks the core again, no sooner than `delayMs` from now unless a refresh is already due earlier. */
  refresh(what: { list?: boolean; changes?: boolean }, delayMs = 0): void {
    if (this.disposed) return;
    this.pending = { list: this.pending.list || what.list === true, changes: this.pending.changes || what.changes === true };
    const due = Date.now() + delayMs;
    if (this.refreshTimer && this.refreshDue <= due) return;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshDue = due;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.runRefresh();
    }, delayMs);
  }

  /** A file in the folder was saved, created, deleted or renamed: the comparisons are stale (debounced). */
  onWorkspaceFileEvent(): void {
    if (!this.sc || this.list.size === 0 || !this.filesSupported) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.refresh({ changes: true });
    }, SAVE_DEBOUNCE_MS);
  }

  private async runRefresh(): Promise<void> {
    if (this.refreshing) {
      this.refresh({}, 100);
      return;
    }
    const what = this.pending;
    this.pending = { list: false, changes: false };
    if (!this.isReady() || !this.supported || (!what.list && !what.changes)) return;
    this.refreshing = true;
    try {
      await this.reload(what.list);
    } catch (err) {
      this.deps.log.warn(`checkpoints: refreshing ${this.folder.name} failed: ${errorText(err)}`);
    } finally {
      this.refreshing = false;
    }
  }

  /** Lists the checkpoints (unless `list` is false) and compares the newest with the working tree; resolves when done. */
  async reload(list = true): Promise<void> {
    // A core without checkpoints (an SCV server) is never asked about them.
    if (!this.supported) return;
    if (list) await this.requests.request('list', '', LIST_TIMEOUT_MS, () => this.isReady() && this.core.session.listCheckpoints());
    if (!this.filesSupported) return;
    const ids = this.list.newestIds(COMPARED_CHECKPOINTS);
    const results = await Promise.allSettled(ids.map((id) => this.fetchChanges(id)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed > 0) this.deps.log.warn(`checkpoints: ${failed} of ${ids.length} comparisons failed in ${this.folder.name}`);
  }

  // ── Queries and actions (each resolves with the core's answer) ─────────────

  /** How the working tree differs from the checkpoint now (also updates its group). */
  fetchChanges(id: string): Promise<readonly CheckpointFileChange[]> {
    return this.requests.request('changes', id, CHANGES_TIMEOUT_MS, () => this.isReady() && this.core.session.checkpointChanges(id)).then((c) => c.files);
  }

  /** The known comparison, or a fresh one when there is none yet (undefined when the core cannot compare). */
  async changesFor(id: string, fresh = false): Promise<readonly CheckpointFileChange[] | undefined> {
    if (!this.filesSupported) return undefined;
    const known = this.list.changesOf(id);
    if (known && !fresh) return known;
    try {
      return await this.fetchChanges(id);
    } catch (err) {
      this.deps.log.warn(`checkpoints: comparing ${id} failed: ${errorText(err)}`);
      return known;
    }
  }

  /** One file at the checkpoint, cached per (id, path) until the checkpoint is restored or deleted. */
  fileContent(id: string, path: string): Promise<CheckpointFileContent> {
    const key = fileKey(id, path);
    const cached = this.fileCache.get(key);
    if (cached) return cached;
    const answer = this.requests.request('file', key, FILE_TIMEOUT_MS, () => this.isReady() && this.core.session.checkpointFile(id, path));
    this.fileCache.set(key, answer);
    answer.catch(() => {
      if (this.fileCache.get(key) === answer) this.fileCache.delete(key);
    });
    return answer;
  }

  create(label?: string): Promise<CheckpointEntry> {
    return this.requests.request('create', '', WRITE_TIMEOUT_MS, () => this.core.session.createCheckpoint(label));
  }

  restore(id: string, paths?: readonly string[]): Promise<CheckpointRestored> {
    return this.requests.request('restore', id, WRITE_TIMEOUT_MS, () => this.core.session.restoreCheckpoint(id, paths));
  }

  delete(id: string): Promise<string> {
    return this.requests.request('delete', id, WRITE_TIMEOUT_MS, () => this.core.session.deleteCheckpoint(id));
  }

  // ── Events ─────────────────────────────────────────────────────────────────

  private onStatus(status: CoreStatus): void {
    if (status === this.status) return;
    this.status = status;
    if (status === 'ready') {
      if (!this.supported) {
        this.disposeSourceControl();
        return;
      }
      this.ensureSourceControl();
      this.refresh({ list: true, changes: true });
      this.deps.coreReady(this.folder);
    } else {
      this.requests.cancelAll(`the core for ${this.folder.name} is ${status}`);
    }
  }

  private onEvent(event: CoreEvent): void {
    // Applied first, so whoever awaits an answer sees the model already updated.
    switch (event.type) {
      case 'checkpoints': {
        const entries = parseCheckpointList(event);
        if (entries && this.list.setList(entries)) this.scheduleRender();
        break;
      }
      case 'checkpoint_created': {
        const entry = parseCheckpointEntry(event);
        if (entry && this.list.upsert(entry)) this.scheduleRender();
        this.refresh({ list: true, changes: true }, EVENT_REFRESH_MS);
        break;
      }
      case 'checkpoint_restored': {
        const restored = parseCheckpointRestored(event);
        if (restored) this.invalidate(restored.id);
        this.refresh({ list: true, changes: true }, EVENT_REFRESH_MS);
        break;
      }
      case 'checkpoint_deleted': {
        const id = parseCheckpointDeleted(event);
        if (id) {
          this.invalidate(id);
          if (this.list.remove(id)) this.scheduleRender();
        }
        break;
      }
      case 'checkpoint_changes': {
        const changes = parseCheckpointChanges(event);
        if (changes && this.list.setChanges(changes.id, changes.files)) this.scheduleRender();
        break;
      }
      case 'session_changed':
        // Checkpoints belong to a session.
        if (this.list.clear()) this.scheduleRender();
        this.refresh({ list: true, changes: true });
        break;
      case 'done':
      case 'aborted':
      case 'run_cancelled':
        this.refresh({ list: true, changes: true }, EVENT_REFRESH_MS);
        break;
    }
    this.requests.observe(event);
  }

  private invalidate(id: string): void {
    const prefix = fileKey(id, '');
    for (const key of [...this.fileCache.keys()]) if (key.startsWith(prefix)) this.fileCache.delete(key);
    this.deps.invalidateDocuments(this.folder, id);
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
    const newest = this.list.newest();
    const rel = newest && this.filesSupported && this.isReady() ? this.relativePath(uri) : undefined;
    if (!newest || !rel) return undefined;
    const changes = this.list.changesOf(newest.id);
    const createdSince = changes?.some((c) => c.path === rel && c.status === 'added') ?? false;
    try {
      const content = await this.fileContent(newest.id, rel);
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
    const entries = this.list.all.slice(0, MAX_GROUPS);
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
    const filesSupported = this.filesSupported;
    entries.forEach((entry, index) => {
      const slot = this.slots[index];
      const files = this.list.changesOf(entry.id);
      const filesNote = !filesSupported ? 'files not listed by this core' : !files && index >= COMPARED_CHECKPOINTS ? 'not compared (older)' : undefined;
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
      decorations: { strikeThrough: d.strikeThrough, tooltip: d.tooltip, iconPath: new vscode.ThemeIcon(d.icon, new vscode.ThemeColor(d.color)) },
    };
    state.command = { command: CHECKPOINT_COMMANDS.openChange, title: 'Open Changes', arguments: [state] };
    this.fileRefs.set(state, { id, change });
    return state;
  }

  dispose(): void {
    this.disposed = true;
    for (const t of [this.refreshTimer, this.saveTimer, this.renderTimer]) if (t) clearTimeout(t);
    this.requests.cancelAll('the checkpoints view closed');
    this.disposeSourceControl();
    this.subscriptions.forEach((d) => d.dispose());
  }
}

function displayPlaceholder(entry: CheckpointEntry): string {
  return entry.label || entry.id;
}

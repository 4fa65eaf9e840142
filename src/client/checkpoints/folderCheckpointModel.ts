import { type CoreStatus, type SessionState, UI_CAPABILITIES } from '../../shared/sessionState';
import { errorText } from '../errorText';
import {
  parseCheckpointChanges,
  parseCheckpointDeleted,
  parseCheckpointEntry,
  parseCheckpointList,
  parseCheckpointRestored,
  type CheckpointEntry,
  type CheckpointFileChange,
  type CheckpointFileContent,
  type CheckpointRestored,
} from './checkpointEvents';
import { CheckpointList } from './checkpointList';
import { CheckpointRequests, fileKey } from './checkpointRequests';

const LIST_TIMEOUT_MS = 15_000;
const CHANGES_TIMEOUT_MS = 20_000;
const FILE_TIMEOUT_MS = 15_000;
/** Creating and restoring may walk a big tree; the core has its own time budget for automatic checkpoints. */
const WRITE_TIMEOUT_MS = 120_000;
const SAVE_DEBOUNCE_MS = 500;
const EVENT_REFRESH_MS = 250;

/** Checkpoints compared with the working tree after each refresh (the newest); older ones on demand. */
export const COMPARED_CHECKPOINTS = 20;

type CoreEvent = { type: string; [field: string]: unknown };

/** The part of the folder's session the checkpoints use; the client's SessionController satisfies it. */
export interface CheckpointSession {
  readonly state: SessionState;
  capabilities(): ReadonlySet<string>;
  onDidChange(listener: (state: SessionState) => void): { dispose(): void };
  onEvent(listener: (event: CoreEvent) => void): { dispose(): void };
  // Each sends one validated command and returns false (or nothing truthy) when it was refused.
  listCheckpoints(): unknown;
  createCheckpoint(label?: string): unknown;
  restoreCheckpoint(id: string, paths?: readonly string[]): unknown;
  deleteCheckpoint(id: string): unknown;
  checkpointChanges(id: string): unknown;
  checkpointFile(id: string, path: string): unknown;
}

/** What the model tells whoever shows it. */
export interface FolderCheckpointHooks {
  /** The folder's name, in log lines and cancellation reasons. */
  readonly folderName: string;
  warn(line: string): void;
  /** The core became ready; `supported`: it has checkpoints at all (otherwise it is never asked about them). */
  coreReady(supported: boolean): void;
  /** The list, or what is known of a checkpoint's differences, changed. */
  listChanged(): void;
  /** The checkpoint was restored or deleted: whatever was read from it is stale. */
  invalidated(id: string): void;
}

/**
 * One folder's checkpoints as its core reports them: the list and each one's differences from the working tree, kept
 * current from the core's own events, refreshed (coalesced) after turns and file changes, and the queries and actions,
 * each resolving with the core's answer. Nothing is asked before the core is ready and supports checkpoints.
 */
export class FolderCheckpointModel {
  readonly list = new CheckpointList();
  private readonly requests = new CheckpointRequests();
  private readonly fileCache = new Map<string, Promise<CheckpointFileContent>>();
  private status: CoreStatus | undefined;
  private subscriptions: { dispose(): void }[] = [];
  private pending = { list: false, changes: false };
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshDue = 0;
  private refreshing = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly session: CheckpointSession,
    private readonly hooks: FolderCheckpointHooks,
  ) {}

  /** Follows the session from now on, starting with its current status: the hooks may be called from here. */
  start(): void {
    if (this.disposed || this.subscriptions.length > 0) return;
    this.subscriptions = [
      this.session.onDidChange((state) => this.onStatus(state.core.status)),
      this.session.onEvent((event) => this.onEvent(event)),
    ];
    this.onStatus(this.session.state.core.status);
  }

  /** The core can list, compare, read and delete checkpoint files (ours; upstream's core only lists and restores). */
  get filesSupported(): boolean {
    return this.session.capabilities().has(UI_CAPABILITIES.checkpointFiles);
  }

  get supported(): boolean {
    return this.session.capabilities().has(UI_CAPABILITIES.checkpoints);
  }

  isReady(): boolean {
    return this.session.state.core.status === 'ready';
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
    if (this.list.size === 0 || !this.filesSupported) return;
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
      this.hooks.warn(`checkpoints: refreshing ${this.hooks.folderName} failed: ${errorText(err)}`);
    } finally {
      this.refreshing = false;
    }
  }

  /** Lists the checkpoints (unless `list` is false) and compares the newest with the working tree; resolves when done. */
  async reload(list = true): Promise<void> {
    // A core without checkpoints (an SCV server) is never asked about them.
    if (!this.supported) return;
    if (list) await this.requests.request('list', '', LIST_TIMEOUT_MS, () => this.isReady() && this.session.listCheckpoints());
    if (!this.filesSupported) return;
    const ids = this.list.newestIds(COMPARED_CHECKPOINTS);
    const results = await Promise.allSettled(ids.map((id) => this.fetchChanges(id)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed > 0) this.hooks.warn(`checkpoints: ${failed} of ${ids.length} comparisons failed in ${this.hooks.folderName}`);
  }

  // ── Queries and actions (each resolves with the core's answer) ─────────────

  /** How the working tree differs from the checkpoint now (also updates what the list knows of it). */
  fetchChanges(id: string): Promise<readonly CheckpointFileChange[]> {
    return this.requests
      .request('changes', id, CHANGES_TIMEOUT_MS, () => this.isReady() && this.session.checkpointChanges(id))
      .then((c) => c.files);
  }

  /** The known comparison, or a fresh one when there is none yet (undefined when the core cannot compare). */
  async changesFor(id: string, fresh = false): Promise<readonly CheckpointFileChange[] | undefined> {
    if (!this.filesSupported) return undefined;
    const known = this.list.changesOf(id);
    if (known && !fresh) return known;
    try {
      return await this.fetchChanges(id);
    } catch (err) {
      this.hooks.warn(`checkpoints: comparing ${id} failed: ${errorText(err)}`);
      return known;
    }
  }

  /** One file at the checkpoint, cached per (id, path) until the checkpoint is restored or deleted. */
  fileContent(id: string, path: string): Promise<CheckpointFileContent> {
    const key = fileKey(id, path);
    const cached = this.fileCache.get(key);
    if (cached) return cached;
    const answer = this.requests.request('file', key, FILE_TIMEOUT_MS, () => this.isReady() && this.session.checkpointFile(id, path));
    this.fileCache.set(key, answer);
    answer.catch(() => {
      if (this.fileCache.get(key) === answer) this.fileCache.delete(key);
    });
    return answer;
  }

  create(label?: string): Promise<CheckpointEntry> {
    return this.requests.request('create', '', WRITE_TIMEOUT_MS, () => this.session.createCheckpoint(label));
  }

  restore(id: string, paths?: readonly string[]): Promise<CheckpointRestored> {
    return this.requests.request('restore', id, WRITE_TIMEOUT_MS, () => this.session.restoreCheckpoint(id, paths));
  }

  delete(id: string): Promise<string> {
    return this.requests.request('delete', id, WRITE_TIMEOUT_MS, () => this.session.deleteCheckpoint(id));
  }

  dispose(): void {
    this.disposed = true;
    for (const t of [this.refreshTimer, this.saveTimer]) if (t) clearTimeout(t);
    this.requests.cancelAll('the checkpoints view closed');
    this.subscriptions.forEach((d) => d.dispose());
  }

  // ── Events ─────────────────────────────────────────────────────────────────

  private onStatus(status: CoreStatus): void {
    if (status === this.status) return;
    this.status = status;
    if (status === 'ready') {
      const supported = this.supported;
      this.hooks.coreReady(supported);
      if (supported) this.refresh({ list: true, changes: true });
    } else {
      this.requests.cancelAll(`the core for ${this.hooks.folderName} is ${status}`);
    }
  }

  private onEvent(event: CoreEvent): void {
    // Applied first, so whoever awaits an answer sees the model already updated.
    switch (event.type) {
      case 'checkpoints': {
        const entries = parseCheckpointList(event);
        if (entries && this.list.setList(entries)) this.hooks.listChanged();
        break;
      }
      case 'checkpoint_created': {
        const entry = parseCheckpointEntry(event);
        if (entry && this.list.upsert(entry)) this.hooks.listChanged();
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
          if (this.list.remove(id)) this.hooks.listChanged();
        }
        break;
      }
      case 'checkpoint_changes': {
        const changes = parseCheckpointChanges(event);
        if (changes && this.list.setChanges(changes.id, changes.files)) this.hooks.listChanged();
        break;
      }
      case 'session_changed':
        // Checkpoints belong to a session.
        if (this.list.clear()) this.hooks.listChanged();
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
    this.hooks.invalidated(id);
  }
}

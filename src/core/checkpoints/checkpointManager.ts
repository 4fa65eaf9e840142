import fs from 'node:fs';
import path from 'node:path';
import {
  compactInBackground,
  compactionSettled,
  finishCompaction,
  runningCompaction,
  stopCompaction,
  type RunningCompaction,
} from './backgroundCompaction';
import { newCheckpointId } from './checkpointId';
import { CheckpointIndex } from './checkpointIndex';
import { FILES_RESTORE_SCRATCH, filesChangedFiles, readFilesFileAt, restoreFilesSnapshot, type FilesScope } from './filesBackend';
import { detectGitWorkspace } from './gitWorkspace';
import { ownStateExclusions, toWorkspaceRelative } from './relPath';
import { abandonedScratch, removeScratchDir } from '../platform/scratchDirs';
import { repoPrivateDir, repoStore, shadowStore, type SnapshotStore } from './snapshotStore';
import { clearStaleGitLocks } from './staleGitLocks';
import {
  compactStore,
  createSnapshot,
  currentTree,
  deleteSnapshot,
  pendingCheckpointIn,
  readSnapshotFile,
  restoreSnapshot,
  scratchLocations,
  snapshotChanges,
  TREE_SCRATCH,
  type DiffPolicy,
  type PendingCheckpoint,
  type SnapshotScope,
} from './treeSnapshot';
import type { CheckpointFileChange, CheckpointRecord, RestoreResult } from './types';

export { newCheckpointId } from './checkpointId';

export const DEFAULT_MAX_CHECKPOINT_FILE_BYTES = 5 * 1024 * 1024;

/** Our record format: snapshots hold untracked files too, so a restore may remove files created since. */
export const CHECKPOINT_FORMAT = 2;

export interface CheckpointManagerOptions {
  workspace: string;
  /** JSONL, one record per line; deletions appended as {id, deleted:true}. */
  indexPath: string;
  /**
   * This workspace's private data directory (e.g. ~/.config/catalyst-code/checkpoints/<workspace hash>): the shadow
   * repository for non-git folders, the stat-cache indexes and scratch space. Managers sharing it run one at a time.
   */
  dataDir: string;
  /** Where upstream's (and our earlier) files backend kept file copies: <ws>/.catalyst-code/checkpoints. Read only. */
  filesStoreDir: string;
  /** Larger files are skipped (default 5 MiB). */
  maxFileBytes?: number;
}

export interface CreateCheckpointOptions {
  label?: string;
  /** Workspace-relative (or absolute, inside the workspace) paths; omitted or empty = the whole workspace. */
  paths?: string[];
  auto: boolean;
  runId?: string;
  /** Aborts the snapshot (git is killed, nothing is recorded). */
  signal?: AbortSignal;
}

/** Normalised scopes: [] when the whole workspace is covered. */
function normalizeScopes(workspace: string, paths: string[] | undefined): string[] {
  const rels = (paths ?? []).map((p) => toWorkspaceRelative(workspace, p));
  return rels.includes('') ? [] : [...new Set(rels)];
}

function defaultLabel(auto: boolean): string {
  return auto ? 'auto-before-destructive' : 'checkpoint';
}

/** One queue per data directory, so managers of the same workspace (the active session, a pruned one) never overlap. */
const queues = new Map<string, Promise<unknown>>();
/** Data directories whose leftovers of killed cores this process has swept (or is sweeping: first in their queue). */
const recovered = new Set<string>();

function enqueue<T>(key: string, op: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(op, op);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

export class CheckpointNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`checkpoint '${id}' not found`);
    this.name = 'CheckpointNotFoundError';
  }
}

/**
 * Filesystem checkpoints of one workspace, stored as git trees: in the user's repository (objects plus
 * refs/catcode/checkpoints/<id>) when the workspace is in a git work tree, in a private shadow repository under the
 * data directory otherwise. Either way unchanged files cost nothing per checkpoint. Operations run one at a time.
 */
export class CheckpointManager {
  private readonly workspace: string;
  private readonly index: CheckpointIndex;
  private readonly dataDir: string;
  private readonly filesStoreDir: string;
  readonly maxFileBytes: number;
  private readonly excluded: string[];
  /** Counts changedFiles requests; `reusableTree` serves those numbered up to `coversRequests`. */
  private requests = 0;
  private reusableTree: { key: string; tree: string; coversRequests: number } | undefined;

  constructor(opts: CheckpointManagerOptions) {
    this.workspace = path.resolve(opts.workspace);
    this.index = new CheckpointIndex(opts.indexPath);
    this.dataDir = path.resolve(opts.dataDir);
    this.filesStoreDir = path.resolve(opts.filesStoreDir);
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_CHECKPOINT_FILE_BYTES;
    this.excluded = ownStateExclusions(this.workspace, [opts.indexPath, opts.filesStoreDir, this.dataDir]);
  }

  /** An index inside the workspace gets a `.gitignore` of `*` beside it, keeping it out of `git status` and commits. */
  private keepIndexOutOfGit(): void {
    const dir = path.dirname(this.index.filePath);
    const rel = path.relative(this.workspace, dir);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return;
    const ignoreFile = path.join(dir, '.gitignore');
    if (fs.existsSync(ignoreFile)) return;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(ignoreFile, '# Catalyst Code checkpoints: local state, never committed\n*\n');
  }

  create(o: CreateCheckpointOptions): Promise<CheckpointRecord> {
    return this.exclusive(async () => {
      o.signal?.throwIfAborted();
      const now = new Date();
      const id = newCheckpointId(now);
      const scopes = normalizeScopes(this.workspace, o.paths);
      const label = o.label?.trim() || defaultLabel(o.auto);
      this.keepIndexOutOfGit();
      const store = await this.currentStore();
      const scope = this.scope(store, scopes, o.signal);
      const record = await createSnapshot(scope, { id, indexPath: this.index.filePath }, label, async (snap) => {
        if (o.signal?.aborted) {
          await deleteSnapshot({ ...scope, signal: undefined }, id).catch(() => undefined);
          o.signal.throwIfAborted();
        }
        const recorded: CheckpointRecord = {
          id,
          label,
          created_at: now.getTime(),
          kind: store.kind === 'repo' ? 'git' : 'files',
          head_sha: snap.head_sha,
          stash_sha: snap.commit,
          paths: scopes,
          dir: store.kind === 'shadow' ? store.gitDir : '',
          auto: o.auto,
          ...(o.runId ? { run_id: o.runId } : {}),
          format: CHECKPOINT_FORMAT,
          ...(store.kind === 'shadow' ? { store: 'shadow' as const } : {}),
          ...(snap.skipped.length ? { skipped: snap.skipped } : {}),
          max_file_bytes: this.maxFileBytes,
          tree: snap.tree,
        };
        this.index.append(recorded); // from here on the checkpoint exists
        return recorded;
      });
      this.reusableTree = undefined;
      if (store.kind === 'shadow') this.compactShadow(false);
      return record;
    });
  }

  /** Live checkpoints, oldest first. */
  list(): CheckpointRecord[] {
    return this.index.records();
  }

  /** Restores the whole checkpoint, or only `paths` (workspace-relative; one the checkpoint lacks is removed). */
  restore(id: string, paths?: string[]): Promise<RestoreResult> {
    return this.exclusive(async () => {
      const record = this.require(id);
      const only = paths && paths.length > 0 ? [...new Set(paths.map((p) => this.fileRel(p)))] : undefined;
      this.reusableTree = undefined;
      if (this.isLegacyFiles(record)) return this.restoreLegacy(record, only);
      return restoreSnapshot(await this.scopeFor(record), this.commitOf(record), this.policy(record), only);
    });
  }

  /** Brings one file back to its checkpoint state (removing it if it did not exist then). */
  async restoreFile(id: string, relPath: string): Promise<void> {
    await this.restore(id, [relPath]);
  }

  /** Removes the ref (or an old snapshot directory) and records the deletion. */
  delete(id: string): Promise<void> {
    return this.exclusive(async () => {
      await this.deleteRecord(this.require(id));
      this.reusableTree = undefined;
    });
  }

  /** Deletes every checkpoint of this index (its session is being deleted) and compacts the shadow store in full. */
  deleteAll(): Promise<number> {
    return this.exclusive(async () => {
      const records = this.index.records();
      const inShadow = records.some((r) => r.store === 'shadow');
      // A full compaction follows, which would otherwise have to wait: the running one is cut short instead.
      if (inShadow) await stopCompaction(this.dataDir);
      for (const record of records) await this.deleteRecord(record).catch(() => undefined);
      if (inShadow) this.compactShadow(true);
      return records.length;
    });
  }

  /**
   * How the working tree differs from the checkpoint. Requests made before a computation of the working tree's
   * snapshot started share its result (a client asking about many checkpoints at once costs one walk); a later
   * request always sees the working tree as of after it was made.
   */
  changedFiles(id: string): Promise<CheckpointFileChange[]> {
    const ticket = ++this.requests;
    return this.exclusive(async () => {
      const record = this.require(id);
      if (this.isLegacyFiles(record)) return filesChangedFiles(this.filesScope(record.paths), this.snapshotDir(record));
      const scope = await this.scopeFor(record);
      const key = `${scope.store.gitDir}\0${record.paths.join('\0')}`;
      let tree: string;
      const reuse = this.reusableTree;
      if (reuse && reuse.key === key && ticket <= reuse.coversRequests) {
        tree = reuse.tree;
      } else {
        const coversRequests = this.requests;
        tree = await currentTree(scope);
        this.reusableTree = { key, tree, coversRequests };
      }
      return snapshotChanges(scope, this.commitOf(record), this.policy(record), tree);
    });
  }

  /** Content at the checkpoint, null if the checkpoint has no such file. */
  readFileAt(id: string, relPath: string): Promise<Buffer | null> {
    return this.exclusive(async () => {
      const record = this.require(id);
      const rel = this.fileRel(relPath);
      if (this.isLegacyFiles(record)) return readFilesFileAt(this.snapshotDir(record), rel);
      return readSnapshotFile(await this.scopeFor(record), this.commitOf(record), rel);
    });
  }

  /** Resolves once every queued operation and the background compaction have finished. */
  async idle(): Promise<void> {
    await this.exclusive(async () => undefined);
    await compactionSettled(this.dataDir);
  }

  /** The shadow store's background compaction while its git runs (of any manager of this data directory). */
  backgroundCompaction(): RunningCompaction | undefined {
    return runningCompaction(this.dataDir);
  }

  /**
   * The core is exiting: a running compaction gets `graceMs` to finish and is stopped after that (the next one does
   * its work again); resolves once no git of it runs any more. Queued operations are not waited for.
   */
  finishBackgroundWork(graceMs: number): Promise<void> {
    return finishCompaction(this.dataDir, graceMs);
  }

  /**
   * Sweeps what cores killed half-way left in this data directory's stores (once per process, ahead of every other
   * operation on them): scratch of snapshots and restores, refs of checkpoints never recorded, and stale git locks of
   * the shadow store. Runs by itself at the first operation; a core calls it at start, so that it is done off the
   * critical path even when no checkpoint is used.
   */
  recover(): Promise<void> {
    return this.exclusive(async () => undefined);
  }

  private async recoverStores(): Promise<void> {
    const shadow = shadowStore(this.workspace, this.dataDir);
    const repo = await this.repoStoreOrUndefined().catch(() => undefined);
    const locations = [
      ...scratchLocations(shadow).map((l) => ({ ...l, store: shadow })),
      // The repo store's scratch is swept even when the workspace is no git work tree any more.
      ...(repo
        ? scratchLocations(repo).map((l) => ({ ...l, store: repo }))
        : [{ parent: repoPrivateDir(this.dataDir), prefix: TREE_SCRATCH, store: undefined }]),
      { parent: this.filesStoreDir, prefix: FILES_RESTORE_SCRATCH, store: undefined },
    ];
    for (const { parent, prefix, store } of locations) {
      for (const dir of abandonedScratch(parent, prefix)) {
        const pending = pendingCheckpointIn(dir);
        if (pending && store) await this.deleteIfUnrecorded(store, pending).catch(() => undefined);
        removeScratchDir(dir);
      }
    }
    clearStaleGitLocks(shadow.gitDir);
  }

  /** A core killed after writing a checkpoint's ref but before recording it left a ref that nothing lists. */
  private async deleteIfUnrecorded(store: SnapshotStore, pending: PendingCheckpoint): Promise<void> {
    if (new CheckpointIndex(pending.indexPath).find(pending.id)) return;
    if (store.kind === 'shadow' && !fs.existsSync(store.gitDir)) return;
    await deleteSnapshot(this.scope(store, []), pending.id);
  }

  /**
   * Packs the shadow store's loose objects (`gc --auto`: only once there are thousands; `full` after a session's
   * checkpoints were deleted) beside the queue, not in it: a first big snapshot's packing can take seconds and must not
   * hold up the next checkpoint. That is safe because the shadow store only prunes unreachable objects older than an
   * hour, and a snapshot being written refreshes the objects it reuses; a ref deletion waits (git retries for a second)
   * for the moment gc's pack-refs holds packed-refs.lock.
   */
  private compactShadow(full: boolean): void {
    const shadow = shadowStore(this.workspace, this.dataDir);
    compactInBackground(this.dataDir, full, (asFull, signal) => compactStore(this.scope(shadow, [], signal), asFull));
  }

  private async deleteRecord(record: CheckpointRecord): Promise<void> {
    if (this.isLegacyFiles(record)) {
      this.removeSnapshotDir(record);
    } else {
      const store = record.store === 'shadow' ? shadowStore(this.workspace, this.dataDir) : await this.repoStoreOrUndefined();
      if (store && (store.kind === 'repo' || fs.existsSync(store.gitDir))) await deleteSnapshot(this.scope(store, []), record.id);
    }
    this.index.append({ id: record.id, deleted: true });
  }

  private policy(record: CheckpointRecord): DiffPolicy {
    return {
      detectsAdded: record.format === CHECKPOINT_FORMAT,
      createdAt: record.created_at,
      skipped: new Set(record.skipped ?? []),
      ...(record.tree ? { tree: record.tree } : {}),
    };
  }

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    if (!recovered.has(this.dataDir)) {
      recovered.add(this.dataDir);
      void enqueue(this.dataDir, () => this.recoverStores()).catch(() => undefined);
    }
    return enqueue(this.dataDir, op);
  }

  private require(id: string): CheckpointRecord {
    const record = this.index.find(id);
    if (!record) throw new CheckpointNotFoundError(id);
    return record;
  }

  private fileRel(relPath: string): string {
    const rel = toWorkspaceRelative(this.workspace, relPath);
    if (rel === '') throw new Error('expected a file path, got the workspace itself');
    return rel;
  }

  private async repoStoreOrUndefined(): Promise<SnapshotStore | undefined> {
    const repo = await detectGitWorkspace(this.workspace);
    return repo ? repoStore(repo, this.dataDir) : undefined;
  }

  /** The user's repository when the workspace is in a git work tree, else our shadow repository. */
  private async currentStore(): Promise<SnapshotStore> {
    return (await this.repoStoreOrUndefined()) ?? shadowStore(this.workspace, this.dataDir);
  }

  private scope(store: SnapshotStore, scopes: string[], signal?: AbortSignal): SnapshotScope {
    return { store, scopes, excluded: this.excluded, maxFileBytes: this.maxFileBytes, signal };
  }

  private async scopeFor(record: CheckpointRecord): Promise<SnapshotScope> {
    if (record.store === 'shadow') return this.scope(shadowStore(this.workspace, this.dataDir), record.paths);
    const store = await this.repoStoreOrUndefined();
    if (!store) throw new Error(`checkpoint '${record.id}' was taken with git, but ${this.workspace} is no longer in a git work tree`);
    return this.scope(store, record.paths);
  }

  /** Upstream's checkpoint of a clean tree has no stash commit; its HEAD is the snapshot. */
  private commitOf(record: CheckpointRecord): string {
    const commit = record.stash_sha || record.head_sha;
    if (!commit) throw new Error(`checkpoint '${record.id}' has no snapshot commit`);
    return commit;
  }

  /** A checkpoint of the files backend that copied files (upstream's, or ours before the shadow repository). */
  private isLegacyFiles(record: CheckpointRecord): boolean {
    return record.kind === 'files' && record.store !== 'shadow';
  }

  private filesScope(scopes: string[]): FilesScope {
    return { workspace: this.workspace, scopes, excluded: this.excluded, maxFileBytes: this.maxFileBytes };
  }

  private restoreLegacy(record: CheckpointRecord, only: string[] | undefined): RestoreResult {
    const dir = this.snapshotDir(record);
    if (!only) return restoreFilesSnapshot(this.filesScope(record.paths), dir, this.filesStoreDir);
    const out: RestoreResult = { restored: [], removed: [] };
    for (const rel of only) {
      const r = restoreFilesSnapshot(this.filesScope(record.paths), dir, this.filesStoreDir, rel);
      out.restored.push(...r.restored);
      out.removed.push(...r.removed);
    }
    return out;
  }

  private snapshotDir(record: CheckpointRecord): string {
    return record.dir || path.join(this.filesStoreDir, record.id);
  }

  /** Only ever deletes inside the old store directory, whatever the index says. */
  private removeSnapshotDir(record: CheckpointRecord): void {
    const dir = path.resolve(this.snapshotDir(record));
    const rel = path.relative(this.filesStoreDir, dir);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

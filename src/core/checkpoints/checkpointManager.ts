import fs from 'node:fs';
import path from 'node:path';
import { newCheckpointId } from './checkpointId';
import { CheckpointIndex } from './checkpointIndex';
import { createFilesSnapshot, filesChangedFiles, readFilesFileAt, restoreFilesSnapshot, type FilesScope } from './filesBackend';
import {
  createGitSnapshot,
  deleteGitSnapshot,
  gitChangedFiles,
  readGitFileAt,
  restoreGitSnapshot,
  type GitScope,
} from './gitBackend';
import { detectGitWorkspace, type GitWorkspace } from './gitWorkspace';
import { ownStateExclusions, toWorkspaceRelative } from './relPath';
import type { CheckpointFileChange, CheckpointRecord, RestoreResult } from './types';

export { newCheckpointId } from './checkpointId';

export const DEFAULT_MAX_CHECKPOINT_FILE_BYTES = 5 * 1024 * 1024;

export interface CheckpointManagerOptions {
  workspace: string;
  /** JSONL, one record per line; deletions appended as {id, deleted:true}. */
  indexPath: string;
  /** Where the files backend keeps snapshots: <ws>/.catalyst-code/checkpoints */
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
}

/** Normalised scopes: [] when the whole workspace is covered. */
function normalizeScopes(workspace: string, paths: string[] | undefined): string[] {
  const rels = (paths ?? []).map((p) => toWorkspaceRelative(workspace, p));
  return rels.includes('') ? [] : [...new Set(rels)];
}

function defaultLabel(auto: boolean): string {
  return auto ? 'auto-before-destructive' : 'checkpoint';
}

/**
 * Filesystem checkpoints of one workspace: git snapshot commits under refs/catcode/checkpoints/<id>
 * when the workspace is in a git work tree, file copies otherwise. Operations run one at a time.
 */
export class CheckpointManager {
  private readonly workspace: string;
  private readonly index: CheckpointIndex;
  private readonly filesStoreDir: string;
  private readonly maxFileBytes: number;
  private readonly excluded: string[];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: CheckpointManagerOptions) {
    this.workspace = path.resolve(opts.workspace);
    this.index = new CheckpointIndex(opts.indexPath);
    this.filesStoreDir = path.resolve(opts.filesStoreDir);
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_CHECKPOINT_FILE_BYTES;
    this.excluded = ownStateExclusions(this.workspace, [opts.indexPath, opts.filesStoreDir]);
  }

  /**
   * The store lives in the user's workspace; a `.gitignore` of `*` inside it keeps our snapshots and index out of
   * `git status` and out of the user's commits.
   */
  private keepStoreOutOfGit(): void {
    const ignoreFile = path.join(this.filesStoreDir, '.gitignore');
    if (fs.existsSync(ignoreFile)) return;
    fs.mkdirSync(this.filesStoreDir, { recursive: true });
    fs.writeFileSync(ignoreFile, '# Catalyst Code checkpoints: local state, never committed\n*\n');
  }

  create(o: CreateCheckpointOptions): Promise<CheckpointRecord> {
    return this.exclusive(async () => {
      const now = new Date();
      const id = newCheckpointId(now);
      const scopes = normalizeScopes(this.workspace, o.paths);
      const label = o.label?.trim() || defaultLabel(o.auto);
      this.keepStoreOutOfGit();
      const repo = await detectGitWorkspace(this.workspace);
      const backend = repo
        ? { kind: 'git' as const, dir: '', ...(await createGitSnapshot(this.gitScope(repo, scopes), id, label)) }
        : { kind: 'files' as const, head_sha: '', stash_sha: '', dir: this.createFiles(id, scopes) };
      const record: CheckpointRecord = {
        id,
        label,
        created_at: now.getTime(),
        kind: backend.kind,
        head_sha: backend.head_sha,
        stash_sha: backend.stash_sha,
        paths: scopes,
        dir: backend.dir,
        auto: o.auto,
        ...(o.runId ? { run_id: o.runId } : {}),
      };
      this.index.append(record);
      return record;
    });
  }

  /** Live checkpoints, oldest first. */
  list(): CheckpointRecord[] {
    return this.index.records();
  }

  restore(id: string): Promise<RestoreResult> {
    return this.exclusive(() => this.restoreRecord(this.require(id)));
  }

  /** Brings one file back to its checkpoint state (removing it if it did not exist then). */
  restoreFile(id: string, relPath: string): Promise<void> {
    return this.exclusive(async () => {
      await this.restoreRecord(this.require(id), this.fileRel(relPath));
    });
  }

  /** Removes the ref or snapshot directory and records the deletion. */
  delete(id: string): Promise<void> {
    return this.exclusive(async () => {
      const record = this.require(id);
      if (record.kind === 'git') {
        const repo = await detectGitWorkspace(this.workspace);
        if (repo) await deleteGitSnapshot(repo, record.id);
      } else {
        this.removeSnapshotDir(record);
      }
      this.index.append({ id, deleted: true });
    });
  }

  changedFiles(id: string): Promise<CheckpointFileChange[]> {
    return this.exclusive(async () => {
      const record = this.require(id);
      if (record.kind === 'files') return filesChangedFiles(this.filesScope(record.paths), this.snapshotDir(record));
      return gitChangedFiles(await this.gitScopeFor(record), this.commitOf(record));
    });
  }

  /** Content at the checkpoint, null if the checkpoint has no such file. */
  readFileAt(id: string, relPath: string): Promise<Buffer | null> {
    return this.exclusive(async () => {
      const record = this.require(id);
      const rel = this.fileRel(relPath);
      if (record.kind === 'files') return readFilesFileAt(this.snapshotDir(record), rel);
      return readGitFileAt(await this.gitScopeFor(record), this.commitOf(record), rel);
    });
  }

  private async restoreRecord(record: CheckpointRecord, onlyRel?: string): Promise<RestoreResult> {
    if (record.kind === 'files') {
      return restoreFilesSnapshot(this.filesScope(record.paths), this.snapshotDir(record), this.filesStoreDir, onlyRel);
    }
    return restoreGitSnapshot(await this.gitScopeFor(record), this.commitOf(record), onlyRel);
  }

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private require(id: string): CheckpointRecord {
    const record = this.index.find(id);
    if (!record) throw new Error(`checkpoint '${id}' not found`);
    return record;
  }

  private fileRel(relPath: string): string {
    const rel = toWorkspaceRelative(this.workspace, relPath);
    if (rel === '') throw new Error('expected a file path, got the workspace itself');
    return rel;
  }

  private gitScope(repo: GitWorkspace, scopes: string[]): GitScope {
    return { repo, scopes, excluded: this.excluded, maxFileBytes: this.maxFileBytes };
  }

  private async gitScopeFor(record: CheckpointRecord): Promise<GitScope> {
    const repo = await detectGitWorkspace(this.workspace);
    if (!repo) throw new Error(`checkpoint '${record.id}' was taken with git, but ${this.workspace} is no longer in a git work tree`);
    return this.gitScope(repo, record.paths);
  }

  /** Upstream's checkpoint of a clean tree has no stash commit; its HEAD is the snapshot. */
  private commitOf(record: CheckpointRecord): string {
    const commit = record.stash_sha || record.head_sha;
    if (!commit) throw new Error(`checkpoint '${record.id}' has no snapshot commit`);
    return commit;
  }

  private filesScope(scopes: string[]): FilesScope {
    return { workspace: this.workspace, scopes, excluded: this.excluded, maxFileBytes: this.maxFileBytes };
  }

  private createFiles(id: string, scopes: string[]): string {
    const dir = path.join(this.filesStoreDir, id);
    createFilesSnapshot(this.filesScope(scopes), dir);
    return dir;
  }

  private snapshotDir(record: CheckpointRecord): string {
    return record.dir || path.join(this.filesStoreDir, record.id);
  }

  /** Only ever deletes inside the store directory, whatever the index says. */
  private removeSnapshotDir(record: CheckpointRecord): void {
    const dir = path.resolve(this.snapshotDir(record));
    const rel = path.relative(this.filesStoreDir, dir);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

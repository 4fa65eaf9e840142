import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from '../platform/fileStat';
import { applyFilePlan } from './applyFilePlan';
import { enumerateWorkspace, type Enumeration } from './fileEnumeration';
import { runGit, splitNul, type GitRunOptions } from '../platform/gitRunner';
import { isWithinAnyScope, isWithinScope } from './relPath';
import { ensureShadowRepo, fullPath, SHADOW_INIT_SCRATCH, workspaceRel, type SnapshotStore } from './snapshotStore';
import type { CheckpointFileChange, RestoreResult } from './types';
import { makeScratchDir } from '../platform/scratchDirs';

export const CHECKPOINT_REF_PREFIX = 'refs/catcode/checkpoints/';

/** Snapshot commits are made without the user's identity or config, so they work in any repository. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Catalyst Code',
  GIT_AUTHOR_EMAIL: 'checkpoints@catalyst-code.invalid',
  GIT_COMMITTER_NAME: 'Catalyst Code',
  GIT_COMMITTER_EMAIL: 'checkpoints@catalyst-code.invalid',
};

const GITLINK_MODE = '160000';
const CACHE_INDEX = 'cache.index';
/** Beside cache.index: its tree and file list, valid while the index file keeps the recorded size and mtime. */
const CACHE_META = 'cache.json';

interface CacheMeta {
  tree: string;
  /** cache.index's size and mtime when this was written. */
  size: number;
  mtimeMs: number;
  /** Its entries, sorted. */
  files: string[];
}

/** What a snapshot covers. */
export interface SnapshotScope {
  store: SnapshotStore;
  /** Workspace-relative scopes; empty = the whole workspace. */
  scopes: string[];
  /** Workspace-relative paths never captured nor restored (our own state). */
  excluded: string[];
  maxFileBytes: number;
  signal?: AbortSignal;
}

export interface CreatedSnapshot {
  head_sha: string;
  commit: string;
  tree: string;
  /** Workspace-relative files left out for their size. */
  skipped: string[];
  /** Workspace-relative roots of nested repositories whose files were included. */
  nested: string[];
  files: number;
}

/** Which of a checkpoint's differences a restore may act on. */
export interface DiffPolicy {
  /** false for checkpoints that did not record untracked files (upstream's stash commits): nothing counts as added. */
  detectsAdded: boolean;
  /** Unix ms of the checkpoint: a file older than this that the checkpoint lacks was never captured, not added since. */
  createdAt: number;
  /** Workspace-relative files the checkpoint left out for their size. */
  skipped: ReadonlySet<string>;
  /** The checkpoint's tree, when recorded: an identical current tree needs no diff. */
  tree?: string;
}

/** A file the checkpoint lacks counts as added only if it is not older than the checkpoint (minus clock slack). */
export const ADDED_MTIME_SLACK_MS = 1000;

function git(s: SnapshotScope, args: string[], extra: Pick<GitRunOptions, 'env' | 'input' | 'okCodes' | 'ownGroup'> = {}) {
  return runGit(args, { ...extra, cwd: s.store.top, env: { ...s.store.env, ...extra.env }, signal: s.signal });
}

async function gitText(s: SnapshotScope, args: string[], env?: Record<string, string>): Promise<string> {
  return (await git(s, args, { env })).stdout.toString('utf8').trim();
}

/** Scratch of tree building (a temporary index) and of restores (a staging checkout), named by makeScratchDir. */
export const TREE_SCRATCH = 'tmp-';
const RESTORE_SCRATCH = 'catcode-restore-';

/** A restore stages files on the work tree's file system: in the repository's git dir, or beside the shadow store. */
function restoreScratchParent(store: SnapshotStore): string {
  return store.kind === 'repo' ? store.gitDir : store.privateDir;
}

/** Where this store's snapshots, restores and creation keep scratch: what a killed core can leave behind. */
export function scratchLocations(store: SnapshotStore): { parent: string; prefix: string }[] {
  return [
    { parent: store.privateDir, prefix: TREE_SCRATCH },
    { parent: restoreScratchParent(store), prefix: RESTORE_SCRATCH },
    ...(store.kind === 'shadow' ? [{ parent: path.dirname(store.gitDir), prefix: SHADOW_INIT_SCRATCH }] : []),
  ];
}

/**
 * In a snapshot's scratch from just before its checkpoint ref is written until the checkpoint is recorded (or given
 * up): a core killed in between leaves a ref no index lists, which the next core to open the store deletes.
 */
const PENDING_CHECKPOINT = 'checkpoint.json';

/** The checkpoint whose ref a snapshot writes, and the index that is to record it. */
export interface PendingCheckpoint {
  id: string;
  indexPath: string;
}

/** What an abandoned snapshot's scratch says about its checkpoint, if it got as far as writing the ref. */
export function pendingCheckpointIn(scratch: string): PendingCheckpoint | undefined {
  try {
    const p = JSON.parse(fs.readFileSync(path.join(scratch, PENDING_CHECKPOINT), 'utf8')) as Partial<PendingCheckpoint>;
    return typeof p.id === 'string' && typeof p.indexPath === 'string' ? { id: p.id, indexPath: p.indexPath } : undefined;
  } catch {
    return undefined;
  }
}

async function withScratch<T>(s: SnapshotScope, fn: (dir: string) => Promise<T>): Promise<T> {
  // Scratch naming a pending checkpoint is settled when a store is opened (it may have to delete a ref), not here.
  const dir = makeScratchDir(s.store.privateDir, TREE_SCRATCH, (abandoned) => pendingCheckpointIn(abandoned) !== undefined);
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Copies an index keeping its mtime: git trusts an entry's cached stat data only for files older than the index
 * file, so a fresh mtime on the copy could make a "racily clean" file look unchanged.
 */
function copyIndex(from: string, to: string): boolean {
  const st = lstatOrUndefined(from);
  if (!st?.isFile()) return false;
  fs.copyFileSync(from, to);
  fs.utimesSync(to, st.atime, st.mtime);
  return true;
}

function readCacheMeta(s: SnapshotScope): CacheMeta | undefined {
  try {
    const st = fs.statSync(path.join(s.store.privateDir, CACHE_INDEX));
    const meta = JSON.parse(fs.readFileSync(path.join(s.store.privateDir, CACHE_META), 'utf8')) as CacheMeta;
    const valid = meta.size === st.size && meta.mtimeMs === st.mtimeMs && typeof meta.tree === 'string' && Array.isArray(meta.files);
    return valid ? meta : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cached files whose stat data still match the work tree: every cache entry but those plumbing `diff-files`
 * reports (stat data differ, or deleted; it does not refresh, so a touched-but-identical file is reported too and gets
 * its entry refreshed by update-index). git applies its "racy" rule against the index file's mtime, which the copy
 * kept. Undefined when git cannot tell (the caller then checks every file).
 */
async function cleanSinceCache(s: SnapshotScope, meta: CacheMeta, env: Record<string, string>): Promise<ReadonlySet<string> | undefined> {
  try {
    const modified = new Set(splitNul((await git(s, ['diff-files', '--name-only', '-z'], { env })).stdout));
    return new Set(meta.files.filter((p) => !modified.has(p)));
  } catch (err) {
    if (s.signal?.aborted) throw err;
    return undefined;
  }
}

function sameStat(a: fs.Stats | undefined, b: fs.Stats | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

interface BuiltTree {
  tree: string;
  index: string;
  enumeration: Enumeration;
}

/**
 * The tree of what a snapshot holds now, built in `scratch/index`: seeded from our persisted stat-cache index (else the
 * user's index), entries that no longer belong removed, and every enumerated file updated — git re-reads only files
 * whose stat data changed, so an unchanged tree costs a walk and no hashing (and, when git leaves the index as it was,
 * not even a write-tree). With `write: false` the blobs of changed files are hashed but not stored (the tree may name
 * missing blobs; it is only compared, never checked out).
 */
async function buildTree(s: SnapshotScope, scratch: string, write: boolean, useCache = true): Promise<BuiltTree> {
  const index = path.join(scratch, 'index');
  fs.rmSync(index, { force: true });
  const fromCache = useCache && copyIndex(path.join(s.store.privateDir, CACHE_INDEX), index);
  const meta = fromCache ? readCacheMeta(s) : undefined;
  if (!fromCache && s.store.userIndex) copyIndex(s.store.userIndex, index);
  const env = { GIT_INDEX_FILE: index };
  const seed = lstatOrUndefined(index);
  // Listing the workspace, asking git which cached files changed, and listing the seed index run side by side.
  const clean = meta ? cleanSinceCache(s, meta, env) : undefined;
  const [enumeration, present] = await Promise.all([
    enumerateWorkspace(
      s.store,
      { scopes: s.scopes, excluded: s.excluded, maxFileBytes: s.maxFileBytes, signal: s.signal, clean },
      path.join(scratch, 'empty.index'),
    ),
    meta ? Promise.resolve(meta.files) : seed ? git(s, ['ls-files', '-z'], { env }).then((r) => splitNul(r.stdout)) : Promise.resolve([]),
  ]);
  const wanted = new Set(enumeration.files);
  const stale = [...new Set(present)].filter((p) => !wanted.has(p));
  if (stale.length > 0) await git(s, ['update-index', '--force-remove', '-z', '--stdin'], { env, input: stale.join('\0') + '\0' });
  // With a cache, only files not known clean go to git; without one, all of them (git skips stat-clean entries).
  const changed = meta && (await clean) ? enumeration.checked : enumeration.files;
  if (changed.length > 0) {
    const flags = ['--add', '--remove', '--replace', ...(write ? [] : ['--info-only'])];
    await git(s, ['update-index', ...flags, '-z', '--stdin'], { env, input: changed.join('\0') + '\0' });
  }
  // git rewrites an index only when an entry changed: an untouched cache index still describes the cached tree.
  if (meta && stale.length === 0 && sameStat(lstatOrUndefined(index), seed)) return { tree: meta.tree, index, enumeration };
  try {
    const tree = await gitText(s, ['write-tree', ...(write ? [] : ['--missing-ok'])], env);
    return { tree, index, enumeration };
  } catch (err) {
    // Objects named by a stale cache may have been pruned: start again from the user's index (or from nothing).
    if (!fromCache || s.signal?.aborted) throw err;
    dropCache(s);
    return buildTree(s, scratch, write, false);
  }
}

function toWorkspaceRels(s: SnapshotScope, fulls: string[]): string[] {
  return fulls.map((full) => workspaceRel(s.store, full)).filter((rel): rel is string => rel !== undefined);
}

/**
 * Snapshots the workspace (or its scopes) into a commit under refs/catcode/checkpoints/<id>, then has `record` record
 * it (in `indexPath`) while the scratch still says which ref is pending. The user's index, HEAD, branches and stash are
 * never written; only new objects and our refs are.
 */
export async function createSnapshot<T>(
  s: SnapshotScope,
  pending: PendingCheckpoint,
  label: string,
  record: (snap: CreatedSnapshot) => Promise<T>,
): Promise<T> {
  const id = pending.id;
  await ensureShadowRepo(s.store);
  return withScratch(s, async (scratch) => {
    const built = await buildTree(s, scratch, true);
    const head = s.store.head;
    s.signal?.throwIfAborted();
    // From here on nothing is killed halfway (a killed update-ref could leave a ref lock behind); a caller that gave
    // up meanwhile deletes the ref.
    const unabortable: SnapshotScope = { ...s, signal: undefined };
    const parent = head ? ['-p', head] : [];
    const commit = await gitText(unabortable, ['commit-tree', '--no-gpg-sign', built.tree, ...parent, '-m', label], CHECKPOINT_IDENTITY);
    // One transaction: the checkpoint's ref and, for a whole-workspace snapshot, the ref keeping the stat cache alive.
    const whole = s.scopes.length === 0;
    const updates = [`update ${CHECKPOINT_REF_PREFIX}${id} ${commit}`, ...(whole ? [`update ${s.store.cacheRef} ${commit}`] : [])];
    fs.writeFileSync(path.join(scratch, PENDING_CHECKPOINT), JSON.stringify(pending));
    await git(unabortable, ['update-ref', '--stdin'], { input: updates.join('\n') + '\n' });
    if (whole) keepCache(s, built);
    return record({
      head_sha: head,
      commit,
      tree: built.tree,
      skipped: toWorkspaceRels(s, built.enumeration.skipped),
      nested: toWorkspaceRels(s, built.enumeration.nested),
      files: built.enumeration.files.length,
    });
  });
}

/** Keeps the index of a whole-workspace snapshot as the next snapshot's stat cache (its ref keeps its objects alive). */
function keepCache(s: SnapshotScope, built: BuiltTree): void {
  const target = path.join(s.store.privateDir, CACHE_INDEX);
  try {
    fs.rmSync(path.join(s.store.privateDir, CACHE_META), { force: true });
    fs.renameSync(built.index, target);
    const st = fs.statSync(target);
    const meta: CacheMeta = { tree: built.tree, size: st.size, mtimeMs: st.mtimeMs, files: built.enumeration.files };
    const tmp = path.join(s.store.privateDir, `${CACHE_META}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(meta));
    fs.renameSync(tmp, path.join(s.store.privateDir, CACHE_META));
  } catch {
    // Only an optimisation: the next snapshot rebuilds the cache.
  }
}

function dropCache(s: SnapshotScope): void {
  for (const name of [CACHE_INDEX, CACHE_META]) fs.rmSync(path.join(s.store.privateDir, name), { force: true });
}

interface TreeDiff {
  modified: string[];
  missing: string[];
  added: string[];
}

/** `git diff-tree --raw -z` entries as full paths, gitlinks (upstream's snapshots of submodules) left out. */
function parseRawDiff(raw: string[]): { modified: string[]; missing: string[]; added: string[] } {
  const out = { modified: [] as string[], missing: [] as string[], added: [] as string[] };
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [srcMode, dstMode, , , status] = raw[i].slice(1).split(' ');
    if (srcMode === GITLINK_MODE || dstMode === GITLINK_MODE) continue;
    if (status.startsWith('D')) out.missing.push(raw[i + 1]);
    else if (status.startsWith('A')) out.added.push(raw[i + 1]);
    else out.modified.push(raw[i + 1]);
  }
  return out;
}

function narrowScopes(checkpointScopes: string[], only: string[] | undefined): string[] {
  if (only === undefined) return checkpointScopes;
  for (const rel of only) {
    if (!isWithinAnyScope(rel, checkpointScopes)) throw new Error(`${rel} is not covered by this checkpoint`);
  }
  return only;
}

/**
 * How the working tree (within `scopes`) differs from the checkpoint commit: the tree the workspace would snapshot to
 * now, compared with the checkpoint's tree. Applies the policy: a file the checkpoint lacks is "added" only if it is
 * newer than the checkpoint and was not skipped for its size; a checkpoint file still on disk but no longer
 * snapshotted (grown over the limit, newly ignored) is "modified", since a restore writes it back.
 */
async function diffAgainst(s: SnapshotScope, commit: string, policy: DiffPolicy, currentTree?: string): Promise<TreeDiff> {
  const tree = currentTree ?? (await withScratch(s, async (scratch) => (await buildTree(s, scratch, false)).tree));
  if (policy.tree && policy.tree === tree) return { modified: [], missing: [], added: [] };
  const raw = splitNul((await git(s, ['diff-tree', '-r', '-z', '--raw', '--no-renames', commit, tree])).stdout);
  const diff = parseRawDiff(raw);
  const fullScopes = s.scopes.map((rel) => fullPath(s.store, rel));
  const fullExcluded = s.excluded.map((rel) => fullPath(s.store, rel));
  const covered = (full: string) =>
    workspaceRel(s.store, full) !== undefined && isWithinAnyScope(full, fullScopes) && !fullExcluded.some((ex) => isWithinScope(full, ex));
  const onDisk = (full: string) => lstatOrUndefined(path.join(s.store.top, full));
  const modified = diff.modified.filter(covered);
  const missing: string[] = [];
  for (const full of diff.missing.filter(covered)) {
    const st = onDisk(full);
    if (st && !st.isDirectory()) modified.push(full);
    else missing.push(full);
  }
  const added = policy.detectsAdded
    ? diff.added.filter((full) => {
        if (!covered(full)) return false;
        const rel = workspaceRel(s.store, full) as string;
        const st = onDisk(full);
        return !!st && !policy.skipped.has(rel) && st.mtimeMs >= policy.createdAt - ADDED_MTIME_SLACK_MS;
      })
    : [];
  const rels = (list: string[]) => toWorkspaceRels(s, list).sort();
  return { modified: rels(modified), missing: rels(missing), added: rels(added) };
}

/** The tree the workspace would snapshot to now (objects not written), for comparing several checkpoints at once. */
export async function currentTree(s: SnapshotScope): Promise<string> {
  await ensureShadowRepo(s.store);
  return withScratch(s, async (scratch) => (await buildTree(s, scratch, false)).tree);
}

export async function snapshotChanges(
  s: SnapshotScope,
  commit: string,
  policy: DiffPolicy,
  tree?: string,
): Promise<CheckpointFileChange[]> {
  const diff = await diffAgainst(s, commit, policy, tree);
  const changes: CheckpointFileChange[] = [
    ...diff.modified.map((p) => ({ path: p, status: 'modified' as const })),
    ...diff.missing.map((p) => ({ path: p, status: 'deleted' as const })),
    ...diff.added.map((p) => ({ path: p, status: 'added' as const })),
  ];
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function assertStaged(stageDir: string, s: SnapshotScope, rels: string[]): void {
  for (const rel of rels) {
    if (!lstatOrUndefined(path.join(stageDir, fullPath(s.store, rel))))
      throw new Error(`git could not check out ${rel} from the checkpoint`);
  }
}

/**
 * Makes the working tree (within the checkpoint's scopes, or just `only`) match the checkpoint. Checkpoint versions
 * are checked out of a temporary index into a staging directory, then applyFilePlan renames them into place and
 * removes files added since; any failure rolls every step back. Files the snapshot never covers (ignored, build
 * outputs, over the size limit, nested repositories' .git) are never touched.
 */
export async function restoreSnapshot(s: SnapshotScope, commit: string, policy: DiffPolicy, only?: string[]): Promise<RestoreResult> {
  const scoped: SnapshotScope = { ...s, scopes: narrowScopes(s.scopes, only) };
  const diff = await diffAgainst(scoped, commit, policy);
  const writes = [...diff.modified, ...diff.missing];
  if (writes.length === 0 && diff.added.length === 0) return { restored: [], removed: [] };
  const scratch = makeScratchDir(restoreScratchParent(s.store), RESTORE_SCRATCH);
  try {
    const stageDir = path.join(scratch, 'stage');
    const backupDir = path.join(scratch, 'backup');
    fs.mkdirSync(backupDir);
    if (writes.length > 0) {
      const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
      await git(s, ['read-tree', commit], { env });
      await git(s, ['checkout-index', '-f', '-z', '--stdin', `--prefix=${stageDir}/`], {
        env,
        input: writes.map((rel) => fullPath(s.store, rel)).join('\0'),
      });
      assertStaged(stageDir, s, writes);
    }
    const plan = { writes: writes.map((rel) => ({ rel, source: path.join(stageDir, fullPath(s.store, rel)) })), deletes: diff.added };
    const applied = applyFilePlan(path.join(s.store.top, s.store.prefix), plan, { scratchDir: backupDir, consumeSources: true });
    return { restored: applied.written, removed: applied.removed };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The checkpoint's content of `rel` (through the store's filters, as a checkout would write it), or null. */
export async function readSnapshotFile(s: SnapshotScope, commit: string, rel: string): Promise<Buffer | null> {
  if (!isWithinAnyScope(rel, s.scopes) || s.excluded.some((ex) => isWithinScope(rel, ex)) || /[\n\r]/.test(rel)) return null;
  const spec = `${commit}:${fullPath(s.store, rel)}`;
  const check = await git(s, ['cat-file', '--batch-check=%(objecttype)'], { input: spec + '\n' });
  if (check.stdout.toString('utf8').trim() !== 'blob') return null;
  return (await git(s, ['cat-file', '--filters', spec])).stdout;
}

export async function deleteSnapshot(s: SnapshotScope, id: string): Promise<void> {
  await git(s, ['update-ref', '-d', CHECKPOINT_REF_PREFIX + id]);
}

/** How long a stopped `git gc` gets to clean up after SIGTERM before SIGKILL. */
const GC_STOP_GRACE_MS = 500;

/**
 * The shadow store packs loose objects once there are many (`gc --auto`), or now with `full`; a repo store is the
 * user's. The scope's signal stops it: gc and its repack run in their own process group, which the signal ends whole.
 */
export async function compactStore(s: SnapshotScope, full = false): Promise<void> {
  if (s.store.kind !== 'shadow' || !fs.existsSync(s.store.gitDir)) return;
  // git's own detached gc would outlive every bookkeeping: the caller tracks this one.
  await git(s, ['-c', 'gc.autoDetach=false', 'gc', '--quiet', ...(full ? [] : ['--auto'])], { ownGroup: { graceMs: GC_STOP_GRACE_MS } });
}

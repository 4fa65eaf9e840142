import fs from 'node:fs';
import path from 'node:path';
import { runGit } from '../platform/gitRunner';
import type { GitWorkspace } from './gitWorkspace';
import { makeScratchDir } from '../platform/scratchDirs';

/**
 * Where snapshots of one workspace are stored and how git is pointed at them.
 *
 * - `repo`: the workspace is inside the user's git work tree; snapshot objects go into the user's object store and
 *   commits are kept under refs/catcode/checkpoints/<id>. The user's index is only ever read (copied).
 * - `shadow`: any other folder; a private bare repository under the core's data directory (GIT_DIR) with the workspace
 *   as its work tree (GIT_WORK_TREE). Nothing is written into the workspace, so no tool sees a nested repository.
 */
export interface SnapshotStore {
  kind: 'repo' | 'shadow';
  /** Work tree root; every git command runs here. */
  top: string;
  /** The workspace relative to `top`: '' or 'sub/dir/'. Snapshot trees hold top-relative paths. */
  prefix: string;
  /** The git directory holding the objects and refs. */
  gitDir: string;
  /** Extra environment for every git command of this store (GIT_DIR/GIT_WORK_TREE for the shadow). */
  env: Record<string, string>;
  /** The user's index, read to seed the stat cache and to list tracked files (repo stores only). */
  userIndex?: string;
  /** Our private directory for this store: the persisted stat-cache index and scratch space. */
  privateDir: string;
  /** The ref that keeps the persisted stat-cache index's objects reachable (one per workspace in a shared repo). */
  cacheRef: string;
  /** HEAD when the store was looked up ('' for the shadow store and for a repository without commits). */
  head: string;
}

export const SHADOW_DIR_NAME = 'shadow.git';
/** Beside the shadow store: the repository being set up, renamed into place once complete. */
export const SHADOW_INIT_SCRATCH = '.init-';

/**
 * Points at the commit whose tree matches the persisted stat-cache index, so `git gc` keeps every object the index
 * (and its cached trees) refers to. In the user's repository it is suffixed with a workspace key, since several
 * workspace folders may live in one repository.
 */
export const CACHE_REF_PREFIX = 'refs/catcode/cache';

/** The repo store's private directory: known from the data directory alone (the workspace may have left git since). */
export function repoPrivateDir(dataDir: string): string {
  return path.join(dataDir, 'repo');
}

export function repoStore(repo: GitWorkspace, dataDir: string): SnapshotStore {
  return {
    kind: 'repo',
    top: repo.top,
    prefix: repo.prefix,
    gitDir: repo.gitDir,
    env: {},
    userIndex: repo.indexFile,
    privateDir: repoPrivateDir(dataDir),
    cacheRef: `${CACHE_REF_PREFIX}/${path.basename(dataDir).replace(/[^0-9A-Za-z_-]/g, '_') || 'workspace'}`,
    head: repo.head,
  };
}

export function shadowStore(workspace: string, dataDir: string): SnapshotStore {
  const gitDir = path.join(dataDir, SHADOW_DIR_NAME);
  return {
    kind: 'shadow',
    top: workspace,
    prefix: '',
    gitDir,
    env: { GIT_DIR: gitDir, GIT_WORK_TREE: workspace },
    privateDir: path.join(dataDir, 'shadow'),
    cacheRef: CACHE_REF_PREFIX,
    head: '',
  };
}

/**
 * Settings of the shadow repository. Line endings and filters are off so a restore gives back the exact bytes;
 * automatic gc never runs from our plumbing, and `gc --auto` (run by us after creates) prunes unreachable objects
 * only after an hour, so a snapshot being written by another core process is never pruned under it.
 */
const SHADOW_CONFIG: [string, string][] = [
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  ['core.eol', 'lf'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.logAllRefUpdates', 'false'],
  ['gc.pruneExpire', '1.hour.ago'],
  ['gc.autoDetach', 'false'],
  ['gc.reflogExpire', 'now'],
  ['gc.reflogExpireUnreachable', 'now'],
  ['gc.worktreePruneExpire', 'now'],
  ['commit.gpgSign', 'false'],
];

/** Creates the shadow repository on first use (idempotent, safe against a concurrent creator). */
export async function ensureShadowRepo(store: SnapshotStore): Promise<void> {
  if (store.kind !== 'shadow' || fs.existsSync(path.join(store.gitDir, 'HEAD'))) return;
  const staging = makeScratchDir(path.dirname(store.gitDir), SHADOW_INIT_SCRATCH);
  try {
    await runGit(['init', '--bare', '-q', staging], { cwd: path.dirname(store.gitDir) });
    for (const [key, value] of SHADOW_CONFIG) await runGit(['config', key, value], { cwd: staging, env: { GIT_DIR: staging } });
    fs.writeFileSync(path.join(staging, 'description'), 'Catalyst Code checkpoints of ' + store.top + '\n');
    // Highest-precedence attributes: no end-of-line conversion, filters or encodings, so restores are byte-exact.
    fs.mkdirSync(path.join(staging, 'info'), { recursive: true });
    fs.writeFileSync(path.join(staging, 'info', 'attributes'), '* -text -filter -ident !eol !working-tree-encoding\n');
    try {
      fs.renameSync(staging, store.gitDir);
    } catch (err) {
      if (!fs.existsSync(path.join(store.gitDir, 'HEAD'))) throw err;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Full (top-relative) path of a workspace-relative path. */
export function fullPath(store: SnapshotStore, rel: string): string {
  return (store.prefix + rel).replace(/\/$/, '');
}

/** Workspace-relative path of a top-relative one, or undefined when it lies outside the workspace. */
export function workspaceRel(store: SnapshotStore, full: string): string | undefined {
  if (store.prefix === '') return full;
  return full.startsWith(store.prefix) ? full.slice(store.prefix.length) : undefined;
}

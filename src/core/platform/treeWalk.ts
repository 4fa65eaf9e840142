/**
 * The core's one way of walking a directory tree, and its skip rules. Every walk lists a folder's entries in sorted
 * (code unit) order, never follows a symlink unless asked, skips a folder it cannot read and prunes WORKSPACE_SKIPPED_DIRS at any
 * depth; a caller adds its own filters (more folder names, excluded paths, .gitignore). Three drivers over those rules,
 * for the three shapes a caller needs:
 * - `walkTree`: synchronous, depth-first, a folder's files before its subfolders' (checkpoints' snapshots, git locks)
 *   or in path order (agent files, which alone follow symlinked folders);
 * - `walkTreeAsync`: an async stream in path order, a folder's entries in turn (grep, diagnostics);
 * - `walkBreadthFirst`: asynchronous, breadth-first, folders read a batch at a time through the caller's reader (the
 *   rules walk, which caches its listings and bounds depth and folder count).
 */
import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from './fileStat';

/** What every walk of a workspace prunes at any depth: git's own data and installed dependencies. */
export const WORKSPACE_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** For a tree that is not a workspace (a git directory's refs, an agents folder): no folder is pruned by its name. */
export const NO_SKIPPED_DIRS: ReadonlySet<string> = new Set();

/** WORKSPACE_SKIPPED_DIRS and the caller's own folder names. */
export function skippingAlso(names: Iterable<string>): ReadonlySet<string> {
  return new Set([...WORKSPACE_SKIPPED_DIRS, ...names]);
}

export interface TreeWalkOptions {
  /** Folder names never descended into, at any depth: WORKSPACE_SKIPPED_DIRS or `skippingAlso(…)` for a workspace. */
  skipDirNames: ReadonlySet<string>;
  /** Relative paths (files or directories) to leave out. */
  isExcluded?: (rel: string) => boolean;
  /** Lists symlinks (never followed) along with the regular files. */
  includeSymlinks?: boolean;
  /** Stops after this many entries. */
  limit?: number;
  /** Folders deeper than this below the start are not read. */
  maxDepth?: number;
  /** 'files-first' (the default): a folder's files, then its subfolders'. 'path': a subfolder's files where it sorts. */
  order?: 'files-first' | 'path';
  /** Descends into symlinked folders too, the start among them (entries are listed under the link's path); `maxDepth` ends a loop. */
  followDirSymlinks?: boolean;
}

export interface TreeWalkResult {
  /** Relative to the root, '/'-separated, in a stable (sorted, depth-first) order. */
  files: string[];
  /** The limit was reached, so entries may be missing. */
  truncated: boolean;
}

function byName(a: fs.Dirent, b: fs.Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A folder's entries sorted by name; none when it cannot be read. */
export function readDirSorted(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort(byName);
  } catch {
    return [];
  }
}

/** A folder's entries sorted by name; undefined when it cannot be read. */
export async function readDirSortedAsync(dir: string): Promise<fs.Dirent[] | undefined> {
  try {
    return (await fs.promises.readdir(dir, { withFileTypes: true })).sort(byName);
  } catch {
    return undefined;
  }
}

function joinRel(dirRel: string, name: string): string {
  return dirRel === '' ? name : `${dirRel}/${name}`;
}

/** The files at or under `startRel` (a file or a directory; '' is `root` itself). */
export function walkTree(root: string, startRel: string, opts: TreeWalkOptions): TreeWalkResult {
  const files: string[] = [];
  const limit = opts.limit ?? Infinity;
  const maxDepth = opts.maxDepth ?? Infinity;
  const isExcluded = opts.isExcluded ?? (() => false);
  const listed = (entry: fs.Dirent | fs.Stats) => entry.isFile() || (opts.includeSymlinks === true && entry.isSymbolicLink());
  const descends = (entry: fs.Dirent, rel: string) =>
    !opts.skipDirNames.has(entry.name) &&
    (entry.isDirectory() || (opts.followDirSymlinks === true && entry.isSymbolicLink() && isDirectory(path.join(root, rel))));
  const startAbs = path.join(root, startRel);
  const start = opts.followDirSymlinks === true && isDirectory(startAbs) ? fs.statSync(startAbs) : lstatOrUndefined(startAbs);
  if (!start || isExcluded(startRel)) return { files, truncated: false };
  if (listed(start)) return { files: [startRel], truncated: false };
  if (!start.isDirectory()) return { files, truncated: false };

  /** Walks one folder; false when the limit stopped the walk. */
  const visit = (dirRel: string, depth: number): boolean => {
    const subdirs: string[] = [];
    for (const entry of readDirSorted(path.join(root, dirRel))) {
      const rel = joinRel(dirRel, entry.name);
      if (isExcluded(rel)) continue;
      if (descends(entry, rel)) {
        if (depth >= maxDepth) continue;
        if (opts.order === 'path') {
          if (!visit(rel, depth + 1)) return false;
        } else subdirs.push(rel);
      } else if (listed(entry)) {
        if (files.length >= limit) return false;
        files.push(rel);
      }
    }
    return subdirs.every((rel) => visit(rel, depth + 1));
  };
  return { files, truncated: !visit(startRel, 0) };
}

function isDirectory(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

export interface AsyncTreeWalkOptions {
  /** Folder names never descended into, at any depth. */
  skipDirNames: ReadonlySet<string>;
  /** Relative paths (files or folders) to leave out; a folder left out is not descended into. */
  isExcluded?: (rel: string, isDirectory: boolean) => boolean | Promise<boolean>;
  /** Checked before each entry: an abort ends the walk with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The regular files under the folder `dirRel` of `root` ('' for the root), relative to `root` and '/'-separated, in
 * path order: each folder's entries in turn, a subfolder's files where the subfolder sorts.
 */
export async function* walkTreeAsync(root: string, dirRel: string, opts: AsyncTreeWalkOptions): AsyncGenerator<string> {
  for (const entry of (await readDirSortedAsync(path.join(root, dirRel))) ?? []) {
    opts.signal?.throwIfAborted();
    const rel = joinRel(dirRel, entry.name);
    if (entry.isDirectory()) {
      if (opts.skipDirNames.has(entry.name) || (await opts.isExcluded?.(rel, true))) continue;
      yield* walkTreeAsync(root, rel, opts);
    } else if (entry.isFile()) {
      if (await opts.isExcluded?.(rel, false)) continue;
      yield rel;
    }
  }
}

/** A folder a breadth-first walk visits: the root's frame is the caller's, the others are made by its `visit`. */
export interface FolderFrame {
  abs: string;
}

export interface BreadthFirstOptions<F extends FolderFrame, R> {
  /** Folders read in all, at most; past it the walk stops and says it was limited. */
  maxDirs: number;
  /** Folders read at once. */
  batch: number;
  /** Reads one folder (the caller may cache); undefined when it cannot be read (the folder is passed over). */
  read: (frame: F) => Promise<R | undefined>;
  /** Handles one folder's reading, in breadth-first order; returns the subfolders to visit, in order. */
  visit: (frame: F, read: R) => F[];
}

/**
 * Visits the folders from `root` breadth-first, in the order one folder at a time would: each batch is read together,
 * then handled in order. Returns the frames of the folders read, and whether `maxDirs` cut the walk short.
 */
export async function walkBreadthFirst<F extends FolderFrame, R>(
  root: F,
  opts: BreadthFirstOptions<F, R>,
): Promise<{ visited: F[]; limited: boolean }> {
  const queue: F[] = [root];
  const visited: F[] = [];
  for (let start = 0; start < queue.length && start < opts.maxDirs;) {
    const batch = queue.slice(start, Math.min(start + opts.batch, opts.maxDirs));
    start += batch.length;
    const reads = await Promise.all(batch.map((frame) => opts.read(frame)));
    batch.forEach((frame, i) => {
      const read = reads[i];
      if (read === undefined) return;
      visited.push(frame);
      queue.push(...opts.visit(frame, read));
    });
  }
  return { visited, limited: queue.length > opts.maxDirs };
}

/**
 * Walking a directory tree synchronously: entries in sorted order, symlinks never followed, named directories pruned at
 * any depth. Unreadable directories are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from './fileStat';

export interface TreeWalkOptions {
  /** Directory names never descended into, at any depth. */
  skipDirNames: ReadonlySet<string>;
  /** Relative paths (files or directories) to leave out. */
  isExcluded?: (rel: string) => boolean;
  /** Lists symlinks (never followed) along with the regular files. */
  includeSymlinks?: boolean;
  /** Stops after this many entries. */
  limit?: number;
}

export interface TreeWalkResult {
  /** Relative to the root, '/'-separated, in a stable (sorted, depth-first) order. */
  files: string[];
  /** The limit was reached, so entries may be missing. */
  truncated: boolean;
}

function readDirSorted(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** The files at or under `startRel` (a file or a directory; '' is `root` itself). */
export function walkTree(root: string, startRel: string, opts: TreeWalkOptions): TreeWalkResult {
  const files: string[] = [];
  const limit = opts.limit ?? Infinity;
  const isExcluded = opts.isExcluded ?? (() => false);
  const listed = (entry: fs.Dirent | fs.Stats) => entry.isFile() || (opts.includeSymlinks === true && entry.isSymbolicLink());
  const start = lstatOrUndefined(path.join(root, startRel));
  if (!start || isExcluded(startRel)) return { files, truncated: false };
  if (listed(start)) return { files: [startRel], truncated: false };
  if (!start.isDirectory()) return { files, truncated: false };

  const stack = [startRel];
  while (stack.length > 0) {
    const dirRel = stack.pop() as string;
    const subdirs: string[] = [];
    for (const entry of readDirSorted(path.join(root, dirRel))) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (isExcluded(rel)) continue;
      if (entry.isDirectory()) {
        if (!opts.skipDirNames.has(entry.name)) subdirs.push(rel);
      } else if (listed(entry)) {
        if (files.length >= limit) return { files, truncated: true };
        files.push(rel);
      }
    }
    stack.push(...subdirs.reverse());
  }
  return { files, truncated: false };
}

import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from '../platform/fileStat';
import { isWithinScope } from './relPath';

/** Directory names the files backend never descends into, at any depth (as upstream). */
export const SKIPPED_DIR_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules', 'target', 'dist', '.catalyst-code', '.venv']);

export interface WalkOptions {
  /** Stop after this many files. */
  limit: number;
  /** Workspace-relative paths (files or directories) to leave out. */
  excluded: readonly string[];
}

export interface WalkResult {
  /** Workspace-relative, '/'-separated, in a stable (sorted) order. */
  files: string[];
  /** The limit was reached, so files may be missing. */
  truncated: boolean;
}

function readDirSorted(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * Regular files at or under `startRel` (a file or a directory). Symlinks are neither followed nor listed,
 * like upstream's walk, so a checkpoint never writes through a link.
 */
export function walkWorkspaceFiles(root: string, startRel: string, opts: WalkOptions): WalkResult {
  const files: string[] = [];
  const isExcluded = (rel: string) => opts.excluded.some((ex) => isWithinScope(rel, ex));
  const start = lstatOrUndefined(path.join(root, startRel));
  if (!start || isExcluded(startRel)) return { files, truncated: false };
  if (start.isFile()) return { files: [startRel], truncated: false };
  if (!start.isDirectory()) return { files, truncated: false };

  const stack = [startRel];
  while (stack.length > 0) {
    const dirRel = stack.pop() as string;
    const subdirs: string[] = [];
    for (const entry of readDirSorted(path.join(root, dirRel))) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (isExcluded(rel)) continue;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIR_NAMES.has(entry.name)) subdirs.push(rel);
      } else if (entry.isFile()) {
        if (files.length >= opts.limit) return { files, truncated: true };
        files.push(rel);
      }
    }
    stack.push(...subdirs.reverse());
  }
  return { files, truncated: false };
}

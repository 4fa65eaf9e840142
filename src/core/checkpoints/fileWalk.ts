import { skippingAlso, walkTree, type TreeWalkResult } from '../platform/treeWalk';
import { isWithinScope } from './relPath';

/** Directory names the files backend never descends into, at any depth (as upstream). */
export const SKIPPED_DIR_NAMES: ReadonlySet<string> = skippingAlso(['target', 'dist', '.catalyst-code', '.venv']);

export interface WalkOptions {
  /** Stop after this many files. */
  limit: number;
  /** Workspace-relative paths (files or directories) to leave out. */
  excluded: readonly string[];
}

export type WalkResult = TreeWalkResult;

/**
 * Regular files at or under `startRel` (a file or a directory), minus SKIPPED_DIR_NAMES and `excluded`. Symlinks are
 * neither followed nor listed, like upstream's walk, so a checkpoint never writes through a link.
 */
export function walkWorkspaceFiles(root: string, startRel: string, opts: WalkOptions): WalkResult {
  return walkTree(root, startRel, {
    skipDirNames: SKIPPED_DIR_NAMES,
    isExcluded: (rel) => opts.excluded.some((ex) => isWithinScope(rel, ex)),
    limit: opts.limit,
  });
}

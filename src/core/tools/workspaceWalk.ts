/**
 * The files grep and diagnostics search: the platform's walk of the workspace (sorted, never through a symlink, no
 * .git or node_modules), pruning what .gitignore ignores.
 */
import path from 'node:path';
import type { GitignoreRules } from './gitignoreRules';
import { toWorkspaceRelative } from '../platform/workspace';
import { walkTreeAsync, WORKSPACE_SKIPPED_DIRS } from '../platform/treeWalk';

/** Absolute paths of the regular files under `dir`, in path order. `rules` undefined: do not apply .gitignore. */
export async function* walkFiles(
  workspace: string,
  dir: string,
  rules: GitignoreRules | undefined,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const dirRel = toWorkspaceRelative(workspace, dir);
  const walk = walkTreeAsync(workspace, dirRel === '.' ? '' : dirRel, {
    skipDirNames: WORKSPACE_SKIPPED_DIRS,
    isExcluded: rules && ((rel, isDirectory) => rules.ignores(rel, isDirectory)),
    signal,
  });
  for await (const rel of walk) yield path.join(workspace, rel);
}

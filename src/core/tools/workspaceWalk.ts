/**
 * Walking the files under a directory the way grep should: sorted, skipping .git and node_modules, not following
 * symlinks (they could lead out of the workspace), and pruning what .gitignore ignores.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreRules } from './gitignoreRules';
import { toWorkspaceRelative } from '../platform/workspace';

const ALWAYS_SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** Absolute paths of the regular files under `dir`. `rules` undefined: do not apply .gitignore. */
export async function* walkFiles(
  workspace: string,
  dir: string,
  rules: GitignoreRules | undefined,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    signal.throwIfAborted();
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (ALWAYS_SKIPPED_DIRS.has(entry.name)) continue;
      if (await rules?.ignores(toWorkspaceRelative(workspace, abs), true)) continue;
      yield* walkFiles(workspace, abs, rules, signal);
    } else if (entry.isFile()) {
      if (await rules?.ignores(toWorkspaceRelative(workspace, abs), false)) continue;
      yield abs;
    }
  }
}

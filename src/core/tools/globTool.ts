/** glob: files matching a glob pattern, most recently modified first. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { guarded, succeeded, ToolInputError } from './outcome';
import { requiredString } from './toolArgs';
import { stringArgument } from './toolTargets';
import type { ToolDefinition } from './types';
import { WORKSPACE_SKIPPED_DIRS } from '../platform/treeWalk';

const MAX_RESULTS = 200;

export const globTool: ToolDefinition = {
  name: 'glob',
  kind: 'readonly',
  parallelSafe: true,
  schema: {
    name: 'glob',
    description:
      'Find files by glob pattern (e.g. "**/*.ts", "src/**/index.*") under the workspace. Returns workspace-relative ' +
      `paths, most recently modified first, at most ${MAX_RESULTS}. Skips .git and node_modules.`,
    parameters: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
  },
  targets: (args) => ({ paths: [globBase(stringArgument(args, 'pattern') ?? '')] }),
  execute: guarded('glob', async (args, ctx) => {
    const pattern = requiredString(args, 'pattern');
    if (path.isAbsolute(pattern) || pattern.startsWith('~') || pattern.split(/[\\/]/).includes('..')) {
      throw new ToolInputError('the pattern must be workspace-relative (no absolute paths, "~" or "..")');
    }
    const found = await glob(pattern, {
      cwd: ctx.workspace,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: [...WORKSPACE_SKIPPED_DIRS].map((name) => `**/${name}/**`),
    });
    ctx.signal.throwIfAborted();
    if (found.length === 0) return succeeded(`No files match ${pattern}.`);
    const newestFirst = await sortByMtimeDescending(ctx.workspace, found);
    const shown = newestFirst.slice(0, MAX_RESULTS).join('\n');
    const more =
      found.length > MAX_RESULTS
        ? `\n[${found.length} files match; showing the ${MAX_RESULTS} most recently modified — narrow the pattern]`
        : '';
    return succeeded(shown + more);
  }),
};

/**
 * The directory a glob pattern searches: its segments before the first one with a wildcard ('.' for none), so that
 * confinement refuses `../x/*` or `/etc/*` before any prompt, like a path argument.
 */
function globBase(pattern: string): string {
  const segments = pattern.split('/');
  const firstWildcard = segments.findIndex((segment) => /[*?[\]{}()!]/.test(segment));
  return (firstWildcard < 0 ? segments : segments.slice(0, firstWildcard)).join('/') || '.';
}

async function sortByMtimeDescending(workspace: string, relPaths: string[]): Promise<string[]> {
  const stamped = await Promise.all(
    relPaths.map(async (rel) => ({ rel, mtime: (await fs.stat(path.join(workspace, rel)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  stamped.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return stamped.map((entry) => entry.rel);
}

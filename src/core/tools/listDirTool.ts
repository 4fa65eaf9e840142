/** list_dir: one directory's entries, sorted, directories marked with a trailing '/'. */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { guarded, succeeded, ToolInputError } from './outcome';
import { optionalString } from './toolArgs';
import { stringArgument } from './toolTargets';
import type { ToolDefinition } from './types';
import { resolveWorkspacePath } from '../platform/workspace';

const MAX_ENTRIES = 1000;

export const listDirTool: ToolDefinition = {
  name: 'list_dir',
  kind: 'readonly',
  pathRules: true,
  parallelSafe: true,
  schema: {
    name: 'list_dir',
    description:
      'List a directory (workspace-relative path, "." for the root): one entry per line, directories end with "/". ' +
      `At most ${MAX_ENTRIES} entries.`,
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  targets: (args) => ({ paths: [stringArgument(args, 'path') || '.'] }),
  execute: guarded('list_dir', async (args, ctx) => {
    const requested = optionalString(args, 'path') || '.';
    const abs = resolveWorkspacePath(ctx.workspace, requested);
    const stats = await fs.stat(abs);
    if (!stats.isDirectory()) throw new ToolInputError(`${requested} is not a directory`);
    const entries = await fs.readdir(abs, { withFileTypes: true });
    if (entries.length === 0) return succeeded(`(${requested} is empty)`);
    const names = await Promise.all(entries.map((entry) => displayName(abs, entry)));
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const shown = names.slice(0, MAX_ENTRIES).join('\n');
    const rest = names.length - MAX_ENTRIES;
    return succeeded(rest > 0 ? `${shown}\n… ${rest} more entries not shown (${names.length} in total)` : shown);
  }),
};

/** Symlinks to directories count as directories, like `ls -F` after following them. */
async function displayName(dir: string, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (entry.isSymbolicLink()) {
    const target = await fs.stat(path.join(dir, entry.name)).catch(() => undefined);
    if (target?.isDirectory()) return `${entry.name}/`;
  }
  return entry.name;
}

/** delete: one file, symlink or EMPTY directory. A symlink itself is removed, never what it points to. */
import fs from 'node:fs/promises';
import { makeUnifiedDiff } from '../../protocol/edits';
import { readFileText } from '../platform/fileText';
import { guarded, succeeded, ToolInputError } from './outcome';
import { requiredString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { FileChange, ToolDefinition } from './types';
import { resolveWorkspaceEntry, toWorkspaceRelative } from '../platform/workspace';

export const deleteTool: ToolDefinition = {
  name: 'delete',
  kind: 'destructive',
  pathRules: true,
  worktreeUnprompted: true,
  schema: {
    name: 'delete',
    description:
      'Delete a file or an EMPTY directory (workspace-relative path). Refuses non-empty directories: delete their ' +
      'contents first. Prefer this over rm in bash.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  targets: pathArguments('path'),
  execute: guarded('delete', async (args, ctx) => {
    const requested = requiredString(args, 'path');
    const abs = resolveWorkspaceEntry(ctx.workspace, requested);
    const rel = toWorkspaceRelative(ctx.workspace, abs);
    const stats = await fs.lstat(abs);
    if (stats.isDirectory()) {
      try {
        await fs.rmdir(abs);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new ToolInputError(`${requested} is a directory that is not empty; delete its contents first`);
        }
        throw error;
      }
      return succeeded(`deleted directory ${rel}/`, { fileChanges: [{ path: rel, tool: 'delete' }] });
    }
    const change = await deletionChange(abs, rel, stats.isFile());
    await fs.unlink(abs);
    return succeeded(`deleted ${rel}`, { fileChanges: [change] });
  }),
};

/** A deleted text file's change carries its content as removals, so clients can show and restore it. */
async function deletionChange(abs: string, rel: string, isRegularFile: boolean): Promise<FileChange> {
  const file = isRegularFile ? await readFileText(abs) : undefined;
  if (file?.kind !== 'text') return { path: rel, tool: 'delete' };
  return { path: rel, unified_diff: makeUnifiedDiff(rel, file.text, ''), tool: 'delete' };
}

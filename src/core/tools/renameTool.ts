/** rename: move a file or directory within the workspace, never over an existing entry. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { guarded, succeeded, ToolInputError } from './outcome';
import { requiredString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';
import { resolveWorkspaceEntry, toWorkspaceRelative } from '../platform/workspace';

export const renameTool: ToolDefinition = {
  name: 'rename',
  kind: 'destructive',
  pathRules: true,
  worktreeUnprompted: true,
  schema: {
    name: 'rename',
    description:
      "Rename or move a file or directory inside the workspace (creates the destination's parent directories). " +
      'Refuses to overwrite an existing destination. Prefer this over mv in bash.',
    parameters: {
      type: 'object',
      properties: {
        from: { type: 'string', description: 'existing path' },
        to: { type: 'string', description: 'new path' },
      },
      required: ['from', 'to'],
    },
  },
  targets: pathArguments('from', 'to'),
  execute: guarded('rename', async (args, ctx) => {
    const from = requiredString(args, 'from');
    const to = requiredString(args, 'to');
    const source = resolveWorkspaceEntry(ctx.workspace, from);
    const destination = resolveWorkspaceEntry(ctx.workspace, to);
    if (!(await exists(source))) throw new ToolInputError(`${from} does not exist`);
    if (await exists(destination)) throw new ToolInputError(`${to} already exists; delete it first if you mean to replace it`);
    if (destination.startsWith(source + path.sep)) throw new ToolInputError(`cannot move ${from} into itself`);
    await fs.mkdir(path.dirname(destination), { recursive: true });
    await fs.rename(source, destination);
    const fromRel = toWorkspaceRelative(ctx.workspace, source);
    const toRel = toWorkspaceRelative(ctx.workspace, destination);
    return succeeded(`renamed ${fromRel} → ${toRel}`, {
      fileChanges: [
        { path: fromRel, tool: 'rename' },
        { path: toRel, tool: 'rename' },
      ],
    });
  }),
};

async function exists(abs: string): Promise<boolean> {
  return fs.lstat(abs).then(
    () => true,
    () => false,
  );
}

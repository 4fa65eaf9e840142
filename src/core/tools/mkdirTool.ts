/** mkdir: create a directory and its parents. */
import fs from 'node:fs/promises';
import { guarded, succeeded, ToolInputError } from './outcome';
import { requiredString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';
import { resolveWorkspacePath, toWorkspaceRelative } from '../platform/workspace';

export const mkdirTool: ToolDefinition = {
  name: 'mkdir',
  kind: 'destructive',
  pathRules: true,
  worktreeUnprompted: true,
  schema: {
    name: 'mkdir',
    description: 'Create a directory, with any missing parents (workspace-relative path). Prefer this over mkdir in bash.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  targets: pathArguments('path'),
  execute: guarded('mkdir', async (args, ctx) => {
    const requested = requiredString(args, 'path');
    const abs = resolveWorkspacePath(ctx.workspace, requested);
    const rel = toWorkspaceRelative(ctx.workspace, abs);
    const existing = await fs.stat(abs).catch(() => undefined);
    if (existing?.isDirectory()) return succeeded(`directory ${rel}/ already exists`);
    if (existing) throw new ToolInputError(`${requested} already exists and is not a directory`);
    await fs.mkdir(abs, { recursive: true });
    return succeeded(`created directory ${rel}/`, { fileChanges: [{ path: rel, tool: 'mkdir' }] });
  }),
};

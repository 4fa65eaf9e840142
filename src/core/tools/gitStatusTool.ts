/** git_status: the working tree's status as `git status --short --branch`, optionally for one path. */
import { pathspec, runGitTool } from './gitCommand';
import { guarded } from './outcome';
import { optionalString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';

export const gitStatusTool: ToolDefinition = {
  name: 'git_status',
  kind: 'readonly',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'git_status',
    description:
      'Show the working-tree status (staged, unstaged, untracked) as `git status --short --branch`. Optional relative `path` limits the scope. Read-only.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'optional relative path to scope the status' } } },
  },
  targets: pathArguments('path'),
  execute: guarded('git_status', (args, ctx) =>
    runGitTool(['status', '--short', '--branch', ...pathspec(optionalString(args, 'path'), ctx)], ctx),
  ),
};

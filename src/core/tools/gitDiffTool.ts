/** git_diff: unstaged changes, or staged ones with staged:true, optionally for one path. */
import { pathspec, runGitTool } from './gitCommand';
import { guarded } from './outcome';
import { optionalBoolean, optionalString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';

export const gitDiffTool: ToolDefinition = {
  name: 'git_diff',
  kind: 'readonly',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'git_diff',
    description:
      'Show unstaged changes (`git diff --no-color`) or staged changes with staged:true. Optional relative `path` scopes the diff. Read-only.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'optional relative path to scope the diff' },
        staged: { type: 'boolean', description: 'if true, show staged (--cached) changes' },
      },
    },
  },
  targets: pathArguments('path'),
  execute: guarded('git_diff', (args, ctx) => {
    const staged = optionalBoolean(args, 'staged') ? ['--staged'] : [];
    return runGitTool(['diff', '--no-color', ...staged, ...pathspec(optionalString(args, 'path'), ctx)], ctx);
  }),
};

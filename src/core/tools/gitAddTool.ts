/** git_add: stages workspace paths (`git add -- <paths>`); it changes the index, so it asks for approval. */
import { pathspecs, runGitTool } from './gitCommand';
import { guarded } from './outcome';
import type { ToolDefinition } from './types';

export const gitAddTool: ToolDefinition = {
  name: 'git_add',
  kind: 'destructive',
  deferred: true,
  schema: {
    name: 'git_add',
    description:
      'Stage files for commit (`git add -- <paths>`). Paths must be workspace-relative; absolute paths and `..` escapes are rejected. Destructive (modifies the index).',
    parameters: {
      type: 'object',
      properties: { paths: { type: 'array', items: { type: 'string' }, description: 'relative paths to stage' } },
      required: ['paths'],
    },
  },
  targets: (args) => ({ paths: Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string' && p !== '') : [] }),
  execute: guarded('git_add', (args, ctx) => runGitTool(['add', ...pathspecs(args.paths, ctx)], ctx)),
};

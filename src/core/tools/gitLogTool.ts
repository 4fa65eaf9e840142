/** git_log: recent commits as `git log --oneline -n <limit>`, optionally of one path. */
import { pathspec, runGitTool } from './gitCommand';
import { guarded } from './outcome';
import { optionalCount, optionalString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

export const gitLogTool: ToolDefinition = {
  name: 'git_log',
  kind: 'readonly',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'git_log',
    description:
      "Show recent commit history as `git log --oneline -n <limit>`. Optional relative `path` limits to a file's history. Read-only.",
    parameters: {
      type: 'object',
      properties: {
        limit: { type: 'integer', description: `max commits to show (default ${DEFAULT_LIMIT})` },
        path: { type: 'string', description: 'optional relative path to filter history' },
      },
    },
  },
  targets: pathArguments('path'),
  execute: guarded('git_log', (args, ctx) => {
    const limit = Math.min(optionalCount(args, 'limit') ?? DEFAULT_LIMIT, MAX_LIMIT);
    return runGitTool(['log', '--oneline', `-n${limit}`, ...pathspec(optionalString(args, 'path'), ctx)], ctx);
  }),
};

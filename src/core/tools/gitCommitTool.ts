/** git_commit: commits the staged changes (with all:true, every modified tracked file too); asks for approval. */
import { runGitTool } from './gitCommand';
import { guarded, ToolInputError } from './outcome';
import { optionalBoolean, requiredString } from './toolArgs';
import { noTargets } from './toolTargets';
import type { ToolDefinition } from './types';

export const gitCommitTool: ToolDefinition = {
  name: 'git_commit',
  kind: 'destructive',
  deferred: true,
  schema: {
    name: 'git_commit',
    description:
      'Create a commit (`git commit -m <message>`). By default commits only already-staged changes; pass all:true to also stage modified tracked files first (does NOT add untracked files). Destructive.',
    parameters: {
      type: 'object',
      properties: {
        message: { type: 'string', description: 'commit message' },
        all: { type: 'boolean', description: 'if true, stage modified tracked files before committing (git commit --all)' },
      },
      required: ['message'],
    },
  },
  targets: noTargets,
  execute: guarded('git_commit', (args, ctx) => {
    const message = requiredString(args, 'message', { allowEmpty: true });
    if (!message.trim()) throw new ToolInputError("'message' must not be empty");
    return runGitTool(['commit', '-m', message, ...(optionalBoolean(args, 'all') ? ['--all'] : [])], ctx);
  }),
};

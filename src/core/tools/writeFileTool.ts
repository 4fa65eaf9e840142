import { executeFileEdit } from './fileEditExecution';
import { guarded } from './outcome';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';

export const writeFileTool: ToolDefinition = {
  name: 'write_file',
  kind: 'destructive',
  pathRules: true,
  worktreeUnprompted: true,
  schema: {
    name: 'write_file',
    description:
      'Write the complete content of a file (workspace-relative path), creating parent directories and replacing ' +
      'the file if it exists. Use it for new files or full rewrites; prefer edit for targeted changes.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string', description: 'the full new file content' } },
      required: ['path', 'content'],
    },
  },
  targets: pathArguments('path'),
  execute: guarded('write_file', (args, ctx) => executeFileEdit('write_file', args, ctx)),
};

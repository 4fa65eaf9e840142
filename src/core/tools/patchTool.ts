import { executeFileEdit } from './fileEditExecution';
import { guarded } from './outcome';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';

export const patchTool: ToolDefinition = {
  name: 'patch',
  kind: 'destructive',
  pathRules: true,
  worktreeUnprompted: true,
  schema: {
    name: 'patch',
    description:
      'Apply a unified diff (@@ -a,b +c,d @@ hunks with " ", "-", "+" line prefixes) to one file. Context lines must ' +
      'match the file; drifted line numbers are tolerated. A missing file is created from "@@ -0,0" hunks. ' +
      'Good for larger multi-place changes.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        patch: { type: 'string', description: 'the unified diff' },
      },
      required: ['path', 'patch'],
    },
  },
  targets: pathArguments('path'),
  execute: guarded('patch', (args, ctx) => executeFileEdit('patch', args, ctx)),
};

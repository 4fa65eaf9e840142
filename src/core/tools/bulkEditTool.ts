/** bulk_edit: edit calls for many files in one; each file is approved, reviewed and edited like an edit of its own. */
import { SEARCH_REPLACE_EDITS_SCHEMA } from './editTool';
import { entriesOf, entryPaths, runInnerCalls } from './innerCalls';
import { guarded, ToolInputError } from './outcome';
import type { ToolDefinition } from './types';

export const bulkEditTool: ToolDefinition = {
  name: 'bulk_edit',
  kind: 'destructive',
  pathRules: true,
  deferred: true,
  gatesInnerCalls: true,
  schema: {
    name: 'bulk_edit',
    description:
      'Apply search/replace edits to many files. Each entry: {path, edits} (same shape as edit). Per-file atomic; a ' +
      'failed search fails only that file. Each file is approved on its own.',
    parameters: {
      type: 'object',
      properties: {
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              edits: SEARCH_REPLACE_EDITS_SCHEMA,
            },
            required: ['path', 'edits'],
          },
        },
      },
      required: ['edits'],
    },
  },
  targets: (args) => ({ paths: entryPaths(args, 'edits') }),
  execute: guarded('bulk_edit', (args, ctx) => {
    const calls = entriesOf(args, 'edits', ({ path, edits }, i) => {
      if (typeof path !== 'string' || !path || !Array.isArray(edits)) throw new ToolInputError(`edits[${i}] must be {path, edits:[…]}`);
      return { name: 'edit', args: { path, edits }, label: path };
    });
    return runInnerCalls('bulk_edit', calls, ctx);
  }),
};

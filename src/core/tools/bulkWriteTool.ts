/** bulk_write: many write_file calls in one; each file is approved, reviewed and written like a write_file of its own. */
import { entriesOf, entryPaths, runInnerCalls } from './innerCalls';
import { guarded, ToolInputError } from './outcome';
import type { ToolDefinition } from './types';

export const bulkWriteTool: ToolDefinition = {
  name: 'bulk_write',
  kind: 'destructive',
  pathRules: true,
  deferred: true,
  gatesInnerCalls: true,
  schema: {
    name: 'bulk_write',
    description:
      'Write many files in one call. Each entry is {path, content}; parents are created and existing files are ' +
      'overwritten, exactly like write_file (each file is approved on its own). Returns one line per file.',
    parameters: {
      type: 'object',
      properties: {
        files: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
        },
      },
      required: ['files'],
    },
  },
  targets: (args) => ({ paths: entryPaths(args, 'files') }),
  execute: guarded('bulk_write', (args, ctx) => {
    const calls = entriesOf(args, 'files', ({ path, content }, i) => {
      if (typeof path !== 'string' || !path || typeof content !== 'string')
        throw new ToolInputError(`files[${i}] must be {path, content} with string values`);
      return { name: 'write_file', args: { path, content }, label: path };
    });
    return runInnerCalls('bulk_write', calls, ctx);
  }),
};

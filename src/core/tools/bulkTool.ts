/** bulk: several independent tool calls in one round-trip; each goes through the approval gate as a call of its own. */
import { entriesOf, runInnerCalls } from './innerCalls';
import { guarded, ToolInputError } from './outcome';
import { noTargets } from './toolTargets';
import type { ToolDefinition } from './types';

/** Upstream's list; fetch and web_search are not in this core, so the gate answers them as unknown tools. */
const INNER_TOOLS = [
  'read_file',
  'write_file',
  'edit',
  'list_dir',
  'grep',
  'glob',
  'bash',
  'fetch',
  'web_search',
  'delete',
  'rename',
  'mkdir',
];

export const bulkTool: ToolDefinition = {
  name: 'bulk',
  kind: 'destructive',
  deferred: true,
  gatesInnerCalls: true,
  schema: {
    name: 'bulk',
    description:
      'Batch several independent tool calls in one round-trip (each is approved on its own, like a direct call). Do ' +
      'not wrap a single call. Avoid long quote-heavy commands inside bulk JSON — write a script instead.',
    parameters: {
      type: 'object',
      properties: {
        calls: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string', enum: INNER_TOOLS }, args: { type: 'object' } },
            required: ['name', 'args'],
          },
        },
      },
      required: ['calls'],
    },
  },
  targets: noTargets,
  execute: guarded('bulk', (args, ctx) => {
    const calls = entriesOf(args, 'calls', ({ name, args: inner }, i) => {
      if (typeof name !== 'string' || !INNER_TOOLS.includes(name))
        throw new ToolInputError(`calls[${i}].name must be one of ${INNER_TOOLS.join(', ')}`);
      if (typeof inner !== 'object' || inner === null || Array.isArray(inner))
        throw new ToolInputError(`calls[${i}].args must be an object`);
      return { name, args: inner as Record<string, unknown>, label: `${i + 1}. ${name}` };
    });
    return runInnerCalls('bulk', calls, ctx);
  }),
};

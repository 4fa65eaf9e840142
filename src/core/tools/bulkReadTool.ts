/** bulk_read: many read_file calls in one; each file comes as a headed block, a file's error inline in its block. */
import { guarded, ToolInputError } from './outcome';
import { readFileTool } from './readFileTool';
import type { ToolDefinition } from './types';

export const bulkReadTool: ToolDefinition = {
  name: 'bulk_read',
  kind: 'readonly',
  pathRules: true,
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'bulk_read',
    description:
      'Read many files in one call. Returns each file as a headed block with its plain content (same format as ' +
      'read_file). Paths are relative to the workspace root. Per-file errors are reported inline rather than failing the whole call.',
    parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'] },
  },
  targets: (args) => ({ paths: Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string' && p !== '') : [] }),
  execute: guarded('bulk_read', async (args, ctx) => {
    const { paths } = args;
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string')) {
      throw new ToolInputError("'paths' is required and must be a non-empty array of paths");
    }
    const blocks: string[] = [];
    for (const path of paths as string[]) {
      const outcome = await readFileTool.execute({ path }, ctx);
      blocks.push(`==> ${path} <==\n${outcome.ok ? outcome.output : `[error] ${outcome.output}`}`);
    }
    return { ok: true, output: blocks.join('\n\n'), status: 'success', fileChanges: [] };
  }),
};

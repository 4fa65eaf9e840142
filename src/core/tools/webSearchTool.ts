/**
 * web_search over Exa or Tavily (upstream's deferred, read-only tool; research §9.2). It is offered to the model only
 * while a search key is set (WebAccess.withheldTools); called without one, it fails in upstream's words.
 */
import { webSearch } from '../web/webSearch';
import { failed, guarded, succeeded } from './outcome';
import { subjectArgument } from './toolTargets';
import type { ToolDefinition } from './types';

export const webSearchTool: ToolDefinition = {
  name: 'web_search',
  kind: 'readonly',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'web_search',
    description: 'Search the web (Exa or Tavily) and return the top results: title, URL and a snippet each. Use fetch to read a page.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'what to search for' },
        count: { type: 'integer', description: 'number of results, 1-20 (default 8)' },
        region: { type: 'string', description: 'region hint such as "us-en" (unused by the search APIs)' },
      },
      required: ['query'],
    },
  },
  targets: subjectArgument('query'),
  execute: guarded('web_search', async (args, ctx) => {
    const query = typeof args.query === 'string' ? args.query : '';
    if (!query.trim()) return failed("web_search requires a non-empty 'query'");
    if (!ctx.web) return failed('web_search: this core was started without web access');
    const result = await webSearch(query, resultCount(args.count), ctx.web, ctx.signal);
    if (ctx.signal.aborted) return failed('web_search: cancelled', 'cancelled');
    return result.ok ? succeeded(result.output) : failed(result.output);
  }),
};

/** Upstream's `count`: an integer, default 8, clamped to 1..20. */
function resultCount(value: unknown): number {
  const n = typeof value === 'number' && Number.isInteger(value) ? value : 8;
  return Math.min(20, Math.max(1, n));
}

/** fetch: GET an http(s) URL and read it as text (upstream's deferred, destructive, parallel-safe tool; research §9.1). */
import { fetchPage } from '../web/fetchPage';
import { failed, guarded, succeeded } from './outcome';
import { subjectArgument } from './toolTargets';
import type { ToolDefinition } from './types';

export const fetchTool: ToolDefinition = {
  name: 'fetch',
  kind: 'destructive',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'fetch',
    description:
      'HTTP GET an absolute http(s) URL and return its text (HTML is turned into readable text; scripts and styles are ' +
      'dropped). The first line is `HTTP <status>  <content-type>`. Loopback and private hosts are refused unless the ' +
      'user allowlisted them (fetch_allowlist). Output is capped at 24 KiB.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'absolute http(s) URL' },
        raw: { type: 'boolean', description: 'return the body as is, without the HTML-to-text conversion' },
      },
      required: ['url'],
    },
  },
  targets: subjectArgument('url'),
  execute: guarded('fetch', async (args, ctx) => {
    const url = typeof args.url === 'string' ? args.url : '';
    if (!url) return failed("fetch requires a 'url'");
    if (!ctx.web) return failed('fetch: this core was started without web access');
    const result = await fetchPage(url, args.raw === true, ctx.web, ctx.signal);
    if (ctx.signal.aborted) return failed('fetch: cancelled', 'cancelled');
    return result.ok ? succeeded(result.output) : failed(result.output);
  }),
};

/**
 * Exa and Tavily: upstream's request bodies and headers, how their answers become hits, and which status codes park a
 * provider in a cooldown (research §9.2).
 */
import type { SearchProvider } from '../../protocol';

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchBackend {
  provider: SearchProvider;
  /** "Exa": the prefix of its attempt lines. */
  name: string;
  /** "Exa API": the backend label of the output. */
  label: string;
  headers(key: string): Record<string, string>;
  body(query: string, count: number): object;
  /** The hits of a 2xx answer, at most `count`. */
  parse(doc: unknown, count: number): SearchHit[];
  /** A cooldown (seconds) and its reason for a status code, or undefined. */
  cooldown(status: number, retryAfterSecs: number): { secs: number; reason: string } | undefined;
  /** Whether a cooldown's attempt line quotes the answer's body (Exa's does, Tavily's does not). */
  quotesBodyOnCooldown: boolean;
}

export const EXA: SearchBackend = {
  provider: 'exa',
  name: 'Exa',
  label: 'Exa API',
  headers: (key) => ({ 'x-api-key': key }),
  body: (query, count) => ({ query, numResults: count, type: 'auto', contents: { text: { maxCharacters: 300 } } }),
  parse: (doc, count) => hitsOf(doc, 'text', count),
  cooldown: (status, retryAfter) =>
    status === 429
      ? { secs: Math.max(retryAfter, 30), reason: 'rate-limited' }
      : status === 401 || status === 403
        ? { secs: 60, reason: 'auth error' }
        : status === 402
          ? { secs: 3600, reason: 'payment required / quota' }
          : undefined,
  quotesBodyOnCooldown: true,
};

export const TAVILY: SearchBackend = {
  provider: 'tavily',
  name: 'Tavily',
  label: 'Tavily API',
  headers: (key) => ({ authorization: `Bearer ${key}` }),
  body: (query, count) => ({
    query,
    search_depth: 'basic',
    max_results: count,
    topic: 'general',
    include_answer: false,
    include_raw_content: false,
    include_usage: true,
  }),
  parse: (doc, count) => hitsOf(doc, 'content', count),
  cooldown: (status, retryAfter) =>
    status === 429
      ? { secs: Math.max(retryAfter, 30), reason: 'rate-limited' }
      : status === 401 || status === 403
        ? { secs: 60, reason: 'auth error' }
        : status === 432 || status === 433
          ? { secs: 3600, reason: 'plan quota exhausted' }
          : undefined,
  quotesBodyOnCooldown: false,
};

export const SEARCH_BACKENDS: Readonly<Record<SearchProvider, SearchBackend>> = { exa: EXA, tavily: TAVILY };

/** `results[].{title, url, <snippetField>}`; entries without an http URL or a title are dropped. */
function hitsOf(doc: unknown, snippetField: string, count: number): SearchHit[] {
  const results = (doc as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  const hits: SearchHit[] = [];
  for (const r of results as Record<string, unknown>[]) {
    const text = (key: string) => (typeof r?.[key] === 'string' ? (r[key] as string).trim() : '');
    const url = text('url');
    const title = text('title');
    if (!url.startsWith('http') || !title) continue;
    hits.push({ title, url, snippet: text(snippetField) });
    if (hits.length >= count) break;
  }
  return hits;
}

/** A `retry-after` in delta-seconds, else upstream's 60. */
export function retryAfterSecs(header: string | string[] | undefined): number {
  const n = Number(String(header ?? '').trim());
  return header !== undefined && Number.isInteger(n) && n >= 0 ? n : 60;
}

/**
 * web_search over the search APIs that have a key: round-robin between Exa and Tavily, a cooldown after a rate-limit,
 * auth or quota answer, the other provider tried next; upstream's output and messages (research §9.2). This core has no
 * scrape fallbacks (SearXNG, DuckDuckGo, Mojeek) and keeps no monthly quota file.
 */
import type { SearchProvider } from '../../protocol';
import { scrubText } from '../runtime/redact';
import { hostRefusal, parseHttpUrl } from './hostPolicy';
import { webRequest, WebRequestError } from './httpClient';
import { capBytes } from './outputCap';
import { retryAfterSecs, SEARCH_BACKENDS, type SearchBackend, type SearchHit } from './searchBackends';
import { SEARCH_PROVIDERS, searchKeyEnvVar } from './searchKeys';
import type { WebAccess } from './webAccess';

export interface WebSearchResult {
  ok: boolean;
  output: string;
}

type Attempt = { kind: 'hits'; hits: SearchHit[] } | { kind: 'empty' } | { kind: 'failed'; message: string };

export async function webSearch(query: string, count: number, web: WebAccess, signal: AbortSignal): Promise<WebSearchResult> {
  if (web.policy.noNetwork && web.policy.allowlist.length === 0) return { ok: false, output: hostRefusal('web_search', '', web.policy)! };
  const failures: string[] = [];
  for (const provider of web.backends.order(usableProviders(web, failures))) {
    const backend = SEARCH_BACKENDS[provider];
    const attempt = await searchOnce(backend, query, count, web, signal);
    if (attempt.kind === 'hits') return { ok: true, output: renderHits(query, backend.label, attempt.hits) };
    if (attempt.kind === 'empty') return { ok: true, output: `No results found for ${JSON.stringify(query)} on ${backend.label}.` };
    failures.push(attempt.message);
    if (signal.aborted) break;
  }
  return {
    ok: false,
    output:
      'web_search: all backends failed; retry later or use the `fetch` tool against a specific URL. ' +
      `query was ${JSON.stringify(query)}. attempts: ${failures.join(' | ')}`,
  };
}

/** Providers with a key and no cooldown, in upstream's priority order; why each other one is left out goes to `failures`. */
function usableProviders(web: WebAccess, failures: string[]): SearchProvider[] {
  return SEARCH_PROVIDERS.filter((provider) => {
    const name = SEARCH_BACKENDS[provider].name;
    if (!web.keys.has(provider)) {
      failures.push(`${name}: no API key (set ${searchKeyEnvVar(provider)} or send set_search_key)`);
      return false;
    }
    const left = web.backends.cooldownLeft(provider);
    if (left > 0) failures.push(`${name}: cooling down after a rate-limit, auth or quota answer (${left}s left)`);
    return left === 0;
  });
}

async function searchOnce(backend: SearchBackend, query: string, count: number, web: WebAccess, signal: AbortSignal): Promise<Attempt> {
  const fail = (message: string): Attempt => ({ kind: 'failed', message: `${backend.name}: ${message}` });
  const target = parseHttpUrl(web.endpoint(backend.provider));
  if (!target) return fail(`skipped (web_search: url must be an absolute http(s) URL)`);
  const refusal = hostRefusal('web_search', target.host, web.policy);
  if (refusal) return fail(`skipped (${refusal})`);
  const key = web.keys.get(backend.provider)!;
  let response;
  try {
    response = await webRequest({
      method: 'POST',
      target,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...backend.headers(key) },
      body: JSON.stringify(backend.body(query, count)),
      label: 'web_search',
      policy: web.policy,
      timeoutMs: web.timeoutMs,
      maxBytes: Math.max(web.maxBytes, 64 * 1024),
      signal,
      followRedirects: false,
    });
  } catch (err) {
    return fail(err instanceof WebRequestError ? err.message : `request failed: ${(err as Error).message}`);
  }
  // An error answer may quote the key it refused; the model must not read it (the event sink scrubs only what it emits).
  const text = scrubText(response.body.toString('utf8'), [key]);
  const cooldown = backend.cooldown(response.status, retryAfterSecs(response.headers['retry-after']));
  if (cooldown) {
    web.backends.coolDown(backend.provider, cooldown.secs);
    const quoted = backend.quotesBodyOnCooldown ? `: ${clip(text, 120)}` : '';
    return fail(`${cooldown.reason} (HTTP ${response.status})${quoted}`);
  }
  if (response.status < 200 || response.status >= 300) return fail(`HTTP ${response.statusText}: ${clip(text, 200)}`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return fail(`JSON parse failed: ${(err as Error).message}`);
  }
  const hits = backend.parse(doc, count);
  return hits.length > 0 ? { kind: 'hits', hits } : { kind: 'empty' };
}

/** Upstream's `render_hits`, without its monthly usage note (this core keeps no quota file). */
export function renderHits(query: string, label: string, hits: readonly SearchHit[]): string {
  const lines = [`Search: ${query}  (${label}, ${hits.length} hit(s))`, ''];
  hits.forEach((hit, i) => lines.push(`${i + 1}. ${hit.title}`, `   ${hit.url}`, `   ${hit.snippet}`, ''));
  return capBytes(`${lines.join('\n')}\n`);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}

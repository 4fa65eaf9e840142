import { cancelledError } from './backoff';
import { endpointUrl, providerHeaders } from './endpoint';
import { httpStatusError } from './httpFailure';
import { asRecord, asString } from './jsonValue';
import { parseModelList } from './modelList';
import { MODELS_CACHE_TTL_MS, readCachedModels, writeCachedModels } from './modelsCache';
import { errorBodyExcerpt, providerSecrets, redactSecrets } from './redact';
import { ProviderError, type ModelInfoLite, type ResolvedProvider } from './types';

export type { ModelInfoLite } from './types';

export interface DiscoverModelsOptions {
  signal?: AbortSignal;
  /** Where to cache the lists (upstream's models-cache.json layout); no caching without it. */
  cacheFile?: string;
  ttlMs?: number;
  /** Skip a fresh cache and ask the server (a failure still falls back to the stale cache). */
  force?: boolean;
}

const MODELS_REQUEST_TIMEOUT_MS = 15_000;
/** Anthropic pages its list (20 per page by default); this bounds how many pages are followed. */
const MAX_PAGES = 10;

/**
 * GET {baseUrl}/models (or the provider's modelsEndpoint) → the provider's models. A fresh cache entry answers
 * without a request; on failure (or an empty list) a stale entry is used, else the failure is thrown as a
 * ProviderError.
 */
export async function discoverModels(provider: ResolvedProvider, opts: DiscoverModelsOptions = {}): Promise<ModelInfoLite[]> {
  const cached = opts.cacheFile ? readCachedModels(opts.cacheFile, provider) : undefined;
  const ttlMs = opts.ttlMs ?? MODELS_CACHE_TTL_MS;
  if (cached && !opts.force && Date.now() - cached.updatedAtMs <= ttlMs) return cached.models;
  let live: ModelInfoLite[];
  try {
    live = await fetchModels(provider, opts.signal);
  } catch (error) {
    if (opts.signal?.aborted || !cached) throw error;
    return cached.models;
  }
  if (live.length === 0) return cached?.models ?? live;
  if (opts.cacheFile) writeCachedModels(opts.cacheFile, provider, live);
  return live;
}

async function fetchModels(provider: ResolvedProvider, signal: AbortSignal | undefined): Promise<ModelInfoLite[]> {
  const models: ModelInfoLite[] = [];
  let url: string | undefined = firstPageUrl(provider);
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const payload = await getJson(url, provider, signal);
    models.push(...parseModelList(payload, provider.name));
    url = nextPageUrl(provider, payload);
  }
  return models;
}

function firstPageUrl(provider: ResolvedProvider): string {
  const url = endpointUrl(provider.baseUrl, provider.modelsEndpoint ?? 'models');
  return provider.kind === 'anthropic' ? withQuery(url, { limit: '1000' }) : url;
}

function nextPageUrl(provider: ResolvedProvider, payload: unknown): string | undefined {
  const record = asRecord(payload);
  const lastId = asString(record?.last_id);
  if (provider.kind !== 'anthropic' || record?.has_more !== true || !lastId) return undefined;
  return withQuery(firstPageUrl(provider), { after_id: lastId });
}

function withQuery(url: string, params: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return parsed.toString();
}

async function getJson(url: string, provider: ResolvedProvider, signal: AbortSignal | undefined): Promise<unknown> {
  const secrets = providerSecrets(provider);
  const timeout = AbortSignal.timeout(MODELS_REQUEST_TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...providerHeaders(provider) }, signal: combined });
    body = await response.text();
  } catch (error) {
    if (signal?.aborted) throw cancelledError();
    const detail = timeout.aborted ? `no answer within ${MODELS_REQUEST_TIMEOUT_MS} ms` : networkDetail(error);
    throw new ProviderError('network', `listing models of ${provider.name} failed: ${redactSecrets(detail, secrets)}`);
  }
  if (!response.ok) throw httpStatusError(provider.name, response.status, body, secrets);
  try {
    return JSON.parse(body);
  } catch {
    throw new ProviderError('bad_response', `model list of ${provider.name} is not JSON: ${errorBodyExcerpt(body, secrets)}`);
  }
}

function networkDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}

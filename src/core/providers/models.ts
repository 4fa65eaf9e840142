import { cancelledError } from './backoff';
import { endpointUrl, providerHeaders } from './endpoint';
import { withRequestAuth } from './requestAuth';
import { httpStatusError } from './httpFailure';
import { asRecord, asString } from './jsonValue';
import { parseModelList } from './modelList';
import { parseModelsInfo } from './modelsInfo';
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
  /** The built-in list answered when neither the server nor the cache has one (see builtInModels.ts). */
  fallback?: readonly ModelInfoLite[];
}

const MODELS_REQUEST_TIMEOUT_MS = 15_000;
/** Upstream gives the Umans-only /models/info probe less time than the list itself. */
const MODELS_INFO_TIMEOUT_MS = 5_000;
/** Anthropic pages its list (20 per page by default); this bounds how many pages are followed. */
const MAX_PAGES = 10;

/**
 * The provider's models, in upstream's order: a fresh cache entry answers without a request; else an OpenAI-kind
 * provider without a modelsEndpoint is asked `GET {baseUrl}/models/info` (Umans' capabilities map), then — when that
 * fails or lists nothing — `GET {baseUrl}/models` (or its modelsEndpoint). On failure (or an empty list) a stale
 * entry is used, else the built-in `fallback`, else the failure is thrown as a ProviderError.
 */
export async function discoverModels(provider: ResolvedProvider, opts: DiscoverModelsOptions = {}): Promise<ModelInfoLite[]> {
  const cached = opts.cacheFile ? readCachedModels(opts.cacheFile, provider) : undefined;
  const ttlMs = opts.ttlMs ?? MODELS_CACHE_TTL_MS;
  if (cached && !opts.force && Date.now() - cached.updatedAtMs <= ttlMs) return cached.models;
  const standIn = cached?.models ?? (opts.fallback?.length ? [...opts.fallback] : undefined);
  let live: ModelInfoLite[];
  try {
    live = await fetchModels(provider, opts.signal);
  } catch (error) {
    if (opts.signal?.aborted || !standIn) throw error;
    return standIn;
  }
  if (live.length === 0) return standIn ?? live;
  if (opts.cacheFile) writeCachedModels(opts.cacheFile, provider, live);
  return live;
}

async function fetchModels(configured: ResolvedProvider, signal: AbortSignal | undefined): Promise<ModelInfoLite[]> {
  const provider = await withRequestAuth(configured);
  if (provider.kind === 'openai' && !provider.modelsEndpoint) {
    const rich = await fetchModelsInfo(provider, signal);
    if (rich.length > 0) return rich;
  }
  return fetchModelList(provider, signal);
}

/** Any failure of the probe (a vanilla server's 404 most often) lists nothing, so the plain list is asked next. */
async function fetchModelsInfo(provider: ResolvedProvider, signal: AbortSignal | undefined): Promise<ModelInfoLite[]> {
  try {
    return parseModelsInfo(
      await getJson(endpointUrl(provider.baseUrl, 'models/info'), provider, signal, MODELS_INFO_TIMEOUT_MS),
      provider.name,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    return [];
  }
}

async function fetchModelList(provider: ResolvedProvider, signal: AbortSignal | undefined): Promise<ModelInfoLite[]> {
  const models: ModelInfoLite[] = [];
  let url: string | undefined = firstPageUrl(provider);
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const payload = await getJson(url, provider, signal, MODELS_REQUEST_TIMEOUT_MS);
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

async function getJson(url: string, provider: ResolvedProvider, signal: AbortSignal | undefined, timeoutMs: number): Promise<unknown> {
  const secrets = providerSecrets(provider);
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...providerHeaders(provider) }, signal: combined });
    body = await response.text();
  } catch (error) {
    if (signal?.aborted) throw cancelledError();
    const detail = timeout.aborted ? `no answer within ${timeoutMs} ms` : networkDetail(error);
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

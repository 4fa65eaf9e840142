import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { asArray, asNumber, asRecord, asString, type JsonRecord } from './jsonValue';
import type { ModelInfoLite, ResolvedProvider } from './types';

/**
 * The model cache shares upstream catcode-core's file and layout (~/.config/catalyst-code/models-cache.json):
 * `{version, entries: {"<base_url>|<kind>|<models path>": {updated_at: unix seconds, models: […]}}}`.
 * A file of another version is treated as empty, as upstream does. 10 is upstream's version of this layout; entries
 * carry /models/info's vision and thinking levels since, so a list cached without them is not used.
 */
export const MODELS_CACHE_VERSION = 10;
export const MODELS_CACHE_TTL_MS = 8 * 60 * 60 * 1000;
const DEFAULT_MODELS_PATH = '/models';

export interface CachedModels {
  models: ModelInfoLite[];
  updatedAtMs: number;
}

export function modelsCacheKey(provider: ResolvedProvider): string {
  return `${provider.baseUrl.replace(/\/+$/, '')}|${provider.kind}|${provider.modelsEndpoint ?? DEFAULT_MODELS_PATH}`;
}

export function readCachedModels(cacheFile: string, provider: ResolvedProvider): CachedModels | undefined {
  const entry = asRecord(readEntries(cacheFile)[modelsCacheKey(provider)]);
  const updatedAt = asNumber(entry?.updated_at);
  const models = (asArray(entry?.models) ?? []).flatMap((raw) => cachedModel(raw, provider.name));
  if (updatedAt === undefined || models.length === 0) return undefined;
  return { models, updatedAtMs: updatedAt * 1000 };
}

/** Merges this provider's entry into the file; written to a unique temp file then renamed, so never torn. */
export function writeCachedModels(
  cacheFile: string,
  provider: ResolvedProvider,
  models: readonly ModelInfoLite[],
  nowMs = Date.now(),
): void {
  const entries = readEntries(cacheFile);
  entries[modelsCacheKey(provider)] = { updated_at: Math.floor(nowMs / 1000), models: models.map(storedModel) };
  writeFileAtomicSync(cacheFile, JSON.stringify({ version: MODELS_CACHE_VERSION, entries }), { newFileMode: 0o644 });
}

function readEntries(cacheFile: string): JsonRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(cacheFile, 'utf8'));
  } catch {
    return {};
  }
  const cache = asRecord(parsed);
  if (asNumber(cache?.version) !== MODELS_CACHE_VERSION) return {};
  return { ...asRecord(cache?.entries) };
}

function cachedModel(raw: unknown, providerName: string): ModelInfoLite[] {
  const record = asRecord(raw);
  const id = asString(record?.id);
  if (!record || !id) return [];
  const model: ModelInfoLite = { id, name: asString(record.name) || id, provider: providerName };
  const contextWindow = asNumber(record.context_window);
  const maxTokens = asNumber(record.max_tokens);
  if (contextWindow !== undefined) model.context_window = contextWindow;
  if (maxTokens !== undefined) model.max_tokens = maxTokens;
  if (typeof record.reasoning === 'boolean') model.reasoning = record.reasoning;
  const levels = asArray(record.thinking_levels);
  if (levels) model.thinking_levels = levels.filter((level): level is string => typeof level === 'string');
  if (typeof record.vision === 'boolean') model.vision = record.vision;
  return [model];
}

/** The provider is not stored: the key already names it, and a cache hit is relabelled with the caller's name. */
function storedModel(model: ModelInfoLite): JsonRecord {
  const { provider: _provider, ...stored } = model;
  return stored;
}

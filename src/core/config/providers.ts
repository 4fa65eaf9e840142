import type { ModelOverride, ModelPrice } from '../../protocol';
// Provider objects as they appear in config files, UMANS_PROVIDERS and add_custom_provider
// (research §3.3, upstream `parse_provider`), and their persisted snake_case form.
import { isJsonObject, nonEmptyString, pick, setOwn, stringArray, uintValue, type JsonObject } from '../platform/jsonValue';
import { OPENCODE_GO_ANTHROPIC_PROVIDER, OPENCODE_GO_PRESET_ID, type ProviderPresetDef } from './presets';

export type { ModelOverride } from '../../protocol';

export interface ProviderConfig {
  name: string;
  kind: 'openai' | 'anthropic';
  /** Without a trailing slash. */
  baseUrl: string;
  apiKey?: string;
  apiKeyEnv?: string;
  headers: Record<string, string>;
  contextWindow?: number;
  modelsOverride?: ModelOverride[];
  /** Path appended to baseUrl for model discovery, e.g. `/v1/models`. */
  modelsEndpoint?: string;
  /** Ours: `pricing_provider`, the models.dev provider id whose prices this endpoint bills at (a proxy of it). */
  pricingProvider?: string;
}

export type ProviderParseError = { error: string };

export function isProviderParseError(v: ProviderConfig | ProviderParseError): v is ProviderParseError {
  return 'error' in v;
}

/**
 * Accepts snake_case or camelCase keys. `kind` "anthropic"/"claude" → anthropic, anything
 * else → openai (upstream's default). `headers` may be an object or a list of `[k, v]` /
 * `{name, value}`; `models_override` an object keyed by model id or a list of `{id, …}`.
 */
export function parseProvider(raw: unknown): ProviderConfig | ProviderParseError {
  if (!isJsonObject(raw)) return { error: 'a provider must be a JSON object' };
  const name = nonEmptyString(raw.name)?.trim();
  if (!name) return { error: 'a provider needs a non-empty "name"' };
  const rawUrl = nonEmptyString(pick(raw, 'base_url', 'baseUrl'))?.trim();
  if (!rawUrl) return { error: `provider '${name}' needs a non-empty "base_url"` };
  const baseUrl = normalizeBaseUrl(rawUrl);
  if (!baseUrl) return { error: `provider '${name}': base_url must be an http(s) URL, got '${rawUrl}'` };

  const provider: ProviderConfig = { name, kind: parseKind(raw.kind), baseUrl, headers: parseHeaders(raw.headers) };
  const apiKey = nonEmptyString(pick(raw, 'api_key', 'apiKey'));
  if (apiKey) provider.apiKey = apiKey;
  const apiKeyEnv = nonEmptyString(pick(raw, 'api_key_env', 'apiKeyEnv'))?.trim();
  if (apiKeyEnv) provider.apiKeyEnv = apiKeyEnv;
  const contextWindow = uintValue(pick(raw, 'context_window', 'contextWindow'));
  if (contextWindow) provider.contextWindow = contextWindow;
  const overrides = parseModelsOverride(pick(raw, 'models_override', 'modelsOverride'));
  if (overrides.length > 0) provider.modelsOverride = overrides;
  const modelsEndpoint = nonEmptyString(pick(raw, 'models_endpoint', 'modelsEndpoint'))?.trim();
  if (modelsEndpoint) provider.modelsEndpoint = modelsEndpoint;
  const pricingProvider = nonEmptyString(pick(raw, 'pricing_provider', 'pricingProvider'))?.trim();
  if (pricingProvider) provider.pricingProvider = pricingProvider;
  return provider;
}

function normalizeBaseUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return raw.replace(/\/+$/, '');
}

function parseKind(v: unknown): 'openai' | 'anthropic' {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return s === 'anthropic' || s === 'claude' ? 'anthropic' : 'openai';
}

function parseHeaders(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isJsonObject(v)) {
    for (const [k, val] of Object.entries(v)) if (typeof val === 'string') setOwn(out, k, val);
    return out;
  }
  if (!Array.isArray(v)) return out;
  for (const entry of v) {
    if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string') {
      setOwn(out, entry[0], entry[1]);
    } else if (isJsonObject(entry) && typeof entry.name === 'string' && typeof entry.value === 'string') {
      setOwn(out, entry.name, entry.value);
    }
  }
  return out;
}

function parseModelsOverride(v: unknown): ModelOverride[] {
  const out: ModelOverride[] = [];
  if (isJsonObject(v)) {
    for (const [id, entry] of Object.entries(v)) {
      const o = parseOneOverride(id, entry);
      if (o) out.push(o);
    }
  } else if (Array.isArray(v)) {
    for (const entry of v) {
      const id = isJsonObject(entry) ? nonEmptyString(entry.id) : undefined;
      const o = id ? parseOneOverride(id, entry) : undefined;
      if (o) out.push(o);
    }
  }
  return out;
}

/** An override with no recognised field is dropped, as upstream does. */
function parseOneOverride(id: string, entry: unknown): ModelOverride | undefined {
  if (!isJsonObject(entry)) return undefined;
  const o: ModelOverride = { id };
  const contextWindow = uintValue(pick(entry, 'context_window', 'contextWindow'));
  if (contextWindow !== undefined) o.context_window = contextWindow;
  const maxTokens = uintValue(pick(entry, 'max_tokens', 'maxTokens'));
  if (maxTokens !== undefined) o.max_tokens = maxTokens;
  if (typeof entry.reasoning === 'boolean') o.reasoning = entry.reasoning;
  const levels = stringArray(pick(entry, 'thinking_levels', 'thinkingLevels'));
  if (levels) o.thinking_levels = levels;
  const cost = parsePrice(entry.cost);
  if (cost) o.cost = cost;
  return Object.keys(o).length > 1 ? o : undefined;
}

/** `cost{input, output, cache_read?, cache_write?}` in USD per million tokens; without input and output, no price. */
function parsePrice(v: unknown): ModelPrice | undefined {
  if (!isJsonObject(v)) return undefined;
  const usd = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
  const input = usd(v.input);
  const output = usd(v.output);
  if (input === undefined || output === undefined) return undefined;
  const price: ModelPrice = { input, output };
  const cacheRead = usd(pick(v, 'cache_read', 'cacheRead'));
  if (cacheRead !== undefined) price.cache_read = cacheRead;
  const cacheWrite = usd(pick(v, 'cache_write', 'cacheWrite'));
  if (cacheWrite !== undefined) price.cache_write = cacheWrite;
  return price;
}

/**
 * The provider configs a `login` to `preset` creates. With a key, the key is stored
 * literally; without one, only the name of the preset's env var is recorded. OpenCode Go
 * yields two configs sharing URL and key (see presets.ts); the first is the primary.
 */
export function providerFromPreset(preset: ProviderPresetDef, apiKey?: string): ProviderConfig[] {
  const make = (name: string, kind: 'openai' | 'anthropic'): ProviderConfig => {
    const p: ProviderConfig = { name, kind, baseUrl: preset.baseUrl, headers: {} };
    if (apiKey) p.apiKey = apiKey;
    else p.apiKeyEnv = preset.envVar;
    return p;
  };
  if (preset.id === OPENCODE_GO_PRESET_ID) {
    return [make(preset.id, 'openai'), make(OPENCODE_GO_ANTHROPIC_PROVIDER, 'anthropic')];
  }
  return [make(preset.id, preset.kind)];
}

/** The snake_case JSON persisted in config.json; only fields that are set are written. */
export function providerToJson(p: ProviderConfig): JsonObject {
  const o: JsonObject = { name: p.name, kind: p.kind, base_url: p.baseUrl };
  if (p.apiKey) o.api_key = p.apiKey;
  if (p.apiKeyEnv) o.api_key_env = p.apiKeyEnv;
  if (Object.keys(p.headers).length > 0) o.headers = { ...p.headers };
  if (p.contextWindow !== undefined) o.context_window = p.contextWindow;
  if (p.modelsOverride && p.modelsOverride.length > 0) o.models_override = p.modelsOverride.map((m) => ({ ...m }));
  if (p.modelsEndpoint) o.models_endpoint = p.modelsEndpoint;
  if (p.pricingProvider) o.pricing_provider = p.pricingProvider;
  return o;
}

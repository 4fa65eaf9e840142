// models.dev's live catalog (api.json), read for its prices and cached beside the models cache.
import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { MODELS_CACHE_TTL_MS } from '../providers/modelsCache';
import { PRICED_PROVIDER_IDS } from './pricedProviders';
import type { PriceRow, PriceTable } from './priceTypes';

export const MODELS_DEV_URL = 'https://models.dev/api.json';
const FETCH_TIMEOUT_MS = 10_000;
const CACHE_VERSION = 1;

export interface LivePriceOptions {
  url: string;
  cacheFile: string;
  /** Fetch even when the cache is fresh (`refresh_models`). */
  force?: boolean;
  nowMs?: number;
}

/**
 * The priced providers' tables from `url`, or from the cache while it is fresh (as the models cache: 8 h). Throws when
 * the fetch fails and there is no cache of that URL; a stale cache of it is used then.
 */
export async function loadLivePrices(opts: LivePriceOptions): Promise<PriceTable> {
  const now = opts.nowMs ?? Date.now();
  const cached = readCache(opts.cacheFile, opts.url);
  if (cached && !opts.force && now - cached.updatedAtMs < MODELS_CACHE_TTL_MS) return cached.table;
  try {
    const table = await fetchPrices(opts.url);
    writeCache(opts.cacheFile, opts.url, table, now);
    return table;
  } catch (err) {
    if (cached) return cached.table;
    throw err;
  }
}

async function fetchPrices(url: string): Promise<PriceTable> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const table = pricesFromCatalog(await response.json());
  if (Object.keys(table).length === 0) throw new Error(`${url} carries no prices for the providers we price`);
  return table;
}

/** models.dev's `{<provider>: {models: {<id>: {cost: {input, output, cache_read?, cache_write?}}}}}`, priced providers only. */
export function pricesFromCatalog(catalog: unknown): PriceTable {
  const table: Record<string, Record<string, PriceRow>> = {};
  if (!isRecord(catalog)) return table;
  for (const provider of PRICED_PROVIDER_IDS) {
    const models = isRecord(catalog[provider]) ? catalog[provider].models : undefined;
    if (!isRecord(models)) continue;
    const rows: Record<string, PriceRow> = {};
    for (const [id, model] of Object.entries(models)) {
      const row = isRecord(model) ? priceRowOf(model.cost) : undefined;
      if (row && id !== '__proto__') rows[id] = row;
    }
    if (Object.keys(rows).length > 0) table[provider] = rows;
  }
  return table;
}

/**
 * A models.dev `cost` as a price row; undefined without an input and an output price. A cache read priced above an
 * uncached read is a catalog error (models.dev's gpt-3.5-turbo had 1.25 against 0.5: OpenAI lists no cached price for
 * it), so it is dropped and cached tokens are priced as input, as the provider bills them.
 */
export function priceRowOf(cost: unknown): PriceRow | undefined {
  if (!isRecord(cost)) return undefined;
  const usd = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
  const input = usd(cost.input);
  const output = usd(cost.output);
  if (input === null || output === null) return undefined;
  const cacheRead = usd(cost.cache_read);
  return [input, output, cacheRead !== null && cacheRead > input ? null : cacheRead, usd(cost.cache_write)];
}

function readCache(file: string, url: string): { table: PriceTable; updatedAtMs: number } | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isRecord(parsed) || parsed.version !== CACHE_VERSION || parsed.url !== url) return undefined;
    if (typeof parsed.updated_at !== 'number') return undefined;
    // Rows are checked again, so a hand-edited cache cannot put a non-number into a cost.
    return { table: pricesFromCatalog(parsed.providers), updatedAtMs: parsed.updated_at * 1000 };
  } catch {
    return undefined;
  }
}

function writeCache(file: string, url: string, table: PriceTable, nowMs: number): void {
  const providers = Object.fromEntries(
    Object.entries(table).map(([id, rows]) => [
      id,
      {
        models: Object.fromEntries(
          Object.entries(rows).map(([m, r]) => [m, { cost: { input: r[0], output: r[1], cache_read: r[2], cache_write: r[3] } }]),
        ),
      },
    ]),
  );
  writeFileAtomicSync(file, JSON.stringify({ version: CACHE_VERSION, url, updated_at: Math.floor(nowMs / 1000), providers }), {
    newFileMode: 0o644,
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where the live prices come from: CATALYST_CODE_MODELS_DEV_URL (a mirror, a test's stand-in), else models.dev. */
export function modelsDevUrl(env: NodeJS.ProcessEnv): string {
  return env.CATALYST_CODE_MODELS_DEV_URL?.trim() || MODELS_DEV_URL;
}

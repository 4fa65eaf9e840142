import type { ModelPrice } from '../../protocol';
import type { PriceRow } from './priceTypes';

export type { ModelPrice } from '../../protocol';

/** The tokens of one model request, as the stream reported them. */
export interface RequestTokens {
  /** The whole prompt, cached and cache-written tokens included. */
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens?: number;
}

export function priceFromRow(row: PriceRow): ModelPrice {
  const price: ModelPrice = { input: row[0], output: row[1] };
  if (row[2] !== null) price.cache_read = row[2];
  if (row[3] !== null) price.cache_write = row[3];
  return price;
}

/**
 * One request's cost in USD: uncached input at the input price, cache reads at the cache-read price and cache writes at
 * the cache-write price (each falls back to the input price where none is published), output at the output price.
 */
export function requestCostUsd(price: ModelPrice, t: RequestTokens): number {
  const cached = Math.min(t.cachedTokens, t.promptTokens);
  const written = Math.min(t.cacheWriteTokens ?? 0, t.promptTokens - cached);
  const uncached = t.promptTokens - cached - written;
  const input = uncached * price.input + cached * (price.cache_read ?? price.input) + written * (price.cache_write ?? price.input);
  return (input + t.completionTokens * price.output) / 1_000_000;
}

import type { PriceBook } from './priceBook';
import { PRICE_SNAPSHOT } from './priceSnapshot';
import { loadLivePrices, modelsDevUrl } from './modelsDevPrices';

/** What a refresh reads and writes: the env (a models.dev override), the config dir (its cache), the price book, the log. */
export interface PriceRefreshDeps {
  env: NodeJS.ProcessEnv;
  config: { configDir: string };
  prices: Pick<PriceBook, 'useLive'>;
  log(message: string): void;
}

/**
 * Refreshes the prices with the models: models.dev's api.json (cached 8 h in prices-cache.json beside the models
 * cache). Unreachable, the shipped snapshot stays in use; that is only logged, never shown.
 */
export async function refreshPrices(deps: PriceRefreshDeps, opts: { force?: boolean } = {}): Promise<void> {
  const url = modelsDevUrl(deps.env);
  try {
    deps.prices.useLive(await loadLivePrices({ url, cacheFile: `${deps.config.configDir}/prices-cache.json`, force: opts.force }));
  } catch (err) {
    deps.log(`model prices: ${url} unavailable (${(err as Error).message}); using the snapshot of ${PRICE_SNAPSHOT.date}`);
  }
}

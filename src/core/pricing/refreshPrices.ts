import type { CoreRuntime } from '../app/coreRuntime';
import { PRICE_SNAPSHOT } from './priceSnapshot';
import { loadLivePrices, modelsDevUrl } from './modelsDevPrices';

/**
 * Refreshes the prices with the models: models.dev's api.json (cached 8 h in prices-cache.json beside the models
 * cache). Unreachable, the shipped snapshot stays in use; that is only logged, never shown.
 */
export async function refreshPrices(rt: CoreRuntime, opts: { force?: boolean } = {}): Promise<void> {
  const url = modelsDevUrl(rt.env);
  try {
    rt.prices.useLive(await loadLivePrices({ url, cacheFile: `${rt.config.configDir}/prices-cache.json`, force: opts.force }));
  } catch (err) {
    rt.log(`model prices: ${url} unavailable (${(err as Error).message}); using the snapshot of ${PRICE_SNAPSHOT.date}`);
  }
}

import { PRICE_SNAPSHOT } from './priceSnapshot';
import type { PriceRow, PriceSnapshot, PriceTable } from './priceTypes';
import { pricedProviderFor } from './pricedProviders';
import { priceFromRow, type ModelPrice } from './modelPrice';

/** What prices a model request: its provider's endpoint and configuration. */
export interface PricedEndpoint {
  baseUrl: string;
  /** Ours: `pricing_provider`, the models.dev provider whose prices this endpoint bills at (a proxy of one). */
  pricingProvider?: string;
  /** The provider's `models_override` entries (only their prices are read here). */
  modelsOverride?: readonly { id: string; cost?: ModelPrice }[];
}

/**
 * Model prices: a `models_override` entry's `cost` first, then models.dev's (the refreshed catalog, else the shipped
 * snapshot) for the endpoint's provider. Unknown stays unknown: a model is never priced as another model.
 */
export class PriceBook {
  private live: PriceTable | undefined;

  constructor(private readonly snapshot: PriceSnapshot = PRICE_SNAPSHOT) {}

  /** Prices newer than the snapshot (models.dev's api.json, fetched or cached). */
  useLive(table: PriceTable): void {
    this.live = table;
  }

  priceFor(endpoint: PricedEndpoint, model: string): ModelPrice | undefined {
    const override = endpoint.modelsOverride?.find((o) => o.id === model)?.cost;
    if (override) return override;
    const provider = endpoint.pricingProvider ?? pricedProviderFor(endpoint.baseUrl);
    if (!provider) return undefined;
    const row = findRow(this.live?.[provider], model) ?? findRow(this.snapshot.providers[provider], model);
    return row ? priceFromRow(row) : undefined;
  }
}

/**
 * The model's row: its exact id, else the same id ignoring case, a `vendor/` prefix, a date or `-latest` suffix —
 * accepted only when every row it could mean has the same prices (gpt-4o-2024-08-06 is not priced as gpt-4o when
 * models.dev prices the two gpt-4o dates differently).
 */
function findRow(models: Readonly<Record<string, PriceRow>> | undefined, model: string): PriceRow | undefined {
  if (!models) return undefined;
  if (Object.hasOwn(models, model)) return models[model];
  const wanted = baseId(model);
  const rows = Object.entries(models)
    .filter(([id]) => baseId(id) === wanted)
    .map(([, row]) => row);
  if (rows.length === 0) return undefined;
  return rows.every((r) => sameRow(r, rows[0])) ? rows[0] : undefined;
}

function baseId(id: string): string {
  const lower = id.toLowerCase();
  const slash = lower.lastIndexOf('/');
  return (slash >= 0 ? lower.slice(slash + 1) : lower).replace(/[-@](\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
}

function sameRow(a: PriceRow, b: PriceRow): boolean {
  return a.every((v, i) => v === b[i]);
}

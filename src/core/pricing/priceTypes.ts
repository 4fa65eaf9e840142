/** One model's price in USD per million tokens: [input, output, cache_read, cache_write] (null: not published). */
export type PriceRow = readonly [input: number, output: number, cacheRead: number | null, cacheWrite: number | null];

/** Prices by models.dev provider id, then by that provider's model id. */
export type PriceTable = Readonly<Record<string, Readonly<Record<string, PriceRow>>>>;

export interface PriceSnapshot {
  /** Where the prices come from. */
  source: string;
  /** YYYY-MM-DD: when the source was published. */
  date: string;
  providers: PriceTable;
}

/** A model's price in USD per million tokens, with models.dev's key names (`models_override.<id>.cost`, ours). */
export interface ModelPrice {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

import type { ModelPrice, RequestTokens } from './modelPrice';
import { requestCostUsd } from './modelPrice';

/** Prices a request: the provider that served it and the model; undefined when the price is unknown. */
export type Pricer = (provider: string, model: string) => ModelPrice | undefined;

/** One model's requests, tokens and cost; `usd` is null once any of its requests had no known price. */
export interface ModelCost {
  model: string;
  provider: string;
  requests: number;
  tokensIn: number;
  tokensOut: number;
  cachedTokens: number;
  usd: number | null;
}

/** The requests of one scope (a turn, a subagent run, the session), their tokens and what they cost. */
export class CostLedger {
  requests = 0;
  tokensIn = 0;
  tokensOut = 0;
  cachedTokens = 0;
  /** null once any request had no known price: a partial sum would understate the cost. */
  usd: number | null = 0;
  private readonly models = new Map<string, ModelCost>();

  /** Adds one request; its cost, or undefined when its price is unknown. */
  add(provider: string, model: string, tokens: RequestTokens, price: ModelPrice | undefined): number | undefined {
    const cost = price ? requestCostUsd(price, tokens) : undefined;
    this.requests++;
    this.tokensIn += tokens.promptTokens;
    this.tokensOut += tokens.completionTokens;
    this.cachedTokens += tokens.cachedTokens;
    this.usd = this.usd === null || cost === undefined ? null : this.usd + cost;
    const key = `${provider}\u0000${model}`;
    const row = this.models.get(key) ?? { model, provider, requests: 0, tokensIn: 0, tokensOut: 0, cachedTokens: 0, usd: 0 };
    row.requests++;
    row.tokensIn += tokens.promptTokens;
    row.tokensOut += tokens.completionTokens;
    row.cachedTokens += tokens.cachedTokens;
    row.usd = row.usd === null || cost === undefined ? null : row.usd + cost;
    this.models.set(key, row);
    return cost;
  }

  /** A ledger that goes on from these rows (a session's saved figures); its totals are theirs. */
  static of(rows: ModelCost[]): CostLedger {
    const ledger = new CostLedger();
    for (const row of rows) {
      ledger.requests += row.requests;
      ledger.tokensIn += row.tokensIn;
      ledger.tokensOut += row.tokensOut;
      ledger.cachedTokens += row.cachedTokens;
      ledger.usd = ledger.usd === null || row.usd === null ? null : ledger.usd + row.usd;
      ledger.models.set(`${row.provider}\u0000${row.model}`, { ...row });
    }
    return ledger;
  }

  byModel(): ModelCost[] {
    return [...this.models.values()].map((m) => ({ ...m }));
  }
}

/** USD rounded to a millionth of a dollar, as the events carry it (float noise is no information). */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

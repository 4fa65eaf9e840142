// Reducers for token usage, cost and the context window.
import { goalPhaseActive } from '../../shared/goalState';
import type { AssistantItem, SessionState, TurnCost } from '../../shared/sessionState';
import { type UntrustedEvent, num, str } from './eventFields';

/** `stats`: the session's cumulative figures (total_in is cumulative; tokens_in is the current context size). */
export function reduceStats(s: SessionState, e: UntrustedEvent<'stats'>): SessionState {
  const usage: SessionState['usage'] = {
    tokensIn: num(e.total_in) ?? num(e.tokens_in) ?? s.usage.tokensIn,
    tokensOut: num(e.tokens_out) ?? s.usage.tokensOut,
    cachedTokens: num(e.cached_tokens) ?? s.usage.cachedTokens,
  };
  const cost = sessionCostOf(e) ?? s.usage;
  if (cost.costUsd !== undefined) usage.costUsd = cost.costUsd;
  if (cost.costUnknown) usage.costUnknown = true;
  let next: SessionState = sameUsage(usage, s.usage) ? s : { ...s, usage };
  const file = str(e.session_file);
  if (file && file !== next.sessionFile) next = { ...next, sessionFile: file };
  const contextTokens = num(e.tokens_in);
  return contextTokens !== undefined ? withContextTokens(next, contextTokens) : next;
}

/**
 * The session's cost by our core's `stats` (its figures survive a reload and a restart, which the sum of this client's
 * `cost_update`s does not): a total, or null with the priced models' sum. Undefined when the stats carry none (upstream).
 */
function sessionCostOf(e: UntrustedEvent<'stats'>): { costUsd?: number; costUnknown?: boolean } | undefined {
  const total = num(e.estimated_usd);
  if (total !== undefined) return { costUsd: total };
  if (e.estimated_usd !== null) return undefined;
  const priced = (Array.isArray(e.by_model) ? e.by_model : []).map((m) => num((m as { estimated_usd?: unknown }).estimated_usd));
  const known = priced.filter((usd) => usd !== undefined);
  return known.length ? { costUsd: known.reduce((a, b) => a + b, 0), costUnknown: true } : { costUnknown: true };
}

/**
 * `metrics` after each model response adds that response's tokens. Mid-stream estimates (`tps_est`, no prompt size)
 * are not usage.
 */
export function reduceMetrics(s: SessionState, e: UntrustedEvent<'metrics'>): SessionState {
  const prompt = num(e.prompt_tokens);
  if (prompt === undefined && num(e.tps_est) !== undefined) return s;
  const tokensIn = prompt ?? num(e.tokens_in) ?? 0;
  const tokensOut = num(e.tokens_out) ?? 0;
  const cached = num(e.cached_tokens) ?? 0;
  if (tokensIn === 0 && tokensOut === 0 && cached === 0) return s;
  const usage = {
    ...s.usage,
    tokensIn: s.usage.tokensIn + tokensIn,
    tokensOut: s.usage.tokensOut + tokensOut,
    cachedTokens: s.usage.cachedTokens + cached,
  };
  const next = { ...s, usage };
  return prompt !== undefined && prompt > 0 ? withContextTokens(next, prompt) : next;
}

/**
 * `cost_update` after a finished turn: its estimate (null: a price is unknown, and upstream's core always sends null)
 * adds to the session's cost, and the turn's last reply shows it. Our core's `turn_*` fields cover the whole turn;
 * upstream's fields only its last request.
 */
export function reduceCostUpdate(s: SessionState, e: UntrustedEvent<'cost_update'>): SessionState {
  const usd = num(e.estimated_usd) ?? null;
  const next = withCost(s, usd);
  const requests = num(e.turn_requests);
  const turnCost: TurnCost =
    requests === undefined
      ? { usd, tokensIn: num(e.tokens_in) ?? 0, tokensOut: num(e.tokens_out) ?? 0 }
      : { usd, requests, tokensIn: num(e.turn_tokens_in) ?? 0, tokensOut: num(e.turn_tokens_out) ?? 0 };
  const index = lastReplyOf(next, str(e.run_id));
  if (index < 0) return next;
  const items = next.items.slice();
  items[index] = { ...(items[index] as AssistantItem), turnCost };
  return { ...next, items };
}

/** Adds an estimate to the session's cost, and to the goal's while one is active; null: the sum leaves a request out. */
export function withCost(s: SessionState, usd: number | null): SessionState {
  const add = <T extends { costUsd?: number; costUnknown?: boolean }>(o: T): T =>
    usd === null ? (o.costUnknown ? o : { ...o, costUnknown: true }) : { ...o, costUsd: (o.costUsd ?? 0) + usd };
  const goal = s.goal && goalPhaseActive(s.goal.phase) ? add(s.goal) : s.goal;
  const usage = add(s.usage);
  if (usage === s.usage && goal === s.goal) return s;
  return goal ? { ...s, usage, goal } : { ...s, usage };
}

/** The main agent's last reply in the run (any run when the event names none). */
function lastReplyOf(s: SessionState, runId: string | undefined): number {
  for (let i = s.items.length - 1; i >= 0; i--) {
    const item = s.items[i];
    if (item.kind === 'assistant' && !item.childRunId && (runId === undefined || item.runId === runId)) return i;
  }
  return -1;
}

export function reduceContextBreakdown(s: SessionState, e: UntrustedEvent<'context_breakdown'>): SessionState {
  const tokens = num(e.total_tokens);
  const window = num(e.context_window);
  if (tokens === undefined || window === undefined) return s;
  const pct = num(e.pct) ?? percent(tokens, window);
  return { ...s, context: { tokens, window, pct } };
}

/** The context meter follows the latest prompt size once the window is known (from `context` or the model's info). */
export function withContextTokens(s: SessionState, tokens: number): SessionState {
  const window = s.context?.window ?? s.models.find((m) => m.id === s.model)?.contextWindow;
  if (!window || s.context?.tokens === tokens) return s;
  return { ...s, context: { tokens, window, pct: percent(tokens, window) } };
}

function percent(tokens: number, window: number): number {
  return window > 0 ? Math.round((tokens / window) * 1000) / 10 : 0;
}

function sameUsage(a: SessionState['usage'], b: SessionState['usage']): boolean {
  return (
    a.tokensIn === b.tokensIn &&
    a.tokensOut === b.tokensOut &&
    a.cachedTokens === b.cachedTokens &&
    a.costUsd === b.costUsd &&
    a.costUnknown === b.costUnknown
  );
}

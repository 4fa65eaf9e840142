import { CostLedger, roundUsd, type Pricer } from '../pricing/costLedger';
import type { SessionFigures } from '../sessions/sessionStats';
import type { StreamResult, TokenUsage } from '../providers/types';
import type { RunEvent, SessionEventOf } from '../runtime/eventSink';

type Emit = (event: RunEvent) => void;

/** Token, cost and call accounting for `metrics` after each model response, `cost_update` per turn and `stats`. */
export class UsageTracker {
  tokensIn = 0;
  tokensOut = 0;
  cachedTokens = 0;
  lastPromptTokens = 0;
  turns = 0;
  compactions = 0;
  toolCalls = 0;
  bashCalls = 0;
  editCalls = 0;
  /** Every request of the session, the main agent's and its subagents', by model. */
  readonly costs: CostLedger;
  private turn = new CostLedger();
  private lastRequest: { model: string; usage: TokenUsage } | undefined;

  /**
   * `saved`: the session's figures so far (its `.stats` sidecar), which this tracker goes on from. `onChildResponse`
   * saves them again: a goal's or a subagent's requests may come after the turn that saved them last.
   */
  constructor(
    private readonly pricer: Pricer = () => undefined,
    saved?: SessionFigures,
    private readonly onChildResponse: () => void = () => {},
  ) {
    this.costs = CostLedger.of(
      (saved?.by_model ?? []).map((m) => ({
        model: m.model,
        provider: m.provider,
        requests: m.requests,
        tokensIn: m.tokens_in,
        tokensOut: m.tokens_out,
        cachedTokens: m.cached_tokens,
        usd: m.estimated_usd,
      })),
    );
    if (!saved) return;
    this.tokensIn = saved.tokens_in;
    this.tokensOut = saved.tokens_out;
    this.cachedTokens = saved.cached_tokens;
    this.lastPromptTokens = saved.last_prompt_tokens;
    this.turns = saved.turns;
    this.compactions = saved.compactions;
    this.toolCalls = saved.tool_calls;
    this.bashCalls = saved.bash_calls;
    this.editCalls = saved.edit_calls;
  }

  /** The session's figures to save (the `.stats` sidecar); `by_model` as `stats` reports it. */
  figures(): SessionFigures {
    return {
      tokens_in: this.tokensIn,
      tokens_out: this.tokensOut,
      cached_tokens: this.cachedTokens,
      last_prompt_tokens: this.lastPromptTokens,
      turns: this.turns,
      compactions: this.compactions,
      tool_calls: this.toolCalls,
      bash_calls: this.bashCalls,
      edit_calls: this.editCalls,
      // Unrounded: the sums go on from here, and a rounding per save would add up.
      by_model: this.byModel((usd) => usd),
    };
  }

  /** A main-agent turn starts: its `cost_update` covers the requests from here on. */
  beginTurn(): void {
    this.turn = new CostLedger();
    this.lastRequest = undefined;
  }

  /** `provider` is the name of the provider that served the request (its prices). */
  recordResponse(model: string, r: StreamResult, emit: Emit, provider = ''): void {
    const { promptTokens, completionTokens, cachedTokens } = r.usage;
    this.tokensIn += promptTokens;
    this.tokensOut += completionTokens;
    this.cachedTokens += cachedTokens;
    if (promptTokens > 0) this.lastPromptTokens = promptTokens;
    const price = this.pricer(provider, model);
    this.turn.add(provider, model, r.usage, price);
    this.costs.add(provider, model, r.usage, price);
    this.lastRequest = { model, usage: r.usage };
    const genMs = Math.max(1, r.elapsedMs - r.ttftMs);
    emit({
      type: 'metrics',
      model,
      tokens_in: promptTokens,
      tokens_out: completionTokens,
      prompt_tokens: promptTokens,
      cached_tokens: cachedTokens,
      tps: completionTokens > 0 ? Math.round((completionTokens / genMs) * 10000) / 10 : 0,
      ttft_ms: Math.round(r.ttftMs),
      elapsed_ms: Math.round(r.elapsedMs),
    });
  }

  /** A subagent's request: the session's tokens and costs include it. Its cost, or undefined when the price is unknown. */
  recordChildResponse(provider: string, model: string, usage: TokenUsage): number | undefined {
    this.tokensIn += usage.promptTokens;
    this.tokensOut += usage.completionTokens;
    this.cachedTokens += usage.cachedTokens;
    const cost = this.costs.add(provider, model, usage, this.pricer(provider, model));
    this.onChildResponse();
    return cost;
  }

  /**
   * The finished turn's `cost_update`: upstream's fields describe its last request; `estimated_usd` (null when any of
   * the turn's requests had no known price) and the `turn_*` totals (ours) cover every main-agent request of the turn.
   * A subagent's requests are in its `subagent_done`, not here.
   */
  turnCostEvent(): RunEvent | undefined {
    const last = this.lastRequest;
    if (!last) return undefined;
    const { promptTokens, completionTokens, cachedTokens } = last.usage;
    return {
      type: 'cost_update',
      model: last.model,
      tokens_in: promptTokens,
      tokens_out: completionTokens,
      cached_tokens: cachedTokens,
      cache_hit_pct: promptTokens > 0 ? (cachedTokens * 100) / promptTokens : null,
      estimated_usd: this.turn.usd === null ? null : roundUsd(this.turn.usd),
      turn_requests: this.turn.requests,
      turn_tokens_in: this.turn.tokensIn,
      turn_tokens_out: this.turn.tokensOut,
      turn_cached_tokens: this.turn.cachedTokens,
    };
  }

  /** The finished turn's totals (as its `cost_update`), or undefined when it made no request. */
  turnTotals(): { estimated_usd: number | null; requests: number; tokens_in: number; tokens_out: number } | undefined {
    if (!this.lastRequest) return undefined;
    const t = this.turn;
    return { estimated_usd: t.usd === null ? null : roundUsd(t.usd), requests: t.requests, tokens_in: t.tokensIn, tokens_out: t.tokensOut };
  }

  recordTool(name: string): void {
    this.toolCalls++;
    if (name === 'bash') this.bashCalls++;
    if (name === 'edit' || name === 'write_file' || name === 'patch') this.editCalls++;
  }

  statsEvent(messages: number, sessionFile: string | undefined): SessionEventOf<'stats'> {
    const total = this.tokensIn + this.tokensOut;
    return {
      type: 'stats',
      tokens_in: this.lastPromptTokens,
      tokens_out: this.tokensOut,
      total_in: this.tokensIn,
      total_out: this.tokensOut,
      tokens_total: total,
      cached_tokens: this.cachedTokens,
      cache_hit_ratio: this.tokensIn > 0 ? this.cachedTokens / this.tokensIn : 0,
      turns: this.turns,
      compactions: this.compactions,
      messages,
      session_file: sessionFile ?? '',
      tool_calls: this.toolCalls,
      bash_calls: this.bashCalls,
      edit_calls: this.editCalls,
      estimated_usd: this.costs.usd === null ? null : roundUsd(this.costs.usd),
      by_model: this.byModel(roundUsd),
    };
  }

  private byModel(round: (usd: number) => number): SessionFigures['by_model'] {
    return this.costs.byModel().map((m) => ({
      model: m.model,
      provider: m.provider,
      requests: m.requests,
      tokens_in: m.tokensIn,
      tokens_out: m.tokensOut,
      cached_tokens: m.cachedTokens,
      estimated_usd: m.usd === null ? null : round(m.usd),
    }));
  }
}

import type { StreamResult } from '../providers/types';
import type { RunEvent, SessionEventOf } from '../runtime/eventSink';

type Emit = (event: RunEvent) => void;

/** Token and call accounting for `metrics` after each model response and the `stats` command. */
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

  recordResponse(model: string, r: StreamResult, emit: Emit): void {
    const { promptTokens, completionTokens, cachedTokens } = r.usage;
    this.tokensIn += promptTokens;
    this.tokensOut += completionTokens;
    this.cachedTokens += cachedTokens;
    if (promptTokens > 0) this.lastPromptTokens = promptTokens;
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
    };
  }
}

import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../coreRuntime';
import { estimateTokens } from '../agent/tokenEstimate';
import { streamChat } from '../providers/stream';
import type { ChatMessage } from '../providers/types';
import { scrubText } from '../runtime/redact';
import { contextWindow, COMPACT_AT } from './statusCommands';

const SUMMARY_PROMPT = [
  'Summarize the conversation so far for your own future reference. Keep: the user\'s goals and constraints, decisions made,',
  'files created or changed (with paths), commands run and their important results, open problems and next steps.',
  'Be concise and factual; use bullet points. Do not call tools.',
].join(' ');

/** `compact`: the model summarizes every turn but the last; the summary replaces them in the session file. */
export function handleCompact(rt: CoreRuntime, cmd: CommandOf<'compact'>, trigger: 'manual' | 'auto' = 'manual'): void {
  if (rt.runs.active) return void rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; compact after it finishes' });
  const model = rt.lastModel;
  const providerName = model ? rt.providers.providerForModel(model) : undefined;
  const provider = providerName ? rt.providers.resolve(providerName) : undefined;
  if (!model || !provider) return void rt.emit({ type: 'error', code: 'no_model', message: 'compact needs a model: send a prompt first' });
  const all = rt.conversation.all;
  const keepFrom = rt.conversation.lastTurnStart();
  if (keepFrom <= 0) return void rt.emit({ type: 'info', message: 'nothing to compact yet' });
  const before = estimateTokens(all);
  const window = contextWindow(rt);
  rt.runs.start(rt.sessionId, 'compact', async (scope) => {
    rt.emitInRun(scope, { type: 'compacting', trigger, before_tokens: before, context_window: window, threshold_tokens: Math.round(window * COMPACT_AT), utilization_pct: Math.round((before / window) * 1000) / 10 });
    const instructions = typeof cmd.instructions === 'string' && cmd.instructions ? `${SUMMARY_PROMPT}\nAlso: ${cmd.instructions}` : SUMMARY_PROMPT;
    try {
      const result = await streamChat(
        { provider, model, messages: [{ role: 'system', content: rt.systemPrompt() }, ...all.slice(0, keepFrom), { role: 'user', content: instructions }], tools: [], signal: scope.signal, idleTimeoutMs: rt.config.idleTimeoutSecs * 1000 },
        () => undefined,
      );
      if (scope.cancelled) return;
      const summary: ChatMessage[] = [
        { role: 'user', content: `[Summary of the earlier conversation]\n${result.text}` },
        { role: 'assistant', content: 'Understood; I will continue from this summary.' },
      ];
      const compacted = [...summary, ...all.slice(keepFrom)];
      rt.conversation.replace(compacted);
      rt.usage.compactions++;
      const after = estimateTokens(compacted);
      rt.emitInRun(scope, { type: 'compacted', before_tokens: before, after_tokens: after, within_limit: after < window * COMPACT_AT, summary_chars: result.text.length, scope: 'session', before_messages: all.length, after_messages: compacted.length });
    } catch (err) {
      rt.emitInRun(scope, { type: 'error', code: 'compact_failed', message: `compaction failed: ${scrubText((err as Error).message, rt.secrets())}` });
    }
  });
}

import { streamChat } from '../providers/stream';
import type { ChatMessage, ResolvedProvider } from '../providers/types';
import type { RunEvent } from '../runtime/eventSink';
import type { Conversation } from './conversation';
import { estimateTokens } from './tokenEstimate';

export const COMPACT_AT = 0.9;
export const DIGEST_AT = 0.7;

/** The tokens kept free for the model's answer: a tenth of the window, at most 8192. */
export function responseReserveTokens(contextWindow: number): number {
  return Math.min(8192, Math.round(contextWindow * 0.1));
}

/** The most tokens a prompt may have: the window minus the answer's reserve. */
export function hardLimitTokens(contextWindow: number): number {
  return contextWindow - responseReserveTokens(contextWindow);
}

const SUMMARY_PROMPT = [
  'Summarize the conversation so far for your own future reference. Keep: the user\'s goals and constraints, decisions made,',
  'files created or changed (with paths), commands run and their important results, open problems and next steps.',
  'Be concise and factual; use bullet points. Do not call tools.',
].join(' ');

export interface CompactionInput {
  conversation: Conversation;
  provider: ResolvedProvider;
  model: string;
  systemPrompt: string;
  contextWindow: number;
  trigger: 'manual' | 'auto';
  instructions?: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** Messages from this index on are kept verbatim (a turn boundary). */
  keepFrom: number;
  emit(event: RunEvent): void;
}

/** True when the conversation is estimated to fill more than COMPACT_AT of the model's context window. */
export function needsCompaction(messages: readonly ChatMessage[], systemPrompt: string, contextWindow: number): boolean {
  return estimateTokens(messages) + estimateTokens(systemPrompt) > contextWindow * COMPACT_AT;
}

/** The model summarizes everything before `keepFrom`; the summary replaces it in the session file. Throws on provider errors. */
export async function compactConversation(c: CompactionInput): Promise<boolean> {
  const all = c.conversation.all;
  if (c.keepFrom <= 0) return false;
  const before = estimateTokens(all);
  c.emit({ type: 'compacting', trigger: c.trigger, before_tokens: before, context_window: c.contextWindow, threshold_tokens: Math.round(c.contextWindow * COMPACT_AT), hard_limit_tokens: hardLimitTokens(c.contextWindow), utilization_pct: Math.round((before / c.contextWindow) * 1000) / 10 });
  const prompt = c.instructions ? `${SUMMARY_PROMPT}\nAlso: ${c.instructions}` : SUMMARY_PROMPT;
  const result = await streamChat(
    { provider: c.provider, model: c.model, messages: [{ role: 'system', content: c.systemPrompt }, ...all.slice(0, c.keepFrom), { role: 'user', content: prompt }], tools: [], signal: c.signal, idleTimeoutMs: c.idleTimeoutMs },
    () => undefined,
  );
  if (c.signal.aborted) return false;
  const compacted: ChatMessage[] = [
    { role: 'user', content: `[Summary of the earlier conversation]\n${result.text}` },
    { role: 'assistant', content: 'Understood; I will continue from this summary.' },
    ...all.slice(c.keepFrom),
  ];
  c.conversation.replace(compacted);
  const after = estimateTokens(compacted);
  c.emit({ type: 'compacted', before_tokens: before, after_tokens: after, within_limit: after < c.contextWindow * COMPACT_AT, summary_chars: result.text.length, scope: 'session', trigger: c.trigger, before_messages: all.length, after_messages: compacted.length });
  return true;
}

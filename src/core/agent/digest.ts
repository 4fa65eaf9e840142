/**
 * The pressure digest (upstream's soft digest, research §1.5 step 3): past DIGEST_AT of the window, large tool results
 * outside the recent tail become a one-line note, oldest first, until the history fits SOFT_TARGET of the window. The
 * tool_call_id stays, so every call keeps its result. The main loop digests before each model request (`digested`
 * without a scope), a child before each of its rounds (scope "subagent").
 */
import type { ChatMessage } from '../providers/types';
import { COMPACT_AT, DIGEST_AT, hardLimitTokens } from './compaction';
import { estimateTokens } from '../platform/tokenEstimate';

export const DIGEST_MIN_CHARS = 256;
const MIN_KEPT_MESSAGES = 6;
const KEPT_WINDOW_SHARE = 0.2;
const KEPT_MIN_TOKENS = 4000;
const SOFT_TARGET = 0.6;
const DIGEST_MARK = '[digested:';

/** The note that replaces a digested result: what was run and how big its output was. */
export function digestNote(name: string, args: string, output: string): string {
  const lines = output.split('\n').length;
  return `${DIGEST_MARK} ${name || 'tool'} ${args} returned ${output.length} chars, ${lines} lines; re-run the call to see it again]`;
}

/** What a pressure digest did, in upstream's `digested` fields (the caller adds `scope` or `utilization_pct`). */
export interface PressureDigest {
  results: number;
  before_tokens: number;
  after_tokens: number;
  context_window: number;
  threshold_tokens: number;
  hard_limit_tokens: number;
}

export interface PressureOptions {
  /** What the request carries besides the messages (the main loop's system prompt). */
  fixedTokens?: number;
  /** The share of the window past which to digest: `context_digest_at`, DIGEST_AT by default. */
  digestAt?: number;
}

/**
 * Past `digestAt` of the window (COMPACT_AT if that is lower), digests the messages in place; undefined when they are
 * under it or nothing changed.
 */
export function digestUnderPressure(messages: ChatMessage[], contextWindow: number, o: PressureOptions = {}): PressureDigest | undefined {
  const fixedTokens = o.fixedTokens ?? 0;
  const before = estimateTokens(messages) + fixedTokens;
  const threshold = Math.min(Math.round(contextWindow * (o.digestAt ?? DIGEST_AT)), Math.round(contextWindow * COMPACT_AT));
  if (before <= threshold) return undefined;
  const results = digestToolResults(messages, contextWindow);
  if (!results) return undefined;
  return {
    results,
    before_tokens: before,
    after_tokens: estimateTokens(messages) + fixedTokens,
    context_window: contextWindow,
    threshold_tokens: threshold,
    hard_limit_tokens: hardLimitTokens(contextWindow),
  };
}

/** Digests the messages in place; how many results it changed. */
export function digestToolResults(messages: ChatMessage[], contextWindow: number): number {
  const calls = callsById(messages);
  const keep = messages.length <= MIN_KEPT_MESSAGES ? 1 : messages.length - keptTailStart(messages, contextWindow);
  let changed = 0;
  for (let i = 0; i < messages.length - keep; i++) changed += digestAt(messages, i, calls);
  const budget = contextWindow * SOFT_TARGET;
  for (let i = 0; i < messages.length && estimateTokens(messages) > budget; i++) changed += digestAt(messages, i, calls);
  return changed;
}

function digestAt(messages: ChatMessage[], i: number, calls: Map<string, { name: string; args: string }>): number {
  const m = messages[i];
  if (m.role !== 'tool' || typeof m.content !== 'string') return 0;
  if (m.content.startsWith(DIGEST_MARK) || m.content.length <= DIGEST_MIN_CHARS) return 0;
  const call = calls.get(m.tool_call_id ?? '');
  messages[i] = { ...m, content: digestNote(call?.name ?? '', call?.args ?? '', m.content) };
  return 1;
}

/** The recent messages kept verbatim: at least the last six, and older ones while they fit a fifth of the window. */
function keptTailStart(messages: readonly ChatMessage[], contextWindow: number): number {
  const budget = Math.max(contextWindow * KEPT_WINDOW_SHARE, KEPT_MIN_TOKENS);
  let kept = 0;
  let start = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    const tokens = estimateTokens(messages[i]);
    if (i < messages.length - MIN_KEPT_MESSAGES && kept + tokens > budget) break;
    kept += tokens;
    start = i;
  }
  return start;
}

function callsById(messages: readonly ChatMessage[]): Map<string, { name: string; args: string }> {
  const calls = new Map<string, { name: string; args: string }>();
  for (const m of messages) for (const c of m.tool_calls ?? []) calls.set(c.id, { name: c.function.name, args: c.function.arguments });
  return calls;
}

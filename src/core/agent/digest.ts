/**
 * The pressure digest (upstream's soft digest, research §1.5 step 3): past DIGEST_AT of the window, large tool results
 * outside the recent tail become a one-line note, oldest first, until the history fits SOFT_TARGET of the window. The
 * tool_call_id stays, so every call keeps its result. Not yet used by the main turn, which only compacts.
 */
import type { ChatMessage } from '../providers/types';
import { estimateTokens } from './tokenEstimate';

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

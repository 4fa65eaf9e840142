/**
 * A child's context management before each model round (upstream's child loop, research §1.5 steps 3-4): a pressure
 * digest of stale tool results, then the child's own history is compacted with the session's compaction (scope "subagent", run_id = the child's), and a child still over
 * the hard limit fails instead of sending a request the model would refuse.
 */
import type { streamChat } from '../providers/stream';
import type { ChatMessage } from '../providers/types';
import type { RunEvent } from '../runtime/eventSink';
import { scrubText } from '../runtime/redact';
import { type CompactableHistory, compactConversation, hardLimitTokens, needsCompaction } from '../agent/compaction';
import { digestUnderPressure } from '../agent/digest';
import type { ModelRoute } from './childEnv';
import { estimateTokens } from '../platform/tokenEstimate';

/** The window of a model whose size is unknown (as the session's `contextWindow`). */
export const CHILD_DEFAULT_CONTEXT_WINDOW = 128_000;

export interface ChildContextInput {
  /** The child's request messages: its system prompt first, then its history; rewritten in place by a compaction. */
  messages: ChatMessage[];
  route: ModelRoute;
  task: string;
  autoCompact: boolean;
  instructions?: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  secrets: readonly string[];
  emit(event: RunEvent): void;
  stream?: typeof streamChat;
}

export function childContextWindow(route: ModelRoute): number {
  return route.modelInfo?.context_window || CHILD_DEFAULT_CONTEXT_WINDOW;
}

export function tooLargeMessage(tokens: number, limit: number): string {
  return `subagent context remains too large after compaction (${tokens} > safe limit ${limit}); split the task or reduce oversized input`;
}

/** Compacts the child's history when it nearly fills the window; the error the run fails with when it is still too large. */
export async function manageChildContext(c: ChildContextInput): Promise<string | undefined> {
  const window = childContextWindow(c.route);
  const systemPrompt = String(c.messages[0]?.content ?? '');
  const history = historyOf(c.messages);
  if (!c.autoCompact) return undefined;
  digestChildUnderPressure(c, window);
  if (!needsCompaction(history.all, systemPrompt, window)) return undefined;
  try {
    const done = await compactConversation({
      conversation: history,
      scope: 'subagent',
      stream: c.stream,
      provider: c.route.provider,
      model: c.route.model,
      systemPrompt,
      contextWindow: window,
      trigger: 'auto',
      instructions: c.instructions,
      signal: c.signal,
      idleTimeoutMs: c.idleTimeoutMs,
      keepFrom: history.all.length,
      emit: c.emit,
    });
    // The summary ends on the model's acknowledgement: the task comes back as the next user message.
    if (done) c.messages.push({ role: 'user', content: `Continue your task from the summary above. Your task:\n${c.task}` });
  } catch (err) {
    if (c.signal.aborted) return undefined;
    c.emit({ type: 'info', message: `subagent compaction failed: ${scrubText((err as Error).message, c.secrets)}` });
  }
  const tokens = estimateTokens(c.messages);
  const limit = hardLimitTokens(window);
  return tokens > limit ? tooLargeMessage(tokens, limit) : undefined;
}

/** Past DIGEST_AT of the window, stale large tool results become notes (`digested`, scope "subagent"). */
function digestChildUnderPressure(c: ChildContextInput, window: number): void {
  const digest = digestUnderPressure(c.messages, window);
  if (digest) c.emit({ type: 'digested', scope: 'subagent', trigger: 'pressure', ...digest });
}

/** The messages after the system prompt, as a compaction reads and replaces them. */
function historyOf(messages: ChatMessage[]): CompactableHistory {
  return {
    get all() {
      return messages.slice(1);
    },
    replace(next) {
      messages.splice(1, messages.length - 1, ...next);
    },
  };
}

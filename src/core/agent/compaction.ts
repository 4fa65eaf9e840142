import { streamChat } from '../providers/stream';
import type { ChatMessage, ResolvedProvider } from '../providers/types';
import type { RunEvent, RunEventOf } from '../runtime/eventSink';
import { estimateTokens } from '../platform/tokenEstimate';

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
  "Summarize the conversation so far for your own future reference. Keep: the user's goals and constraints, decisions made,",
  'files created or changed (with paths), commands run and their important results, open problems and next steps.',
  'Be concise and factual; use bullet points. Do not call tools.',
].join(' ');

/** What a compaction reads and rewrites: the session's Conversation, or a child's own history. */
export interface CompactableHistory {
  readonly all: readonly ChatMessage[];
  replace(messages: ChatMessage[]): void;
}

/** Whose context is compacted: the session's, or a subagent's (upstream's `scope` of compacting/compacted). */
export type CompactionScope = 'session' | 'subagent';

export interface CompactionInput {
  conversation: CompactableHistory;
  /** 'session' by default. */
  scope?: CompactionScope;
  /** The provider client by default; a child's test seam. */
  stream?: typeof streamChat;
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

/** Upstream always keeps the last six messages verbatim, and older ones while they fit in this share of the window. */
const KEPT_TAIL_MIN_MESSAGES = 6;
const KEPT_TAIL_WINDOW_SHARE = 0.25;
const KEPT_TAIL_MIN_TOKENS = 6000;

/**
 * Where the verbatim tail of a manual compaction starts: upstream's token-budgeted tail, moved back to the start of
 * its turn so no tool result loses its call. 0 when the tail is the whole conversation: there is nothing to summarize.
 */
export function keptTailStart(messages: readonly ChatMessage[], contextWindow: number): number {
  const budget = Math.max(Math.floor(contextWindow * KEPT_TAIL_WINDOW_SHARE), KEPT_TAIL_MIN_TOKENS);
  let kept = 0;
  let start = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    const tokens = estimateTokens(messages[i]);
    if (i < messages.length - KEPT_TAIL_MIN_MESSAGES && kept + tokens > budget) break;
    kept += tokens;
    start = i;
  }
  while (start > 0 && messages[start].role !== 'user') start--;
  return start;
}

/** The figures upstream's compacting and compacted events both carry. */
function limitFigures(contextWindow: number) {
  return {
    context_window: contextWindow,
    threshold_tokens: Math.round(contextWindow * COMPACT_AT),
    hard_limit_tokens: hardLimitTokens(contextWindow),
  };
}

function compactingEvent(
  trigger: CompactionInput['trigger'],
  before: number,
  contextWindow: number,
  scope: CompactionScope,
): RunEventOf<'compacting'> {
  return {
    type: 'compacting',
    scope,
    trigger,
    before_tokens: before,
    ...limitFigures(contextWindow),
    utilization_pct: Math.round((before / contextWindow) * 1000) / 10,
  };
}

interface CompactionOutcome {
  scope: CompactionScope;
  trigger: CompactionInput['trigger'];
  before: number;
  after: number;
  summaryChars: number;
  beforeMessages: number;
  afterMessages: number;
}

function compactedEvent(o: CompactionOutcome, contextWindow: number): RunEventOf<'compacted'> {
  const figures = limitFigures(contextWindow);
  return {
    type: 'compacted',
    before_tokens: o.before,
    after_tokens: o.after,
    within_limit: o.after <= figures.hard_limit_tokens,
    summary_chars: o.summaryChars,
    scope: o.scope,
    trigger: o.trigger,
    before_messages: o.beforeMessages,
    after_messages: o.afterMessages,
    ...figures,
  };
}

/** The events of a compaction that leaves the conversation as it is: nothing to summarize, or a summary that would not be smaller. */
export function unchangedCompactionEvents(
  messages: readonly ChatMessage[],
  contextWindow: number,
  trigger: CompactionInput['trigger'],
  scope: CompactionScope = 'session',
): [RunEventOf<'compacting'>, RunEventOf<'compacted'>] {
  const before = estimateTokens(messages);
  const outcome = {
    scope,
    trigger,
    before,
    after: before,
    summaryChars: 0,
    beforeMessages: messages.length,
    afterMessages: messages.length,
  };
  return [compactingEvent(trigger, before, contextWindow, scope), compactedEvent(outcome, contextWindow)];
}

/**
 * The model summarizes everything before `keepFrom`; the summary replaces it in the session file, unless it would not
 * make the context smaller (compaction never grows it). Throws on provider errors.
 */
export async function compactConversation(c: CompactionInput): Promise<boolean> {
  const all = c.conversation.all;
  if (c.keepFrom <= 0) return false;
  const scope = c.scope ?? 'session';
  const before = estimateTokens(all);
  c.emit(compactingEvent(c.trigger, before, c.contextWindow, scope));
  const prompt = c.instructions ? `${SUMMARY_PROMPT}\nAlso: ${c.instructions}` : SUMMARY_PROMPT;
  const result = await (c.stream ?? streamChat)(
    {
      provider: c.provider,
      model: c.model,
      messages: [{ role: 'system', content: c.systemPrompt }, ...all.slice(0, c.keepFrom), { role: 'user', content: prompt }],
      tools: [],
      signal: c.signal,
      idleTimeoutMs: c.idleTimeoutMs,
    },
    () => undefined,
  );
  if (c.signal.aborted) return false;
  const compacted: ChatMessage[] = [
    { role: 'user', content: `[Summary of the earlier conversation]\n${result.text}` },
    { role: 'assistant', content: 'Understood; I will continue from this summary.' },
    ...all.slice(c.keepFrom),
  ];
  const after = estimateTokens(compacted);
  if (after >= before) {
    c.emit(unchangedCompactionEvents(all, c.contextWindow, c.trigger, scope)[1]);
    return false;
  }
  c.conversation.replace(compacted);
  c.emit(
    compactedEvent(
      {
        scope,
        trigger: c.trigger,
        before,
        after,
        summaryChars: result.text.length,
        beforeMessages: all.length,
        afterMessages: compacted.length,
      },
      c.contextWindow,
    ),
  );
  return true;
}

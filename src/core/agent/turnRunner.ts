import type { ModelInfo } from '../../protocol';
import {
  ProviderError,
  type ChatMessage,
  type ContentPart,
  type ResolvedProvider,
  type StreamEvent,
  type StreamResult,
} from '../providers/types';
import { streamChat } from '../providers/stream';
import { rateLimitedUntilSeconds } from '../providers/rateLimitReset';
import { scrubText } from '../runtime/redact';
import type { RunScope } from '../runtime/runScope';
import type { Conversation } from './conversation';
import { digestUnderPressure } from './digest';
import type { ToolOutcome } from '../tools/types';
import type { TurnTools } from '../tools/toolSet';
import { StuckDetector } from './stuckDetector';
import { estimateTokens } from '../platform/tokenEstimate';
import { callAnnouncer, runToolCall, type GateDeps, type ToolCall } from './toolGate';
import { inModelOrder } from './modelOrderAnnouncer';
import type { UsageTracker } from './usageTracker';

export const MAX_MODEL_STEPS = 200;

export interface TurnInput {
  prompt: string;
  model: string;
  provider: ResolvedProvider;
  modelInfo?: ModelInfo;
  reasoningEffort?: string;
  images?: string[];
}

export interface TurnDeps extends GateDeps {
  conversation: Conversation;
  usage: UsageTracker;
  /** The turn's tools now (load_tools can add some during the turn). */
  tools(): TurnTools;
  systemPrompt(): string;
  /**
   * The share of the context window past which stale tool results are digested (`context_digest_at`); 0 when off, as
   * with auto_compact off (read now: set_config may change it).
   */
  digestAt(): number;
  contextWindow(): number;
  /** After an answer without tool calls: the advisor's review when it is on (advisor.ts); never fails the turn. */
  reviewAnswer(input: TurnInput): Promise<void>;
  idleTimeoutMs: number;
  secrets(): string[];
  imagePart(ref: string): ContentPart;
  /** Plugins' pre_agent_start / pre_context: the messages this one request carries (the conversation is unchanged). */
  beforeRequest?(messages: ChatMessage[]): Promise<ChatMessage[]>;
}

export type TurnOutcome = 'completed' | 'cancelled' | 'failed';

/**
 * One user turn: the model streams, calls tools through the gate, and loops until it answers without tool calls. A
 * finished turn ends with its `cost_update`, after the last `metrics` (upstream sends none for failed or aborted ones).
 */
export async function runTurn(deps: TurnDeps, scope: RunScope, input: TurnInput): Promise<TurnOutcome> {
  deps.usage.beginTurn();
  const outcome = await runSteps(deps, scope, input);
  const cost = outcome === 'completed' && !scope.cancelled ? deps.usage.turnCostEvent() : undefined;
  if (cost) deps.emit(cost);
  return outcome;
}

async function runSteps(deps: TurnDeps, scope: RunScope, input: TurnInput): Promise<TurnOutcome> {
  deps.conversation.append(userMessage(input, deps));
  const stuck = new StuckDetector(deps.builtIns);
  for (let step = 0; step < MAX_MODEL_STEPS; step++) {
    if (scope.cancelled) return 'cancelled';
    digestIfPressed(deps);
    const result = await streamOnce(deps, scope, input);
    if (result === 'cancelled' || result === 'failed') return result;
    const calls = result.toolCalls;
    deps.conversation.append(assistantMessage(result));
    deps.usage.recordResponse(input.model, result, deps.emit, input.provider.name);
    if (calls.length === 0) {
      await deps.reviewAnswer(input);
      return 'completed';
    }
    const ended = await runToolCalls(deps, scope, calls);
    if (ended) return ended;
    nudgeIfStuck(deps, stuck, calls);
  }
  deps.emit({
    type: 'error',
    code: 'step_limit',
    message: `the model used ${MAX_MODEL_STEPS} steps without finishing; stopping this turn`,
  });
  return 'failed';
}

/**
 * Before each request: past `context_digest_at` of the window, stale large tool results become notes (upstream's
 * `digested`, without a scope).
 */
function digestIfPressed(deps: TurnDeps): void {
  const digestAt = deps.digestAt();
  if (!(digestAt > 0)) return;
  const messages = [...deps.conversation.all];
  const window = deps.contextWindow();
  const digest = digestUnderPressure(messages, window, { fixedTokens: estimateTokens(deps.systemPrompt()), digestAt });
  if (!digest) return;
  deps.conversation.replace(messages);
  const utilization = Math.round((digest.before_tokens / window) * 1000) / 10;
  deps.emit({ type: 'digested', trigger: 'pressure', ...digest, utilization_pct: utilization });
}

/** After a batch: a model repeating one read-only call is told so by a system message, kept with the conversation. */
function nudgeIfStuck(deps: TurnDeps, stuck: StuckDetector, calls: ToolCall[]): void {
  for (const call of calls) stuck.record(call);
  const message = stuck.check();
  if (message === undefined) return;
  deps.emit({ type: 'stuck_nudge', message });
  deps.conversation.append({ role: 'system', content: message });
}

/** Runs one model message's tool calls in order; how the turn ended, or undefined when the model goes on. */
async function runToolCalls(deps: TurnDeps, scope: RunScope, calls: ToolCall[]): Promise<TurnOutcome | undefined> {
  const wave = leadingWaveLength(deps, calls);
  const outcomes = wave >= 2 ? await runWave(deps, scope, calls.slice(0, wave)) : [];
  outcomes.forEach((outcome, i) => recordResult(deps, calls[i], outcome));
  for (let i = outcomes.length; i < calls.length; i++) {
    if (scope.cancelled) {
      answerRemaining(deps.conversation, calls.slice(i));
      return 'cancelled';
    }
    const outcome = await runOffered(deps, scope, calls[i]);
    recordResult(deps, calls[i], outcome);
    if (outcome.ok && outcome.endsTurn) {
      answerRemaining(deps.conversation, calls.slice(i + 1), 'was not run: the turn had finished');
      return 'completed';
    }
  }
  return scope.cancelled ? 'cancelled' : undefined;
}

/**
 * How many calls lead the message with parallel-safe tools: two or more of them run at once, as upstream's read wave.
 * A plugin tool that overrides a parallel-safe built-in is not one: its handler runs in turn.
 */
function leadingWaveLength(deps: TurnDeps, calls: ToolCall[]): number {
  const end = calls.findIndex((call) => !deps.builtIns.get(call.name)?.parallelSafe || deps.plugins?.tool(call.name));
  return end === -1 ? calls.length : end;
}

/** The wave's calls at once; their results are announced in the model's order (upstream's ordered wave). */
function runWave(deps: TurnDeps, scope: RunScope, wave: ToolCall[]): Promise<ToolOutcome[]> {
  const ordered: TurnDeps = { ...deps, announce: inModelOrder(callAnnouncer(deps), wave) };
  return Promise.all(wave.map((call) => runOffered(ordered, scope, call)));
}

/** Checks the call against the tools offered now, as upstream does per call: load_tools may have added some. */
function runOffered(deps: TurnDeps, scope: RunScope, call: ToolCall): Promise<ToolOutcome> {
  return runToolCall(deps, scope, call, deps.tools().callable);
}

function recordResult(deps: TurnDeps, call: ToolCall, outcome: ToolOutcome): void {
  deps.usage.recordTool(call.name);
  deps.conversation.append({ role: 'tool', tool_call_id: call.id, content: outcome.output });
}

async function streamOnce(deps: TurnDeps, scope: RunScope, input: TurnInput): Promise<StreamResult | 'cancelled' | 'failed'> {
  const base: ChatMessage[] = [{ role: 'system', content: deps.systemPrompt() }, ...deps.conversation.all];
  const messages = deps.beforeRequest ? await deps.beforeRequest(base) : base;
  const partial = { text: '' };
  try {
    return await streamChat(
      {
        provider: input.provider,
        model: input.model,
        messages,
        tools: deps.tools().offered,
        reasoningEffort: input.modelInfo?.reasoning === false ? undefined : input.reasoningEffort,
        maxTokens: input.modelInfo?.max_tokens,
        signal: scope.signal,
        idleTimeoutMs: deps.idleTimeoutMs,
      },
      (e) => {
        if (e.type === 'text') partial.text += e.text;
        else if (e.type === 'retry' && e.discardPartial) partial.text = '';
        forwardStreamEvent(deps, e);
      },
    );
  } catch (err) {
    if (scope.cancelled || (err instanceof ProviderError && err.kind === 'cancelled')) {
      keepInterruptedText(deps.conversation, scope, partial.text);
      return 'cancelled';
    }
    const message = scrubText((err as Error).message, deps.secrets());
    const code = err instanceof ProviderError ? (err.kind === 'auth' ? 'auth_error' : 'provider_error') : 'internal_error';
    const until = err instanceof ProviderError ? err.rateLimitedUntil : undefined;
    deps.emit({
      type: 'error',
      code,
      message: code === 'auth_error' ? `${message} — ${authAdvice(input.provider)}` : message,
      ...(until === undefined ? {} : { rate_limited_until: rateLimitedUntilSeconds(until) }),
    });
    return 'failed';
  }
}

/** A keyless local server that refuses the request wants a key after all; a keyed one got a wrong key. */
function authAdvice(provider: ResolvedProvider): string {
  if (provider.apiKey) return 'check the API key (log in again)';
  return `no API key was sent, because '${provider.name}' has none; if this endpoint needs one, log in to '${provider.name}' again with its key`;
}

/**
 * The user saw the streamed text of a reply they interrupted (abort, steer): keep it in the conversation, marked, so the
 * transcript after a reload and the model's next context both match what happened. Not for reset/session switches,
 * whose conversation is gone.
 */
function keepInterruptedText(conversation: Conversation, scope: RunScope, text: string): void {
  if (!text.trim() || (scope.cancelReason !== 'abort' && scope.cancelReason !== 'steering')) return;
  conversation.append({ role: 'assistant', content: `${text}\n\n[interrupted by the user]` });
}

function forwardStreamEvent(deps: TurnDeps, e: StreamEvent): void {
  switch (e.type) {
    case 'text':
      return deps.emit({ type: 'delta', text: e.text });
    case 'reasoning':
      return deps.emit({ type: 'thinking', text: e.text });
    case 'tool_call_start':
      return deps.emit({ type: 'tool_call_start', id: e.id, index: e.index });
    case 'tool_call_name':
      return deps.emit({ type: 'tool_call_name', index: e.index, name: e.name });
    case 'tool_call_args':
      return deps.emit({ type: 'tool_call_args', index: e.index, args: e.args });
    case 'retry':
      return deps.emit({
        type: 'http_retry',
        attempt: e.attempt,
        status: e.status,
        reason: e.reason,
        ...(e.detail !== undefined ? { detail: e.detail } : {}),
        backoff_ms: e.backoffMs,
        discard_partial: e.discardPartial,
      });
  }
}

function userMessage(input: TurnInput, deps: TurnDeps): ChatMessage {
  if (!input.images?.length) return { role: 'user', content: input.prompt };
  return { role: 'user', content: [{ type: 'text', text: input.prompt }, ...input.images.map((ref) => deps.imagePart(ref))] };
}

/** The assistant message of a model reply, as the history keeps it (a child's conversation too). */
export function assistantMessage(r: StreamResult): ChatMessage {
  const m: ChatMessage = { role: 'assistant', content: r.text || null };
  if (r.reasoning) m.reasoning_content = r.reasoning;
  if (r.toolCalls.length)
    m.tool_calls = r.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
  return m;
}

/** Keeps the history valid for providers: every tool call gets a result, even one that never ran (cancelled, or after finish). */
function answerRemaining(conversation: Conversation, calls: { id: string; name: string }[], why = 'was cancelled'): void {
  for (const c of calls) conversation.append({ role: 'tool', tool_call_id: c.id, content: `tool call '${c.name}' ${why}` });
}

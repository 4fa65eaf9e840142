/**
 * Runs child agents for the `subagent` tool (upstream's `run_agent`, research A:239-330): each child has its own
 * conversation, streams on its own signal, runs its tools through the gate in child mode, and reports through the
 * `subagent_*` events of §1 of the plan. The host is bound to its calling run; a child that may nest gets a host of its own.
 */
import type { ModelInfo } from '../../protocol';
import { subagentTarget } from '../../protocol/subagents';
import type { AgentDefinition } from '../agents/types';
import { bridgeActive, childToolNames } from '../agents/childTools';
import type { SubagentSettings } from '../config/coreConfig';
import type { IntercomBus } from '../intercom/intercomBus';
import { ORCHESTRATOR } from '../intercom/intercomBus';
import { ProviderError, type ChatMessage, type ResolvedProvider, type StreamResult, type ToolSchema } from '../providers/types';
import { streamChat } from '../providers/stream';
import { ChildScope } from '../runtime/childScope';
import type { ChildEvent, EventSink } from '../runtime/eventSink';
import { scrubText } from '../runtime/redact';
import type { RunScope } from '../runtime/runScope';
import type { RunRecord } from '../sessions/sessionTypes';
import { getTool } from '../tools/registry';
import type { ToolContext, ToolOutcome } from '../tools/types';
import { childMessages } from './childConversation';
import { manageChildContext } from './childContext';
import {
  allocateRunId,
  type ChildGroup,
  type ChildResult,
  type ChildSpec,
  type GroupSpec,
  type SubagentHost,
  type SubagentRunInfo,
} from './subagentHost';
import { PEEK_ITEMS, type SubagentRegistry } from './subagentRegistry';
import { assistantMessage } from './turnRunner';
import { runToolCall, type ApprovalState, type CallAnnouncer, type GateDeps, type ToolCall } from './toolGate';
import type { UsageTracker } from './usageTracker';

export const CHILD_TOOL_CALL_CAP = 200;
export const CHILD_MODEL_ROUNDS = 200;
export const MESSAGE_BYTES = 16000;
export const RESULT_BYTES = 8000;
export const SUMMARY_CHARS = 800;
export const RECORD_DETAIL_BYTES = 24 * 1024;
export const ABORTED = '[subagent aborted]';
export const NO_SUMMARY = '(step finished with no written summary)';
export const TOOL_CAP_MESSAGE = `subagent exceeded the per-run tool-call cap (${CHILD_TOOL_CALL_CAP}); aborting to bound cost. Re-decompose into smaller subagent runs.`;
/** The call id of the write of an agent's `output` file. */
export const OUTPUT_CALL_ID = 'output';
export const NO_MODEL_MESSAGE = 'no model resolved for subagent (set agent model or a default)';

/** What the model and its provider are, for a child's requests. */
export interface ModelRoute {
  model: string;
  provider: ResolvedProvider;
  modelInfo?: ModelInfo;
}

/** What a child run needs of the core (CoreRuntime in production, fakes in tests). */
export interface ChildEnv {
  sink: EventSink;
  registry: SubagentRegistry;
  approvals: ApprovalState;
  /** The session's usage: a child's tokens are added to it. */
  usage: () => UsageTracker;
  secrets(): string[];
  idleTimeoutMs: number;
  settings: SubagentSettings;
  agents(): AgentDefinition[];
  /** The root turn's model: a child without a model of its own runs on it. */
  parentModel: ModelRoute;
  /** The provider of another model, or undefined when none serves it. */
  route(model: string): ModelRoute | undefined;
  /** The shared base system prompt (the project context). */
  basePrompt(): string;
  /** The main conversation, for a forked child. */
  parentMessages(): readonly ChatMessage[];
  /** The base tool context of a child: its signal and workspace (confinement), not yet its host or intercom. */
  toolContext(child: ChildScope, workspace: string | undefined, editedContent?: string): ToolContext;
  refuseTool(name: string): string | undefined;
  recordRun(record: RunRecord): void;
  intercom?: IntercomBus;
  /** Compaction of a child's own context (the session's `auto_compact`, on unless false) and its instructions. */
  autoCompact?: boolean;
  compactInstructions?: string;
  /** A test seam; the provider client by default. */
  stream?: typeof streamChat;
}

/** The calling run a host serves. */
export interface HostCaller {
  root: RunScope;
  /** The calling child, or undefined for the foreground run. */
  child?: ChildScope;
  depth: number;
  /** The nesting limit of the caller's subtree. */
  maxDepth: number;
  /** The calling child's conversation, which its forked children inherit; the main conversation by default. */
  messages?: () => readonly ChatMessage[];
}

/** The host a tool of the calling run gets in ToolContext.subagents. */
export function createSubagentHost(env: ChildEnv, caller: HostCaller): SubagentHost {
  const callerRunId = caller.child?.runId ?? caller.root.runId;
  const callerSignal = caller.child?.signal ?? caller.root.signal;
  /** The signal a new run follows: its parent's (a batch, a chain, the calling child), else the caller's. */
  const parentSignal = (parentRunId: string): AbortSignal => env.registry.get(parentRunId)?.scope.signal ?? callerSignal;
  return {
    runId: callerRunId,
    depth: caller.depth,
    settings: { ...env.settings, maxDepth: caller.maxDepth },
    allocateRunId,
    agents: () => env.agents(),
    info: (message) =>
      caller.child
        ? env.sink.emitInChild(caller.child, { type: 'info', message })
        : env.sink.emitInRun(caller.root, { type: 'info', message }),
    emitWorktree: (event) => env.sink.emitInChild(caller.child ?? eventScopeOf(caller), event),
    runChild: (spec) => runChild(env, caller, parentSignal(spec.parentRunId), spec),
    openGroup: (spec) => openGroup(env, caller, parentSignal(spec.parentRunId ?? callerRunId), spec),
    runs: () =>
      env.registry
        .list()
        .map(({ scope: _scope, ...info }) => info)
        .sort((a, b) => a.startedAt - b.startedAt),
    interrupt: (runId) => env.registry.interrupt(env.approvals.broker, runId),
    steer: (runId, message) => {
      const run = env.registry.live(runId);
      if (!run?.target || !env.intercom) return false;
      env.intercom.send(ORCHESTRATOR, run.target, message);
      return true;
    },
  };
}

/**
 * The foreground caller as a child-event scope: its events keep their own run_id (a child's worktree events) and go
 * stale with the root run. Released at once: staleness is read from the root, so it needs no listener.
 */
function eventScopeOf(caller: HostCaller): ChildScope {
  const scope = new ChildScope(caller.root.runId, '', caller.root, '', caller.depth, caller.root.signal);
  scope.release();
  return scope;
}

function openGroup(env: ChildEnv, caller: HostCaller, parentSignal: AbortSignal, spec: GroupSpec): ChildGroup {
  const parentRunId = spec.parentRunId ?? caller.child?.runId ?? caller.root.runId;
  const scope = new ChildScope(spec.runId, parentRunId, caller.root, '', caller.depth + 1, parentSignal);
  env.registry.add({ scope, agent: '', agents: spec.agents, mode: spec.mode, task: spec.task });
  const startedAt = Date.now();
  env.sink.emitInChild(scope, {
    type: 'subagent_start',
    run_id: spec.runId,
    mode: spec.mode,
    agents: spec.agents,
    task: spec.task,
    depth: caller.depth + 1,
    started_at: startedAt,
    parent_run_id: parentRunId,
    tool_call_id: spec.toolCallId,
  });
  recordRun(env, scope, spec.toolCallId, 'started', spec.mode);
  let finished = false;
  return {
    runId: spec.runId,
    signal: scope.signal,
    finish(state) {
      if (finished) return;
      finished = true;
      env.registry.end(spec.runId, state);
      scope.release();
      recordRun(env, scope, spec.toolCallId, state, spec.mode);
      emitEnd(env, scope, {
        type: 'subagent_done',
        run_id: spec.runId,
        state,
        ended_at: Date.now(),
        duration_ms: Date.now() - startedAt,
        parent_run_id: parentRunId,
      });
    },
  };
}

/** A run's last event: it is sent even when the run itself was interrupted, but not once its root run was cancelled. */
function emitEnd(env: ChildEnv, scope: ChildScope, event: ChildEvent): void {
  env.sink.endChild(scope);
  env.sink.emitChildEnd(scope, event);
}

function recordRun(env: ChildEnv, scope: ChildScope, toolCallId: string, state: RunRecord['state'], detail: string): void {
  env.recordRun({
    session_id: scope.sessionId,
    run_id: scope.runId,
    kind: 'subagent',
    parent_run_id: scope.parentRunId,
    tool_call_id: toolCallId,
    state,
    timestamp_ms: Date.now(),
    detail: capBytes(detail, RECORD_DETAIL_BYTES, ''),
  });
}

/** One child run, start to `subagent_done`; never throws. */
async function runChild(env: ChildEnv, caller: HostCaller, parentSignal: AbortSignal, spec: ChildSpec): Promise<ChildResult> {
  const target = subagentTarget(spec.runId, spec.agent.name);
  const scope = new ChildScope(spec.runId, spec.parentRunId, caller.root, target, spec.depth, parentSignal);
  if (spec.signal) followSignal(spec.signal, scope);
  // A batch cancelled before this child's turn came: it never starts (no events, no records).
  if (scope.cancelled) {
    scope.release();
    return aborted();
  }
  const entry = env.registry.add({ scope, agent: spec.agent.name, agents: [spec.agent.name], mode: 'single', task: spec.task });
  env.intercom?.register(target);
  const run = new ChildRun(env, scope, spec, entry, caller.messages ?? (() => env.parentMessages()));
  let result: ChildResult;
  try {
    result = await run.run();
  } catch (err) {
    result = scope.cancelled
      ? { ok: false, output: ABORTED, state: 'cancelled' }
      : { ok: false, output: `subagent failed: ${scrubText((err as Error).message, env.secrets())}`, state: 'failed' };
  } finally {
    env.intercom?.unregister(target);
    scope.release();
  }
  env.registry.end(spec.runId, result.state);
  run.end(result);
  return result;
}

function followSignal(signal: AbortSignal, scope: ChildScope): void {
  if (signal.aborted) scope.cancel();
  else signal.addEventListener('abort', () => scope.cancel(), { once: true });
}

class ChildRun {
  private readonly startedAt = Date.now();
  private toolCount = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  private cachedTokens = 0;
  private readonly target: string;

  /** The child's conversation so far, for its own forked children. */
  private messages: readonly ChatMessage[] = [];

  constructor(
    private readonly env: ChildEnv,
    private readonly scope: ChildScope,
    private readonly spec: ChildSpec,
    /** What `status` and `peek` report of this run, kept current. */
    private readonly info: SubagentRunInfo,
    private readonly parentMessages: () => readonly ChatMessage[],
  ) {
    this.target = scope.target;
  }

  private note(list: 'lastTurns' | 'lastTools', item: string): void {
    this.info[list] = [...this.info[list], item].slice(-PEEK_ITEMS);
  }

  private emit(event: ChildEvent): void {
    this.env.sink.emitInChild(this.scope, event);
  }

  private progress(phase: string, extra: { tool?: string; ok?: boolean } = {}): void {
    const zero = phase === 'start' || phase === 'done';
    this.emit({
      type: 'subagent_progress',
      run_id: this.scope.runId,
      agent: this.spec.agent.name,
      phase,
      tool: extra.tool ?? null,
      tool_count: zero ? 0 : this.toolCount,
      ...(extra.ok !== undefined ? { ok: extra.ok } : {}),
      elapsed_ms: zero ? 0 : Date.now() - this.startedAt,
      tokens_in: zero ? 0 : this.tokensIn,
      tokens_out: zero ? 0 : this.tokensOut,
    });
  }

  async run(): Promise<ChildResult> {
    const { spec, scope } = this;
    const routes = this.modelRoutes();
    this.emit({
      type: 'subagent_start',
      run_id: scope.runId,
      mode: 'single',
      agent: spec.agent.name,
      agents: [spec.agent.name],
      task: spec.task,
      depth: spec.depth,
      started_at: this.startedAt,
      parent_run_id: spec.parentRunId,
      tool_call_id: spec.toolCallId,
      ...(routes.length ? { model: routes[0].model } : {}),
    });
    recordRun(this.env, scope, spec.toolCallId, 'started', spec.agent.name);
    this.emit({ type: 'subagent_message', run_id: scope.runId, role: 'user', content: spec.task });
    this.progress('start');
    if (!routes.length) return { ok: false, output: NO_MODEL_MESSAGE, state: 'failed' };
    const tools = this.toolNames();
    const messages = childMessages({
      agent: spec.agent,
      task: spec.task,
      context: spec.context,
      basePrompt: this.env.basePrompt(),
      bridge: this.bridged() ? bridgeText(scope.target) : undefined,
      parentMessages: spec.context === 'fork' ? this.parentMessages() : [],
      workspace: this.workspace,
      secrets: this.env.secrets(),
    });
    return this.loop(messages, routes, tools);
  }

  private get workspace(): string {
    return this.spec.workspace ?? this.env.toolContext(this.scope, undefined).workspace;
  }

  private async loop(messages: ChatMessage[], routes: ModelRoute[], tools: string[]): Promise<ChildResult> {
    const offered = new Set(tools);
    const schemas = tools.flatMap((name) => getTool(name)?.schema ?? []);
    this.messages = messages;
    const gate = this.gateDeps();
    for (let round = 0; round < CHILD_MODEL_ROUNDS; round++) {
      if (this.scope.cancelled) return aborted();
      this.drainSteering(messages);
      const tooLarge = await this.manageContext(messages, routes[this.route]);
      if (this.scope.cancelled) return aborted();
      if (tooLarge) return { ok: false, output: tooLarge, state: 'failed' };
      const reply = await this.streamWithFallback(messages, schemas, routes);
      if (!('toolCalls' in reply)) return reply;
      this.countTokens(reply);
      this.progress('streaming');
      if (reply.text.trim()) {
        this.emit({ type: 'subagent_message', run_id: this.scope.runId, role: 'assistant', content: capBytes(reply.text, MESSAGE_BYTES) });
        this.note('lastTurns', capBytes(reply.text, MESSAGE_BYTES));
      }
      messages.push(assistantMessage(reply));
      this.info.messagesCount = messages.length;
      if (reply.toolCalls.length === 0) return this.finished(messages, routes[this.route].model, gate);
      const ended = await this.runTools(gate, reply.toolCalls, offered, messages);
      if (ended === 'finish') return this.finished(messages, routes[this.route].model, gate);
      if (ended) return ended;
    }
    return { ok: false, output: `subagent used ${CHILD_MODEL_ROUNDS} model rounds without finishing`, state: 'failed' };
  }

  private manageContext(messages: ChatMessage[], route: ModelRoute): Promise<string | undefined> {
    return manageChildContext({
      messages,
      route,
      task: this.spec.task,
      autoCompact: this.env.autoCompact !== false,
      instructions: this.env.compactInstructions,
      signal: this.scope.signal,
      idleTimeoutMs: this.env.idleTimeoutMs,
      secrets: this.env.secrets(),
      // The child's own run_id (upstream's carries the foreground run's): a client tells a child's compaction from the session's.
      emit: (event) => this.emit({ ...event, run_id: this.scope.runId } as ChildEvent),
      stream: this.env.stream,
    });
  }

  /** The candidate model in use: a failed request moves on to the next one for good. */
  private route = 0;

  /** One model request; on a stream error the next candidate model is tried (an abort never is). */
  private async streamWithFallback(
    messages: ChatMessage[],
    schemas: ToolSchema[],
    routes: ModelRoute[],
  ): Promise<StreamResult | ChildResult> {
    for (;;) {
      try {
        return await this.streamOnce(messages, schemas, routes[this.route]);
      } catch (err) {
        if (this.scope.cancelled || (err instanceof ProviderError && err.kind === 'cancelled')) return aborted();
        const why = scrubText((err as Error).message, this.env.secrets());
        const next = routes[this.route + 1];
        if (!next) return { ok: false, output: `subagent stream error: ${why}`, state: 'failed' };
        this.emit({
          type: 'info',
          message: `subagent model '${routes[this.route].model}' failed (${why}); falling back to '${next.model}'`,
        });
        this.route++;
      }
    }
  }

  /** Runs one reply's tool calls in order; a result when the run ends here, 'finish' after `finish`, else undefined. */
  private async runTools(
    gate: GateDeps,
    calls: ToolCall[],
    offered: ReadonlySet<string>,
    messages: ChatMessage[],
  ): Promise<ChildResult | 'finish' | undefined> {
    for (const [i, call] of calls.entries()) {
      if (this.scope.cancelled) {
        answerRemaining(messages, calls.slice(i), ABORTED);
        return aborted();
      }
      if (++this.toolCount > CHILD_TOOL_CALL_CAP) {
        answerRemaining(messages, calls.slice(i), TOOL_CAP_MESSAGE);
        return { ok: false, output: TOOL_CAP_MESSAGE, state: 'failed' };
      }
      const outcome = await runToolCall(gate, this.scope, call, offered);
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: outcome.status === 'cancelled' && this.scope.cancelled ? ABORTED : outcome.output,
      });
      if (outcome.ok && outcome.endsTurn) {
        answerRemaining(messages, calls.slice(i + 1), 'was not run: the subagent had finished');
        return 'finish';
      }
    }
    return this.scope.cancelled ? aborted() : undefined;
  }

  private async finished(messages: ChatMessage[], model: string, gate: GateDeps): Promise<ChildResult> {
    const text = lastAssistantText(messages) || NO_SUMMARY;
    const written = await this.writeOutput(gate, text);
    if (written.status === 'cancelled' && this.scope.cancelled) return aborted();
    const cached = this.cachedTokens > 0 && this.tokensIn > 0 ? ` (${Math.round((this.cachedTokens / this.tokensIn) * 100)}% cached)` : '';
    this.emit({ type: 'info', message: `subagent done (${model}): ${this.tokensIn}+${this.tokensOut}t${cached}` });
    return {
      ok: true,
      output: written.ok ? text : `${text}\n\n(${this.spec.agent.output} was not written: ${written.output})`,
      state: 'completed',
    };
  }

  /**
   * The agent's `output` file gets the final text: unlike upstream's unconfined write, a `write_file` call of the child
   * through its gate (confined, approved and announced like its other calls).
   */
  private async writeOutput(gate: GateDeps, text: string): Promise<ToolOutcome> {
    const path = this.spec.agent.output;
    if (!path) return { ok: true, output: '', status: 'success', fileChanges: [] };
    const call = { id: OUTPUT_CALL_ID, name: 'write_file', arguments: JSON.stringify({ path, content: text }) };
    return runToolCall(gate, this.scope, call, new Set(['write_file']));
  }

  /** The run's `progress{done}` and `subagent_done`, and its session record. */
  end(result: ChildResult): void {
    if (!this.scope.cancelled) this.progress('done');
    recordRun(this.env, this.scope, this.spec.toolCallId, result.state, result.output);
    const summary =
      (this.spec.mode ?? 'single') === 'single' ? { summary: capChars(result.output.trim() || NO_SUMMARY, SUMMARY_CHARS) } : {};
    emitEnd(this.env, this.scope, {
      type: 'subagent_done',
      run_id: this.scope.runId,
      state: result.state,
      ended_at: Date.now(),
      duration_ms: Date.now() - this.startedAt,
      parent_run_id: this.spec.parentRunId,
      ...summary,
    });
  }

  private async streamOnce(messages: ChatMessage[], tools: ToolSchema[], route: ModelRoute): Promise<StreamResult> {
    const stream = this.env.stream ?? streamChat;
    return stream(
      {
        provider: route.provider,
        model: route.model,
        messages,
        tools,
        reasoningEffort: route.modelInfo?.reasoning === false ? undefined : this.spec.agent.thinking || 'medium',
        maxTokens: route.modelInfo?.max_tokens,
        signal: this.scope.signal,
        idleTimeoutMs: this.env.idleTimeoutMs,
      },
      (e) => {
        if (e.type === 'text' && e.text) this.emit({ type: 'subagent_delta', run_id: this.scope.runId, text: e.text });
      },
    );
  }

  private countTokens(reply: StreamResult): void {
    const { promptTokens, completionTokens, cachedTokens } = reply.usage;
    this.tokensIn += promptTokens;
    this.tokensOut += completionTokens;
    this.cachedTokens += cachedTokens;
    this.info.estimatedTokens = this.tokensIn + this.tokensOut;
    const usage = this.env.usage();
    usage.tokensIn += promptTokens;
    usage.tokensOut += completionTokens;
    usage.cachedTokens += cachedTokens;
  }

  /** Steering posted to the child's mailbox by the orchestrator, read at the top of each round. */
  private drainSteering(messages: ChatMessage[]): void {
    for (const envelope of this.env.intercom?.drainFrom(this.target, ORCHESTRATOR) ?? []) {
      const content = `Orchestrator: ${envelope.message}`;
      messages.push({ role: 'user', content });
      this.emit({ type: 'subagent_message', run_id: this.scope.runId, role: 'system', content });
      this.progress('steered');
    }
  }

  /** The tool's model, the agent's, its fallbacks, else the parent's; each with the provider that serves it. */
  private modelRoutes(): ModelRoute[] {
    const { spec, env } = this;
    const named = [...new Set([spec.model, spec.agent.model, ...spec.agent.fallbackModels].filter((m): m is string => !!m))];
    if (!named.length) return [env.parentModel];
    return named.flatMap((m) => (m === env.parentModel.model ? [env.parentModel] : (env.route(m) ?? [])));
  }

  /** The intercom bridge is on for this child: a bus exists, and `subagents.intercomBridge.mode` allows it. */
  private bridged(): boolean {
    return !!this.env.intercom && bridgeActive(this.env.settings.intercomBridge, this.spec.context);
  }

  private toolNames(): string[] {
    return childToolNames(this.spec.agent, {
      depth: this.spec.depth,
      maxDepth: this.spec.maxDepth,
      bridge: this.bridged(),
      has: (name) => !!getTool(name),
    });
  }

  private gateDeps(): GateDeps {
    const { env, scope, spec } = this;
    const nested = createSubagentHost(env, {
      root: scope.root,
      child: scope,
      depth: spec.depth,
      maxDepth: spec.maxDepth,
      messages: () => this.messages,
    });
    const context = (edited?: string): ToolContext => ({
      ...env.toolContext(scope, spec.workspace, edited),
      depth: spec.depth,
      subagents: nested,
      ...(env.intercom ? { intercom: { target: scope.target, bus: env.intercom } } : {}),
    });
    return {
      approvals: env.approvals,
      emit: (event) => env.sink.emitInChild(scope, event),
      // The parent's `subagent` call was approved and took the turn's automatic checkpoint.
      beforeDestructive: async () => undefined,
      toolContext: context,
      refuseTool: (name) => env.refuseTool(name),
      announce: this.announcer(),
      child: { agent: spec.agent.name, target: scope.target, ...(spec.workspace ? { worktree: true as const } : {}) },
    };
  }

  /** `progress{tool}` and `subagent_tool_call` before the gate, `progress{tool_end}` and `subagent_tool_result` after. */
  private announcer(): CallAnnouncer {
    const runId = this.scope.runId;
    return {
      started: (call, args) => {
        this.note('lastTools', call.name);
        this.progress('tool', { tool: call.name });
        this.emit({ type: 'subagent_tool_call', run_id: runId, call_id: call.id, name: call.name, args, tool_count: this.toolCount });
      },
      finished: (call, outcome: ToolOutcome) => {
        this.progress('tool_end', { tool: call.name, ok: outcome.ok });
        this.emit({
          type: 'subagent_tool_result',
          run_id: runId,
          call_id: call.id,
          name: call.name,
          ok: outcome.ok,
          result: capBytes(outcome.output, RESULT_BYTES),
        });
      },
    };
  }
}

const aborted = (): ChildResult => ({ ok: false, output: ABORTED, state: 'cancelled' });

/** Instructions of the intercom bridge, appended to a child's system prompt. */
function bridgeText(target: string): string {
  return [
    `You are a subagent; your intercom target is '${target}'. Your supervisor is '${ORCHESTRATOR}'.`,
    'Any inherited parent context is for reference only: your task is the last message.',
    'Use contact_supervisor with reason "need_decision" before a decision you are not authorised to make (then wait for the reply), and "progress_update" to report progress; intercom is for messages to your peers.',
  ].join('\n');
}

function lastAssistantText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && typeof m.content === 'string' && m.content.trim()) return m.content;
  }
  return '';
}

function answerRemaining(messages: ChatMessage[], calls: { id: string; name: string }[], text: string): void {
  for (const c of calls)
    messages.push({ role: 'tool', tool_call_id: c.id, content: text.startsWith('was') ? `tool call '${c.name}' ${text}` : text });
}

/** At most `max` UTF-8 bytes, cut on a character boundary, with `mark` when cut. */
export function capBytes(text: string, max: number, mark = '…'): string {
  if (Buffer.byteLength(text) <= max) return text;
  let cut = Buffer.from(text).subarray(0, max).toString('utf8');
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return cut + mark;
}

function capChars(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + '…';
}

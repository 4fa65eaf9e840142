/**
 * One child run's loop (upstream's child loop, research §1.5): context management, a quiet model round with model
 * fallback, its tool calls through the gate in child mode, and its final text; reported through the `subagent_*` events.
 */
import { bridgeActive, childToolNames } from '../agents/childTools';
import { ORCHESTRATOR } from '../intercom/intercomBus';
import { ProviderError, type ChatMessage, type StreamResult, type ToolSchema } from '../providers/types';
import { streamChat } from '../providers/stream';
import type { ChildScope } from '../runtime/childScope';
import type { ChildEvent } from '../runtime/eventSink';
import { scrubText } from '../runtime/redact';
import type { ToolContext, ToolOutcome } from '../tools/types';
import { childMessages } from './childConversation';
import { capBytes, NO_SUMMARY } from '../platform/textCaps';
import { ChildDeltas } from './childDeltas';
import { manageChildContext } from './childContext';
import type { ChildEnv, HostCaller, ModelRoute } from './childEnv';
import { emitEnd, recordRun } from './childRecords';
import { answerRemaining, bridgeText, lastAssistantText, MESSAGE_BYTES, RESULT_BYTES, runSummary } from './childText';
import type { ChildResult, ChildSpec, SubagentHost, SubagentRunInfo } from '../agents/subagentHost';
import { PEEK_ITEMS } from './subagentRegistry';
import { assistantMessage } from '../agent/turnRunner';
import { roundUsd } from '../pricing/costLedger';
import { runToolCall, type CallAnnouncer, type GateDeps, type ToolCall } from '../agent/toolGate';

export const CHILD_TOOL_CALL_CAP = 200;
export const CHILD_MODEL_ROUNDS = 200;
export const ABORTED = '[subagent aborted]';
export const TOOL_CAP_MESSAGE = `subagent exceeded the per-run tool-call cap (${CHILD_TOOL_CALL_CAP}); aborting to bound cost. Re-decompose into smaller subagent runs.`;
/** The call id of the write of an agent's `output` file. */
export const OUTPUT_CALL_ID = 'output';
export const NO_MODEL_MESSAGE = 'no model resolved for subagent (set agent model or a default)';

export class ChildRun {
  private readonly startedAt = Date.now();
  private toolCount = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  private cachedTokens = 0;
  /** This run's own requests priced; null once one had no known price. */
  private usd: number | null = 0;
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
    /** The host of this child's own tools (createSubagentHost), for the children it may start. */
    private readonly nestedHost: (caller: HostCaller) => SubagentHost,
  ) {
    this.target = scope.target;
  }

  private note(list: 'lastTurns' | 'lastTools', item: string): void {
    this.info[list] = [...this.info[list], item].slice(-PEEK_ITEMS);
  }

  private readonly deltas = new ChildDeltas((text) =>
    this.env.sink.emitInChild(this.scope, { type: 'subagent_delta', run_id: this.scope.runId, text }),
  );

  private emit(event: ChildEvent): void {
    this.deltas.flush();
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
    recordRun(this.env, scope, spec.toolCallId, 'started', spec.agent.name, { mode: 'single', task: spec.task });
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
      skills: spec.agent.skills.length ? this.env.skillsBlock?.(spec.agent.skills) : undefined,
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
    const schemas = tools.flatMap((name) => this.env.builtIns.get(name)?.schema ?? []);
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
      this.countTokens(reply, routes[this.route]);
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
    emitEnd(this.env, this.scope, {
      type: 'subagent_done',
      run_id: this.scope.runId,
      state: result.state,
      ended_at: Date.now(),
      duration_ms: Date.now() - this.startedAt,
      parent_run_id: this.spec.parentRunId,
      // Every child's, a batch's and a chain's included: each is a single run (upstream's run_single).
      summary: runSummary(result.output),
      estimated_usd: this.usd === null ? null : roundUsd(this.usd),
    });
  }

  private async streamOnce(messages: ChatMessage[], tools: ToolSchema[], route: ModelRoute): Promise<StreamResult> {
    const stream = this.env.stream ?? streamChat;
    try {
      return await stream(
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
          if (e.type === 'text') this.deltas.push(e.text);
        },
      );
    } finally {
      this.deltas.flush();
    }
  }

  private countTokens(reply: StreamResult, route: ModelRoute): void {
    const { promptTokens, completionTokens, cachedTokens } = reply.usage;
    this.tokensIn += promptTokens;
    this.tokensOut += completionTokens;
    this.cachedTokens += cachedTokens;
    this.info.estimatedTokens = this.tokensIn + this.tokensOut;
    const cost = this.env.usage().recordChildResponse(route.provider.name, route.model, reply.usage);
    this.usd = this.usd === null || cost === undefined ? null : this.usd + cost;
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
      tools: this.env.builtIns,
    });
  }

  private gateDeps(): GateDeps {
    const { env, scope, spec } = this;
    const nested = this.nestedHost({
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
      builtIns: env.builtIns,
      emit: (event) => env.sink.emitInChild(scope, event),
      // The parent's `subagent` call was approved and took the turn's automatic checkpoint.
      beforeDestructive: async () => undefined,
      toolContext: context,
      refuseTool: (name) => env.refuseTool(name),
      ...(env.plugins ? { plugins: env.plugins } : {}),
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

export const aborted = (): ChildResult => ({ ok: false, output: ABORTED, state: 'cancelled' });

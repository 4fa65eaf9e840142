import type { CommandOf } from '../../protocol';
import { createSubagentHost, type ModelRoute } from '../subagents/childRunner';
import { runTurn, type TurnDeps, type TurnInput, type TurnOutcome } from '../agent/turnRunner';
import { type AdvisorReview, reviewReply } from '../agent/advisor';
import type { CoreRuntime } from '../app/coreRuntime';
import type { QueuedPrompt } from '../runtime/runCoordinator';
import type { RunScope } from '../runtime/runScope';
import type { ToolContext, ToolDefinition } from '../tools/types';
import { imagePart } from '../agent/images';
import { expandFileMentions } from '../agent/fileMentions';
import { compactConversation, needsCompaction } from '../agent/compaction';
import type { ResolvedProvider } from '../providers/types';
import { scrubText } from '../runtime/redact';
import { badCommandField, type FieldSpec } from './commandFields';
import { contextWindow } from './statusCommands';
import { createAutoCheckpoint } from './checkpointCommands';
import { refreshRules } from '../rules/rulesEvent';
import { InputDeniedError } from '../plugins/turnHooks';
import { routeImageTurn } from '../vision/imageTurn';
import { turnCostRecord } from '../sessions/historyTurnCosts';
import type { TurnCostRecord } from '../sessions/sessionTypes';
import { startJittered } from '../runtime/testJitter';

/** The turn ended before its model was asked; the reason has been emitted. */
class TurnStopped extends Error {}

/** `send`: starts a turn, or queues it one deep while a turn is running (research §1.3 "Turn queueing"). */
export function handleSend(rt: CoreRuntime, cmd: CommandOf<'send'>): void {
  const prompt = toQueued(rt, cmd);
  if (prompt) startOrQueue(rt, prompt);
}

/** Starts the prompt's turn now, or queues it one deep behind the running one (`send`, `apply_skill`). */
export function startOrQueue(rt: CoreRuntime, prompt: QueuedPrompt): void {
  if (rt.runs.active) {
    if (rt.runs.queued) {
      rt.emit({ type: 'error', code: 'queue_full', message: 'a prompt is already queued; send abort first or wait' });
      return;
    }
    rt.runs.queued = prompt;
    rt.emit({ type: 'info', message: 'prompt queued; will run after the current turn' });
    return;
  }
  startTurn(rt, prompt);
}

/** `steer`: interrupts the running turn and starts a new one with this prompt; without a running turn it is a send. */
export function handleSteer(rt: CoreRuntime, cmd: CommandOf<'steer'>): void {
  const prompt = toQueued(rt, { ...cmd, images: undefined });
  if (!prompt) return;
  rt.emit({ type: 'steer', prompt: prompt.prompt });
  if (cancelActive(rt, 'steering')) rt.emit({ type: 'aborted' });
  startTurn(rt, prompt);
}

export function handleAbort(rt: CoreRuntime): void {
  rt.runs.queued = undefined;
  cancelActive(rt, 'abort');
  rt.emit({ type: 'aborted' });
}

export function handleClearQueue(rt: CoreRuntime): void {
  const had = !!rt.runs.queued;
  rt.runs.queued = undefined;
  rt.emit({ type: 'info', message: had ? 'queue cleared' : 'queue already empty' });
}

/**
 * Cancels the active run, if any, and every subagent under it, emitting `run_cancelled`; the run's and its children's
 * later events are dropped as stale, and their pending approvals can no longer be answered.
 */
export function cancelActive(rt: CoreRuntime, reason: Parameters<CoreRuntime['runs']['cancel']>[0]): RunScope | undefined {
  // The session's asks wake with `[session replaced]` before their children's signals abort (`[interrupted]`).
  if (SESSION_REPLACED.has(reason)) rt.intercom.reset();
  const scope = rt.runs.cancel(reason);
  if (!scope) return undefined;
  rt.subagents.cancelTree(rt.approvals.broker, scope);
  rt.approvals.broker.markStale(scope.runId);
  rt.emit({ type: 'run_cancelled', session_id: scope.sessionId, run_id: scope.runId, reason, duration_ms: Date.now() - scope.startedAt });
  return scope;
}

const SESSION_REPLACED: ReadonlySet<string> = new Set(['reset', 'clear', 'new_session', 'load_session']);

/** The fields of `send` and `steer` as upstream's structs type them (`steer` has no images: the caller drops them). */
const TURN_FIELDS: readonly FieldSpec[] = [
  { name: 'prompt', type: 'string', required: true },
  { name: 'model', type: 'string', required: true },
  { name: 'provider', type: 'string', required: false },
  { name: 'reasoning_effort', type: 'string', required: false },
  { name: 'images', type: 'string[]', required: false },
];

function toQueued(
  rt: CoreRuntime,
  cmd: { prompt?: unknown; model?: unknown; provider?: unknown; reasoning_effort?: unknown; images?: unknown },
): QueuedPrompt | undefined {
  const bad = badCommandField(cmd, TURN_FIELDS);
  if (bad) {
    rt.emit({ type: 'error', code: 'invalid_command', message: bad });
    return undefined;
  }
  if (typeof cmd.prompt !== 'string' || !cmd.prompt.trim()) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'prompt must be a non-empty string' });
    return undefined;
  }
  if (typeof cmd.model !== 'string' || !cmd.model) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'model is required' });
    return undefined;
  }
  return {
    prompt: cmd.prompt,
    model: cmd.model,
    provider: typeof cmd.provider === 'string' ? cmd.provider : undefined,
    reasoning_effort: typeof cmd.reasoning_effort === 'string' ? cmd.reasoning_effort : 'medium',
    images: Array.isArray(cmd.images) ? cmd.images.filter((i): i is string => typeof i === 'string') : undefined,
  };
}

/** What a special turn adds to an ordinary one (a goal's planning turn). */
export interface TurnExtras {
  /** Offered besides the usual tools, to this turn only. */
  tools?: readonly ToolDefinition[];
  /** Added to every tool call's context. */
  toolContext?: Partial<ToolContext>;
  /** When the turn has ended, before its `done` (also when it was cancelled, which sends no `done`). */
  onEnd?(scope: RunScope, outcome: TurnOutcome): void;
}

/** Starts a turn now (the caller has checked there is no active run or has cancelled it). */
export function startTurn(rt: CoreRuntime, q: QueuedPrompt, extras?: TurnExtras): void {
  // A model missing from the list is upstream's "unknown model: X" (checked first, as upstream does), whoever serves it.
  const known = rt.providers.models();
  if (known.length > 0 && !known.some((m) => m.id === q.model)) {
    rt.emit({ type: 'error', code: 'unknown_model', message: `unknown model: ${q.model}` });
    rt.emit({ type: 'done' });
    return;
  }
  const providerName = rt.providers.providerForModel(q.model, q.provider);
  const provider = providerName ? rt.providers.resolve(providerName) : undefined;
  if (!provider) {
    rt.emit({ type: 'error', code: 'no_provider', message: `no provider serves model '${q.model}'; log in or add a provider first` });
    rt.emit({ type: 'done' });
    return;
  }
  rt.lastModel = q.model;
  rt.lastEffort = q.reasoning_effort;
  rt.runs.start(rt.sessionId, 'turn', async (scope) => {
    // A rules file edited between turns counts from this turn on (and the client hears of it first); this also waits
    // for the first walk, when the turn was sent while it still ran.
    await refreshRules(rt).catch((err: Error) => rt.log(`rules refresh failed: ${err.stack ?? err}`));
    if (scope.cancelled) return;
    const record = (state: 'started' | 'completed' | 'cancelled' | 'failed', cost?: TurnCostRecord) =>
      rt.conversation.recordRun({
        session_id: scope.sessionId,
        run_id: scope.runId,
        kind: 'turn',
        state,
        timestamp_ms: Date.now(),
        ...(cost ? { cost } : {}),
      });
    record('started');
    let outcome: TurnOutcome = 'failed';
    try {
      // Plugins' session_start, pre_input (which may deny or rewrite the prompt) and turn_start hooks.
      const input = await rt.plugins.beforeTurn(q.prompt);
      if (input.denied !== undefined) throw new InputDeniedError(input.denied);
      // A turn with images its model cannot see goes to a vision model, or gets a description instead (vision.json).
      const turn = await routeImageTurn(
        rt,
        scope,
        {
          prompt: expandFileMentions(input.text, rt.workspace),
          model: q.model,
          providerName: provider.name,
          provider,
          modelInfo: rt.providers.modelInfo(q.model, providerName),
          images: q.images,
        },
        (args) => rt.plugins.beforeImageTurn(args),
      );
      if (!turn) throw new TurnStopped();
      await autoCompact(rt, scope, turn.provider, turn.model);
      outcome = await runTurn(withExtras(turnDeps(rt, scope, turn), extras), scope, {
        prompt: turn.prompt,
        model: turn.model,
        provider: turn.provider,
        modelInfo: turn.modelInfo,
        reasoningEffort: q.reasoning_effort,
        images: turn.images,
      });
    } catch (err) {
      if (err instanceof InputDeniedError) rt.emitInRun(scope, { type: 'error', code: 'input_denied', message: err.message });
      else if (err instanceof TurnStopped) {
        // The reason is already out (an image no model of the turn can see, a failed description, a cancel).
      } else {
        rt.log(`turn failed: ${(err as Error).stack ?? err}`);
        rt.emitInRun(scope, { type: 'error', code: 'internal_error', message: `internal error: ${(err as Error).message}` });
      }
    } finally {
      // A finished turn's record keeps its cost (as its cost_update), so a replayed reply shows it again.
      const finished = outcome === 'completed' && !scope.cancelled;
      const cost = finished ? turnCostRecord(rt.conversation.all, rt.usage.turnTotals()) : undefined;
      record(scope.cancelled ? 'cancelled' : outcome === 'completed' ? 'completed' : 'failed', cost);
      rt.usage.turns++;
      rt.conversation.sync();
      rt.saveUsage();
    }
    // turn_end and session_stop run after every turn, cancelled ones too; advisory, so `done` does not wait for them.
    const session = { turns: rt.usage.turns, model: q.model };
    void startJittered(() => rt.plugins.afterTurn(session)).catch((err: Error) => rt.log(`plugin hooks failed: ${err.stack ?? err}`));
    extras?.onEnd?.(scope, outcome);
    if (scope.cancelled) return;
    rt.emitInRun(scope, { type: 'done' });
    const next = rt.runs.queued;
    if (next && rt.runs.active === scope) {
      rt.runs.queued = undefined;
      queueMicrotask(() => startTurn(rt, next));
    }
  });
}

/** Before a turn, summarizes older turns when the context is nearly full (auto_compact); a failure only informs. */
async function autoCompact(rt: CoreRuntime, scope: RunScope, provider: ResolvedProvider, model: string): Promise<void> {
  const window = contextWindow(rt);
  if (!rt.config.autoCompact || !needsCompaction(rt.conversation.all, rt.systemPrompt(), window)) return;
  try {
    await rt.plugins.beforeCompact('auto');
    const done = await compactConversation({
      conversation: rt.conversation,
      provider,
      model,
      systemPrompt: rt.systemPrompt(),
      contextWindow: window,
      trigger: 'auto',
      instructions: rt.config.compactInstructions,
      signal: scope.signal,
      idleTimeoutMs: rt.config.idleTimeoutSecs * 1000,
      keepFrom: rt.conversation.length,
      emit: (e) => rt.emitInRun(scope, e),
    });
    if (done) rt.usage.compactions++;
  } catch (err) {
    rt.emitInRun(scope, {
      type: 'info',
      message: `automatic compaction failed, continuing with the full context: ${scrubText((err as Error).message, rt.secrets())}`,
    });
  }
}

function withExtras(deps: TurnDeps, extras: TurnExtras | undefined): TurnDeps {
  if (!extras) return deps;
  const own = extras.tools ?? [];
  return {
    ...deps,
    // The turn's own tools (goal_write_plan in a planning turn) are offered and callable.
    tools: () => {
      const base = deps.tools();
      return { offered: [...base.offered, ...own.map((t) => t.schema)], callable: new Set([...base.callable, ...own.map((t) => t.name)]) };
    },
    toolContext: (edited) => ({ ...deps.toolContext(edited), ...extras.toolContext }),
  };
}

/** The advisor reviews with `advisor.model` when set (through the provider serving it), else with the turn's model. */
function advisorReview(rt: CoreRuntime, scope: RunScope, turn: TurnInput): AdvisorReview {
  const settings = rt.config.advisor;
  const model = settings.model ?? turn.model;
  const providerName = settings.model ? rt.providers.providerForModel(model) : turn.provider.name;
  // upstream's no_key: no provider serves the advisor's model, or it has no credentials.
  const usable = providerName !== undefined && rt.providers.loggedIn(providerName);
  return {
    settings,
    model,
    provider: !usable ? undefined : settings.model ? rt.providers.resolve(providerName) : turn.provider,
    messages: rt.conversation.all,
    append: (message) => rt.conversation.append(message),
    emit: (e) => rt.emitInRun(scope, e),
    signal: scope.signal,
    idleTimeoutMs: rt.config.idleTimeoutSecs * 1000,
    secrets: rt.secrets(),
  };
}

function turnDeps(rt: CoreRuntime, scope: RunScope, model: ModelRoute): TurnDeps {
  let checkpointed = false;
  const subagents = createSubagentHost(rt.childEnv(model), { root: scope, depth: 0, maxDepth: rt.config.subagents.maxDepth });
  return {
    conversation: rt.conversation,
    usage: rt.usage,
    digestAt: () => (rt.config.autoCompact ? rt.config.contextDigestAt : 0),
    contextWindow: () => contextWindow(rt),
    reviewAnswer: (turn) => reviewReply(advisorReview(rt, scope, turn)),
    tools: () =>
      rt.plugins.withTools({
        offered: rt.builtIns.offered(rt.loadedTools, rt.web.withheldTools()).map((t) => t.schema),
        callable: new Set(rt.builtIns.offered(rt.loadedTools).map((t) => t.name)),
      }),
    systemPrompt: () => rt.systemPrompt(),
    idleTimeoutMs: rt.config.idleTimeoutSecs * 1000,
    secrets: () => rt.secrets(),
    imagePart: (ref) => imagePart(ref, rt.workspace),
    beforeRequest: (messages) => rt.plugins.beforeRequest(messages),
    approvals: rt.approvals,
    builtIns: rt.builtIns,
    emit: (event) => rt.emitInRun(scope, event),
    toolContext: (edited) => ({ ...rt.toolContext(scope, edited), subagents }),
    refuseTool: (name) => rt.refuseTool(name),
    plugins: rt.plugins.gate(),
    beforeDestructive: async () => {
      if (checkpointed) return;
      checkpointed = true;
      await createAutoCheckpoint(rt, scope);
    },
  };
}

/**
 * The session's turns: one runs at a time, a second waits one deep, and a cancel stops the run and its subagents.
 * `send`, `steer`, `apply_skill`, a plugin command and goal mode all start their turns here.
 */
import { runTurn, type TurnOutcome } from '../agent/turnRunner';
import { expandFileMentions } from '../agent/fileMentions';
import { compactConversation, needsCompaction } from '../agent/compaction';
import { InputDeniedError } from '../plugins/turnHooks';
import type { ResolvedProvider } from '../providers/types';
import { scrubText } from '../runtime/redact';
import type { QueuedPrompt } from '../runtime/runCoordinator';
import type { RunScope } from '../runtime/runScope';
import { startJittered } from '../runtime/testJitter';
import { refreshRules } from '../rules/rulesEvent';
import { turnCostRecord } from '../sessions/historyTurnCosts';
import type { TurnCostRecord } from '../sessions/sessionTypes';
import { routeImageTurn } from '../vision/imageTurn';
import { contextWindow } from './contextWindow';
import type { CoreRuntime } from './coreRuntime';
import { turnDeps, withExtras, type TurnExtras } from './turnDeps';

/** The turn ended before its model was asked; the reason has been emitted. */
class TurnStopped extends Error {}

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

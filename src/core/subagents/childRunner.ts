/**
 * Runs child agents for the `subagent` tool (upstream's `run_agent`, research A:239-330): each child has its own
 * conversation, streams on its own signal, runs its tools through the gate in child mode, and reports through the
 * `subagent_*` events of §1 of the plan. The host is bound to its calling run; a child that may nest gets a host of its own.
 */
import { subagentTarget } from '../../protocol/subagents';
import { ORCHESTRATOR } from '../intercom/intercomBus';
import { ChildScope } from '../runtime/childScope';
import { scrubText } from '../runtime/redact';
import type { ChildEnv, HostCaller } from './childEnv';
import { emitEnd, recordRun } from './childRecords';
import { runSummary } from './childText';
import { ABORTED, aborted, ChildRun } from './childRun';
import type { ChildGroup, ChildResult, ChildSpec, GroupSpec, SubagentHost } from '../agents/subagentHost';

export type { ChildEnv, HostCaller, ModelRoute } from './childEnv';
export { ABORTED, CHILD_MODEL_ROUNDS, CHILD_TOOL_CALL_CAP, NO_MODEL_MESSAGE, OUTPUT_CALL_ID, TOOL_CAP_MESSAGE } from './childRun';

let lastRunNumber = 0;

/** Upstream's `allocate_run_id`: `run-<hex>`, counted from 1 for the whole process. */
function allocateRunId(): string {
  return `run-${(++lastRunNumber).toString(16)}`;
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
  recordRun(env, scope, spec.toolCallId, 'started', spec.mode, { mode: spec.mode, task: spec.task });
  let finished = false;
  return {
    runId: spec.runId,
    signal: scope.signal,
    finish(state, failure) {
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
        ...(failure !== undefined ? { summary: runSummary(failure) } : {}),
      });
    },
  };
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
  const entry = env.registry.add({
    scope,
    agent: spec.agent.name,
    agents: [spec.agent.name],
    mode: 'single',
    task: spec.task,
    resourceLabel: spec.resourceLabel,
  });
  env.intercom?.register(target);
  const run = new ChildRun(env, scope, spec, entry, caller.messages ?? (() => env.parentMessages()), (nested) =>
    createSubagentHost(env, nested),
  );
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

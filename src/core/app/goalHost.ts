/** Goal mode's port (`GoalHost`) over the runtime: the session's turn slot, its subagents, checkpoints and stores. */
import { createSubagentHost, type ModelRoute } from '../subagents/childRunner';
import { agentDirs, discoverAgents } from '../agents/discovery';
import type { GoalHost } from '../goal/goalHost';
import { createGoalDeployCheckpoint } from './autoCheckpoints';
import type { CoreRuntime } from './coreRuntime';
import { cancelActive, startTurn } from './turns';

export function goalHost(rt: CoreRuntime): GoalHost {
  return {
    get workspace() {
      return rt.workspace;
    },
    sessionId: () => rt.sessionId,
    emit: (event) => rt.emit(event),
    emitInRun: (scope, event) => rt.emitInRun(scope, event),
    log: (message) => rt.log(message),
    activeRun: () => rt.runs.active,
    startTurn: ({ prompt, model, reasoningEffort, ...extras }) => {
      const before = rt.runs.active;
      startTurn(rt, { prompt, model, reasoning_effort: reasoningEffort }, extras);
      return rt.runs.active !== before ? rt.runs.active : undefined;
    },
    cancelActive: () => void cancelActive(rt, 'goal_cancelled'),
    checkpointBeforeDeploy: (goalId, signal) => createGoalDeployCheckpoint(rt, goalId, signal),
    childHost: (route, root) => createSubagentHost(rt.childEnv(route), { root, depth: 0, maxDepth: rt.config.subagents.maxDepth }),
    cancelChildren: (root) => rt.subagents.cancelTree(rt.approvals.broker, root),
    route: (model) => modelRoute(rt, model),
    knownModels: () => rt.providers.models().map((m) => m.id),
    agentNames: () => discoverAgents(agentDirs(rt.config.homeDir, rt.workspace), rt.config.subagents).map((a) => a.name),
    messages: () => rt.conversation.all,
    recordRun: (record) => rt.conversation.recordRun(record),
    workerTimeoutSecs: () => workerTimeoutSecs(rt),
    onNeedDecision: (autoResolve) => {
      rt.intercom.autoResolveDecision = autoResolve;
    },
  };
}

function modelRoute(rt: CoreRuntime, model: string): ModelRoute | undefined {
  const name = rt.providers.providerForModel(model);
  const provider = name ? rt.providers.resolve(name) : undefined;
  return provider ? { model, provider, modelInfo: rt.providers.modelInfo(model, name) } : undefined;
}

/** Upstream's max(5 × idle timeout, 300) s; CATALYST_CODE_GOAL_WORKER_TIMEOUT_SECS overrides it (for tests). */
function workerTimeoutSecs(rt: CoreRuntime): number {
  const override = Number(rt.env.CATALYST_CODE_GOAL_WORKER_TIMEOUT_SECS);
  if (Number.isFinite(override) && override > 0) return override;
  return Math.max(5 * rt.config.idleTimeoutSecs, 300);
}

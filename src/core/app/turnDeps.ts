/** What one turn of the session's loop is given (`TurnDeps`): the session's stores, tools, plugins and approvals. */
import { createSubagentHost, type ModelRoute } from '../subagents/childRunner';
import { type AdvisorReview, reviewReply } from '../agent/advisor';
import { imagePart } from '../agent/images';
import type { TurnDeps, TurnInput, TurnOutcome } from '../agent/turnRunner';
import type { RunScope } from '../runtime/runScope';
import type { ToolContext, ToolDefinition } from '../tools/types';
import { createAutoCheckpoint } from './autoCheckpoints';
import { contextWindow } from './contextWindow';
import type { CoreRuntime } from './coreRuntime';

/** What a special turn adds to an ordinary one (a goal's planning turn). */
export interface TurnExtras {
  /** Offered besides the usual tools, to this turn only. */
  tools?: readonly ToolDefinition[];
  /** Added to every tool call's context. */
  toolContext?: Partial<ToolContext>;
  /** When the turn has ended, before its `done` (also when it was cancelled, which sends no `done`). */
  onEnd?(scope: RunScope, outcome: TurnOutcome): void;
}

/** A special turn's deps: its own tools offered and callable besides the usual ones, its context fields added. */
export function withExtras(deps: TurnDeps, extras: TurnExtras | undefined): TurnDeps {
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

/** The deps of one turn of the session on `model`: its subagents run under the turn's scope; the first destructive tool checkpoints. */
export function turnDeps(rt: CoreRuntime, scope: RunScope, model: ModelRoute): TurnDeps {
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

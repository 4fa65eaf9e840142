/**
 * The goal's speculative scout (upstream's, started by `start_goal`, research A:726-730): while the planner plans, a
 * read-only `scout` child of the goal (parent_run_id = the goal id) maps the workspace; what it finds before the plan is
 * written is given to every deployed step, and to a CEO re-plan. It is the goal's own work, outside any turn, so its
 * `subagent_done{cancelled}` is delivered when it is stopped: by the deploy's start, `cancel_goal`, `abort`, the goal's
 * failure or its replacement.
 */
import { GOAL_SPECULATIVE_SCOUT_RESOURCE_LABEL } from '../../protocol';
import type { ModelRoute } from '../subagents/childRunner';
import { childMaxDepth } from '../agents/childTools';
import { findAgent } from '../agents/discovery';
import { RunScope } from '../runtime/runScope';
import type { GoalController } from './goalController';
import type { Goal, GoalSettings } from './goalTypes';

/** Its entry in `runtime_status.resources` while it runs (upstream's label). */
export const SCOUT_RESOURCE_LABEL = GOAL_SPECULATIVE_SCOUT_RESOURCE_LABEL;
/** The first line of its task: a scripted model server routes the scout's requests by it. */
export const SCOUT_TASK_HEADING = '# Speculative scout for a goal';
/** At most this much of its findings is kept (upstream's 4000 chars). */
export const SCOUT_FINDINGS_MAX_CHARS = 4000;
export const SCOUT_FINISHED_INFO = 'speculative scout finished — findings available for deploy';

export class SpeculativeScout {
  private readonly scope: RunScope;
  private readonly abort = new AbortController();

  constructor(
    private readonly ctl: GoalController,
    private readonly goal: Goal,
  ) {
    this.scope = new RunScope(ctl.host.sessionId(), goal.id, 'goal');
  }

  /** Starts the scout on `route` (the planning turn's model); no scout when no `scout` agent is defined. */
  start(route: ModelRoute): void {
    const { host } = this.ctl;
    const children = host.childHost(route, this.scope);
    const agent = findAgent(children.agents(), 'scout');
    if (!agent) {
      host.log('goal scout not started: no `scout` agent is defined');
      return;
    }
    void children
      .runChild({
        agent,
        task: scoutTask(this.goal.settings.goal),
        context: 'fresh',
        depth: 1,
        maxDepth: childMaxDepth(children.settings.maxDepth, agent),
        runId: children.allocateRunId(),
        parentRunId: this.goal.id,
        toolCallId: '',
        resourceLabel: SCOUT_RESOURCE_LABEL,
        signal: this.abort.signal,
      })
      .then((result) => {
        const text = result.output.trim();
        if (!result.ok || this.abort.signal.aborted || this.ctl.goal !== this.goal || !text) return;
        this.goal.scoutFindings = text.slice(0, SCOUT_FINDINGS_MAX_CHARS);
        host.emit({ type: 'info', message: SCOUT_FINISHED_INFO });
      });
  }

  /** Stops it if it still runs (its `subagent_done{cancelled}` follows); a no-op once it ended. */
  cancel(): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort();
    this.ctl.host.cancelChildren(this.scope);
  }
}

/**
 * The scout's model: the planning turn's, unless the goal allows only other models, then the first allowed one (as
 * upstream filters a goal's subagent models by its allowlist).
 */
export function scoutModel(settings: Pick<GoalSettings, 'allowedModels'>, planningModel: string): string {
  const allowed = settings.allowedModels;
  return allowed.length === 0 || allowed.includes(planningModel) ? planningModel : allowed[0];
}

/** What the scout is asked (upstream's request, in our words): read-only reconnaissance, under 800 words. */
export function scoutTask(goal: string): string {
  return [
    SCOUT_TASK_HEADING,
    'A planner is planning this goal right now. Do quick read-only reconnaissance for it: do not modify any file.',
    '',
    '# Goal',
    goal,
    '',
    'Report the relevant files, entry points and risks, in under 800 words.',
  ].join('\n');
}

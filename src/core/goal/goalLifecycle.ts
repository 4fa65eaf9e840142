/**
 * A goal from start_goal to its end (classic mode): the planning turn with `goal_write_plan`, approval, the deploy, and
 * cancellation. The commands (goalCommands.ts) validate their fields and call these.
 */
import { agentDirs, discoverAgents } from '../agents/discovery';
import { cancelActive, startTurn } from '../commands/turnCommands';
import type { TurnOutcome } from '../agent/turnRunner';
import type { RunScope } from '../runtime/runScope';
import { goalWritePlanTool } from '../tools/goalWritePlanTool';
import type { GoalController } from './goalController';
import { GoalDeploy } from './goalDeploy';
import type { GoalSettings } from './goalTypes';
import { planningPrompt } from './planningPrompt';
import { validatePlan } from './planValidation';
import { stepPrompts } from './workerPrompt';

export function startGoal(ctl: GoalController, settings: GoalSettings): void {
  const { rt } = ctl;
  ctl.deploy?.cancel();
  ctl.deploy = undefined;
  ctl.goal = {
    id: `goal-${Date.now()}`,
    settings,
    phase: 'planning',
    version: 1,
    plan: undefined,
    prompts: [],
    activeRunIds: [],
    error: null,
    parentModel: settings.roleModels.planner ?? settings.model,
    feedback: null,
  };
  ctl.emitWorkState();
  ctl.emitState();
  rt.emit({ type: 'info', message: 'Goal mode: planning…' });
  startPlanningTurn(ctl);
}

function agentNames(ctl: GoalController): string[] {
  const { rt } = ctl;
  return discoverAgents(agentDirs(rt.config.homeDir, rt.workspace), rt.config.subagents).map((a) => a.name);
}

/**
 * `revise_goal` once its checks passed: the feedback is kept for the planner, the plan dropped, and a new planning turn
 * starts on `model`. Unlike upstream, a refused transition (from a running goal) starts no turn (the plan's D4).
 */
export function reviseGoal(ctl: GoalController, feedback: string, model: string, effort: string | undefined): void {
  const goal = ctl.goal!;
  if (!ctl.transitionAllowed('planning')) return;
  goal.feedback = feedback;
  goal.plan = undefined;
  goal.prompts = [];
  goal.error = null;
  goal.parentModel = model;
  if (effort) goal.settings.reasoningEffort = effort;
  ctl.transition('planning', 'revising plan');
  startPlanningTurn(ctl, model);
}

/** The planning turn: `model`, else the planner model when the registry knows it, else the goal's; its tools include goal_write_plan. */
function startPlanningTurn(ctl: GoalController, revisionModel?: string): void {
  const { rt } = ctl;
  const goal = ctl.goal!;
  const planner = goal.settings.roleModels.planner;
  const model = revisionModel ?? (planner && rt.providers.models().some((m) => m.id === planner) ? planner : goal.settings.model);
  const writer = { writePlan: (args: Record<string, unknown>) => writePlan(ctl, args) };
  startTurn(
    rt,
    { prompt: planningPrompt(goal.settings, agentNames(ctl), goal.feedback), model, reasoning_effort: goal.settings.reasoningEffort },
    { tools: [goalWritePlanTool], toolContext: { goalPlan: writer }, onEnd: (scope, outcome) => planningEnded(ctl, scope, outcome) },
  );
  ctl.planningTurn = rt.runs.active;
  if (!ctl.planningTurn) {
    goal.error = 'the planning turn could not start';
    ctl.transition('failed', goal.error);
  }
}

/** `goal_write_plan`: validates the plan against the goal's limits and the known agents; on success → plan_ready. */
function writePlan(ctl: GoalController, args: Record<string, unknown>): { ok: boolean; output: string } {
  const goal = ctl.goal;
  if (!goal || goal.phase !== 'planning')
    return { ok: false, output: `goal_write_plan only valid during planning (phase=${goal?.phase ?? 'idle'})` };
  const plan = validatePlan(args, {
    maxTasks: goal.settings.maxTasks,
    allowedModels: goal.settings.allowedModels,
    agents: agentNames(ctl),
  });
  if (typeof plan === 'string') return { ok: false, output: plan };
  goal.plan = plan;
  goal.prompts = stepPrompts(goal.settings, plan);
  ctl.transition('plan_ready', 'plan ready');
  ctl.emitPlan();
  ctl.emitState();
  ctl.emitWorkState();
  const next = goal.settings.autoDeploy ? 'Deploy will start after this planning turn.' : 'Waiting for approve_goal_plan.';
  return { ok: true, output: `Plan accepted (${plan.steps.length} steps). ${next}` };
}

/** Just before the planning turn's `done`: deploy (auto_deploy), or fail when no plan was written, or cancelled. */
function planningEnded(ctl: GoalController, scope: RunScope, _outcome: TurnOutcome): void {
  const goal = ctl.goal;
  if (!goal || ctl.planningTurn !== scope) return;
  if (goal.phase === 'planning') {
    if (scope.cancelled) ctl.transition('cancelled', 'planning aborted');
    else {
      goal.error = 'planning turn ended without goal_write_plan — re-run /goal';
      ctl.transition('failed', goal.error);
    }
  } else if (goal.phase === 'plan_ready' && goal.settings.autoDeploy) {
    deploy(ctl);
  }
  ctl.planningTurn = undefined;
}

/** `approve_goal_plan` once its checks passed: auto_deploy on, then the deploy. */
export function approvePlan(ctl: GoalController): void {
  ctl.goal!.settings.autoDeploy = true;
  ctl.emitState();
  ctl.rt.emit({ type: 'info', message: 'Goal plan approved — deploying (snapshotting workspace…)' });
  deploy(ctl);
}

function deploy(ctl: GoalController): void {
  const run = new GoalDeploy(ctl, ctl.goal!);
  ctl.deploy = run;
  void run.run().catch((err: Error) => {
    ctl.rt.log(`goal deploy failed: ${err.stack ?? err}`);
    if (ctl.deploy !== run || !ctl.active) return;
    ctl.goal!.error = `goal deploy failed: ${err.message}`;
    ctl.transition('failed', ctl.goal!.error);
  });
}

/**
 * `cancel_goal` (and `abort`, whose own run_cancelled is already out): stops the workers and the planning turn; an active
 * goal ends `cancelled` with upstream's error and info.
 */
export function cancelGoal(ctl: GoalController, via: 'cancel_goal' | 'abort'): void {
  const { rt } = ctl;
  ctl.deploy?.cancel();
  if (via === 'cancel_goal') cancelActive(rt, 'goal_cancelled');
  const goal = ctl.goal;
  if (!goal || !ctl.active) {
    if (via === 'cancel_goal') rt.emit({ type: 'info', message: 'no active goal to cancel' });
    return;
  }
  goal.error = 'cancelled by user';
  goal.activeRunIds = [];
  ctl.transition('cancelled', 'cancelled by user');
  rt.emit({ type: 'info', message: 'goal cancelled' });
}

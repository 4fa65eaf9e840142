/**
 * A goal from start_goal to its end: the planning turn with `goal_write_plan`, approval (or the CEO self-review), the
 * deploy, what follows it (the CEO verify, or the classic synthesis), and cancellation. The commands (goalCommands.ts)
 * validate their fields and call these.
 */
import type { RunScope } from '../runtime/runScope';
import { goalWritePlanTool } from './goalWritePlanTool';
import { startSelfReview, startVerify, type CeoSteps } from './ceoFlow';
import { outcomeMessage } from './completionReport';
import type { GoalController } from './goalController';
import { GoalDeploy } from './goalDeploy';
import { goalTurnModel, startGoalTurn } from './goalTurns';
import type { GoalSettings } from './goalTypes';
import { planningPrompt } from './planningPrompt';
import { validatePlan } from './planValidation';
import { finishSynthesis } from './synthesis';
import { scoutModel, SpeculativeScout } from './speculativeScout';
import { stepPrompts } from './workerPrompt';

export function startGoal(ctl: GoalController, settings: GoalSettings): void {
  ctl.stopWork();
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
    iteration: 0,
    planRevision: 0,
    reviewVerdict: null,
    verifyVerdict: null,
    remainingGaps: [],
    selfReviewFeedback: null,
    certified: false,
    scoutFindings: null,
  };
  ctl.emitWorkState();
  ctl.emitState();
  ctl.host.emit({ type: 'info', message: 'Goal mode: planning…' });
  startScout(ctl);
  startPlanningTurn(ctl);
}

/** The speculative scout, on the planning turn's model (within the goal's allowlist), while the planner runs. */
function startScout(ctl: GoalController): void {
  const goal = ctl.goal!;
  const route = ctl.host.route(scoutModel(goal.settings, goalTurnModel(ctl)));
  if (!route) return;
  const scout = new SpeculativeScout(ctl, goal);
  ctl.scout = scout;
  scout.start(route);
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

/** The CEO loop's ways back into the lifecycle. */
const CEO_STEPS: CeoSteps = { deploy: (ctl) => deploy(ctl), replan: (ctl) => startPlanningTurn(ctl) };

/** The planning turn: `model`, else the parent model when the registry knows it, else the goal's; its tools include goal_write_plan. */
function startPlanningTurn(ctl: GoalController, model = goalTurnModel(ctl)): void {
  const goal = ctl.goal!;
  const writer = { writePlan: (args: Record<string, unknown>) => writePlan(ctl, args) };
  const replan = goal.settings.ceoMode ? { gaps: goal.remainingGaps, iteration: goal.iteration } : undefined;
  const started = startGoalTurn(ctl, {
    prompt: planningPrompt(goal.settings, ctl.host.agentNames(), goal.feedback, replan, goal.scoutFindings),
    model,
    extras: { tools: [goalWritePlanTool], toolContext: { goalPlan: writer } },
    onEnd: (scope) => planningEnded(ctl, scope),
  });
  if (!started) ctl.fail('the planning turn could not start');
}

/** `goal_write_plan`: validates the plan against the goal's limits and the known agents; on success → plan_ready. */
function writePlan(ctl: GoalController, args: Record<string, unknown>): { ok: boolean; output: string } {
  const goal = ctl.goal;
  if (!goal || goal.phase !== 'planning')
    return { ok: false, output: `goal_write_plan only valid during planning (phase=${goal?.phase ?? 'idle'})` };
  const plan = validatePlan(args, {
    maxTasks: goal.settings.maxTasks,
    allowedModels: goal.settings.allowedModels,
    agents: ctl.host.agentNames(),
  });
  if (typeof plan === 'string') return { ok: false, output: plan };
  goal.plan = plan;
  goal.prompts = stepPrompts(goal.settings, plan, goal.scoutFindings);
  ctl.transition('plan_ready', 'plan ready');
  ctl.emitPlan();
  ctl.emitState();
  ctl.emitWorkState();
  const next = goal.settings.autoDeploy ? 'Deploy will start after this planning turn.' : 'Waiting for approve_goal_plan.';
  return { ok: true, output: `Plan accepted (${plan.steps.length} steps). ${next}` };
}

/** Just before the planning turn's `done`: deploy or self-review (auto_deploy), or fail when no plan was written, or cancelled. */
function planningEnded(ctl: GoalController, scope: RunScope): void {
  const goal = ctl.goal;
  if (!goal) return;
  if (goal.phase === 'planning') {
    if (scope.cancelled) ctl.cancel('planning aborted');
    else ctl.fail('planning turn ended without goal_write_plan — re-run /goal');
  } else if (goal.phase === 'plan_ready' && goal.settings.autoDeploy) {
    // Upstream self-reviews only with a revision budget; without one the plan deploys as written.
    if (goal.settings.ceoMode && goal.settings.maxPlanRevisions > 0)
      void startSelfReview(ctl, CEO_STEPS).catch((err) => followUpFailed(ctl, err));
    else deploy(ctl);
  }
}

/** `approve_goal_plan` once its checks passed: auto_deploy on, then the deploy (no self-review). */
export function approvePlan(ctl: GoalController): void {
  ctl.goal!.settings.autoDeploy = true;
  ctl.emitState();
  ctl.host.emit({ type: 'info', message: 'Goal plan approved — deploying (snapshotting workspace…)' });
  deploy(ctl);
}

function deploy(ctl: GoalController): void {
  // The scout's findings matter only until the plan is written: the deploy stops it, as upstream's does.
  ctl.stopScout();
  const run = new GoalDeploy(ctl, ctl.goal!);
  ctl.deploy = run;
  void run
    .run()
    .then((finished) => {
      if (finished && ctl.deploy === run && ctl.active) return afterDeploy(ctl, run);
    })
    .catch((err: Error) => {
      ctl.host.log(`goal deploy failed: ${err.stack ?? err}`);
      run.record('failed', err.message);
      if (ctl.deploy !== run || !ctl.active) return;
      ctl.fail(`goal deploy failed: ${err.message}`);
    });
}

/** After the last wave: the CEO verify, or the classic synthesis. */
async function afterDeploy(ctl: GoalController, run: GoalDeploy): Promise<void> {
  const goal = ctl.goal!;
  const outcome = outcomeMessage(
    goal.prompts.filter((p) => p.status === 'failed').length,
    goal.prompts.filter((p) => p.status === 'skipped').length,
  );
  const anyFailed = goal.prompts.some((p) => p.status === 'failed') || run.validationFailedToRun;
  if (goal.settings.ceoMode) await startVerify(ctl, outcome, anyFailed, CEO_STEPS);
  else await finishSynthesis(ctl, outcome, anyFailed);
}

function followUpFailed(ctl: GoalController, err: Error): void {
  ctl.host.log(`goal follow-up failed: ${err.stack ?? err}`);
  if (ctl.active) ctl.fail(`goal follow-up failed: ${err.message}`);
}

/**
 * `cancel_goal` (and `abort`, whose own run_cancelled is already out): stops the workers and the goal's turn; an active
 * goal ends `cancelled` with upstream's error and info.
 */
export function cancelGoal(ctl: GoalController, via: 'cancel_goal' | 'abort'): void {
  const { host } = ctl;
  ctl.stopScout();
  ctl.deploy?.cancel();
  if (via === 'cancel_goal') host.cancelActive();
  const goal = ctl.goal;
  if (!goal || !ctl.active) {
    if (via === 'cancel_goal') host.emit({ type: 'info', message: 'no active goal to cancel' });
    return;
  }
  ctl.cancel('cancelled by user');
  host.emit({ type: 'info', message: 'goal cancelled' });
}

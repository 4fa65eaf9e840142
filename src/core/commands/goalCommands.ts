/** The goal commands (research A:695-751), classic and CEO (`ceo_mode`) alike. */
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { goalPlanEvent } from '../goal/goalEvents';
import { approvePlan, cancelGoal, reviseGoal, startGoal } from '../goal/goalLifecycle';
import { goalSettings } from './goalOptions';
import { handleAbort } from './turnCommands';

/** Upstream's `unknown model: X` + `done` when the model is not in the list (true when it is known). */
function knownModel(rt: CoreRuntime, model: unknown): model is string {
  const known = rt.providers.models();
  if (typeof model === 'string' && model && (known.length === 0 || known.some((m) => m.id === model))) return true;
  rt.emit({ type: 'error', code: 'unknown_model', message: `unknown model: ${String(model)}` });
  rt.emit({ type: 'done' });
  return false;
}

function refuseWhileBusy(rt: CoreRuntime, what: string): boolean {
  if (!rt.runs.active) return false;
  rt.emit({ type: 'error', code: 'busy', message: `a turn is running; wait for it or abort it before ${what}` });
  return true;
}

export function handleStartGoal(rt: CoreRuntime, cmd: CommandOf<'start_goal'>): void {
  if (!knownModel(rt, cmd.model)) return;
  const settings = goalSettings(cmd, rt.config.subagents);
  if (typeof settings === 'string') {
    rt.emit({ type: 'error', code: 'invalid_goal', message: settings });
    return;
  }
  if (refuseWhileBusy(rt, 'starting a goal')) return;
  startGoal(rt.goal, settings);
}

/** `revise_goal{feedback, model, reasoning_effort?}`: a new planning turn with the user's feedback. */
export function handleReviseGoal(rt: CoreRuntime, cmd: CommandOf<'revise_goal'>): void {
  if (!knownModel(rt, cmd.model)) return;
  const ctl = rt.goal;
  if (!ctl.goal) {
    rt.emit({ type: 'error', code: 'invalid_goal_phase', message: 'no goal to revise — use start_goal first' });
    rt.emit({ type: 'done' });
    return;
  }
  if (refuseWhileBusy(rt, 'revising the goal')) return;
  const feedback = typeof cmd.feedback === 'string' ? cmd.feedback.trim() : '';
  reviseGoal(ctl, feedback, cmd.model, typeof cmd.reasoning_effort === 'string' ? cmd.reasoning_effort : undefined);
}

/** `goal_status`: the goal's state, then its plan when it has one. */
export function handleGoalStatus(rt: CoreRuntime): void {
  const ctl = rt.goal;
  ctl.emitState();
  const plan = ctl.goal && goalPlanEvent(ctl.goal);
  if (plan) rt.emit(plan);
}

export function handleApproveGoalPlan(rt: CoreRuntime): void {
  const ctl = rt.goal;
  const phase = ctl.goal?.phase ?? 'idle';
  if (phase !== 'plan_ready') {
    rt.emit({ type: 'error', code: 'invalid_goal_phase', message: `approve_goal_plan requires phase plan_ready (got ${phase})` });
    return;
  }
  if (!ctl.goal?.prompts.length) {
    rt.emit({ type: 'error', code: 'invalid_goal_phase', message: 'no plan prompts to deploy' });
    return;
  }
  approvePlan(ctl);
}

export function handleCancelGoal(rt: CoreRuntime): void {
  cancelGoal(rt.goal, 'cancel_goal');
}

/** `abort` also cancels an active goal, as upstream's does. */
export function handleAbortWithGoal(rt: CoreRuntime): void {
  handleAbort(rt);
  cancelGoal(rt.goal, 'abort');
}

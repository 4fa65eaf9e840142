/**
 * The goal commands (research A:695-751). Classic mode only for now: `ceo_mode` and `revise_goal` answer `unsupported`
 * (docs/plans/issue-16-goal-mode.md §3) rather than pretend.
 */
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../coreRuntime';
import { goalPlanEvent } from '../goal/goalEvents';
import { goalOf } from '../goal/goalController';
import { approvePlan, cancelGoal, startGoal } from '../goal/goalLifecycle';
import { goalSettings } from '../goal/goalOptions';
import { handleAbort } from './turnCommands';

export function handleStartGoal(rt: CoreRuntime, cmd: CommandOf<'start_goal'>): void {
  const known = rt.providers.models();
  if (typeof cmd.model !== 'string' || !cmd.model || (known.length > 0 && !known.some((m) => m.id === cmd.model))) {
    rt.emit({ type: 'error', code: 'unknown_model', message: `unknown model: ${String(cmd.model)}` });
    rt.emit({ type: 'done' });
    return;
  }
  if (cmd.ceo_mode === true) {
    rt.emit({ type: 'error', code: 'unsupported', message: 'ceo_mode is not supported by this core yet; start the goal without it' });
    return;
  }
  const settings = goalSettings(cmd, rt.config.subagents);
  if (typeof settings === 'string') {
    rt.emit({ type: 'error', code: 'invalid_goal', message: settings });
    return;
  }
  if (rt.runs.active) {
    rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; wait for it or abort it before starting a goal' });
    return;
  }
  startGoal(goalOf(rt), settings);
}

/** `goal_status`: the goal's state, then its plan when it has one. */
export function handleGoalStatus(rt: CoreRuntime): void {
  const ctl = goalOf(rt);
  ctl.emitState();
  const plan = ctl.goal && goalPlanEvent(ctl.goal);
  if (plan) rt.emit(plan);
}

export function handleApproveGoalPlan(rt: CoreRuntime): void {
  const ctl = goalOf(rt);
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
  cancelGoal(goalOf(rt), 'cancel_goal');
}

/** `abort` also cancels an active goal, as upstream's does. */
export function handleAbortWithGoal(rt: CoreRuntime): void {
  handleAbort(rt);
  cancelGoal(goalOf(rt), 'abort');
}

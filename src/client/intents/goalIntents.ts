// Goal mode's commands as the UI sends them: the start form (the Control Center's, `/goal`, the palette's) and the
// plan's buttons. The core validates every field again; these only fill what the session knows (model, effort).
import type { CommandOf, ReasoningEffort } from '../../protocol';
import type { GoalAction } from '../../shared/webviewMessages';

export interface GoalStartForm {
  goal: string;
  /** false: the plan waits at plan_ready for approve_goal_plan (the UI's default; the core's is true). */
  autoDeploy: boolean;
  ceoMode?: boolean;
  concurrency?: number;
  maxTasks?: number;
  /** Overrides the session's model. */
  model?: string;
}

/** The actions sent to the core (the Control Center's opening is the host's own). */
export type GoalCoreAction = Exclude<GoalAction, 'openControlCenter'>;

export function startGoalCommand(form: GoalStartForm, model: string, effort: ReasoningEffort): CommandOf<'start_goal'> {
  return {
    type: 'start_goal',
    goal: form.goal.trim(),
    model,
    auto_deploy: form.autoDeploy,
    ...(form.ceoMode ? { ceo_mode: true } : {}),
    ...(form.concurrency !== undefined ? { concurrency: form.concurrency } : {}),
    ...(form.maxTasks !== undefined ? { max_tasks: form.maxTasks } : {}),
    reasoning_effort: effort,
  };
}

export function goalActionCommand(
  action: GoalCoreAction,
  feedback: string,
  model: string,
  effort: ReasoningEffort,
): CommandOf<'approve_goal_plan' | 'revise_goal' | 'cancel_goal' | 'goal_status'> {
  switch (action) {
    case 'approve':
      return { type: 'approve_goal_plan' };
    case 'revise':
      return { type: 'revise_goal', feedback: feedback.trim(), model, reasoning_effort: effort };
    case 'cancel':
      return { type: 'cancel_goal' };
    case 'refresh':
      return { type: 'goal_status' };
  }
}

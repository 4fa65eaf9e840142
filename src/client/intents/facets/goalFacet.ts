import { UI_CAPABILITIES } from '../../../shared/sessionState';
import { goalActionCommand, startGoalCommand, type GoalCoreAction, type GoalStartForm } from '../goalIntents';
import type { IntentContext } from '../intentContext';

export type GoalIntents = ReturnType<typeof goalFacet>;

/** Goal mode: starting a goal, and the plan's buttons. */
export function goalFacet(ctx: IntentContext) {
  const requireGoal = () => ctx.requireFeature(UI_CAPABILITIES.goal, 'has no goal mode');

  return {
    /** start_goal on the session's model (unless the form names one) and reasoning effort. */
    startGoal(form: GoalStartForm): boolean {
      if (typeof form?.goal !== 'string' || !form.goal.trim()) return ctx.refuse('Describe the goal: /goal <what to achieve>.');
      if (!requireGoal() || !ctx.requireReady()) return false;
      const model = ctx.requireModel(form.model ?? ctx.state.model);
      if (!model) return false;
      return ctx.send(startGoalCommand(form, model, ctx.state.reasoningEffort));
    },

    /** The plan's buttons and the Control Center's refresh: approve_goal_plan, revise_goal{feedback} (never empty), cancel_goal, goal_status. */
    goalAction(action: GoalCoreAction, feedback = ''): boolean {
      if (action === 'revise' && (typeof feedback !== 'string' || !feedback.trim())) return ctx.refuse('Say what the plan should change.');
      if (!requireGoal() || !ctx.requireReady()) return false;
      const model = ctx.state.goal?.parentModel ?? ctx.state.model;
      if (action === 'revise' && !ctx.requireModel(model)) return false;
      return ctx.send(goalActionCommand(action, feedback, model ?? '', ctx.state.reasoningEffort));
    },
  };
}

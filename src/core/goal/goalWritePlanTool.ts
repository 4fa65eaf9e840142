/**
 * goal_write_plan: the planner's plan for the goal (research A:792-824). Offered only by a goal's planning turn (`turnOnly`:
 * never listed, never loadable); read-only; a plan accepted ends the turn after its tool batch, as upstream's does.
 */
import { failed, succeeded } from '../tools/outcome';
import { noTargets } from '../tools/toolTargets';
import type { ToolDefinition } from '../tools/types';

const stringList = { type: 'array', items: { type: 'string' } };

export const goalWritePlanTool: ToolDefinition = {
  name: 'goal_write_plan',
  kind: 'readonly',
  turnOnly: true,
  schema: {
    name: 'goal_write_plan',
    description:
      'Write the plan for the current goal (only while the goal is planning). Each step runs as its own agent with a self-contained task; ' +
      'depends_on orders steps, and steps without dependencies between them run in parallel. Call it exactly once.',
    parameters: {
      type: 'object',
      properties: {
        summary: { type: 'string', description: 'The plan in one paragraph.' },
        steps: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'Unique step id (default: the 1-based index).' },
              agent: { type: 'string', description: 'The agent that runs the step, e.g. worker, scout, reviewer.' },
              title: { type: 'string' },
              task: { type: 'string', description: 'The full, self-contained task for the agent.' },
              model: { type: 'string' },
              depends_on: { ...stringList, description: 'Ids of the steps that must finish first.' },
              parallel_group: { type: 'string' },
            },
            required: ['agent', 'task'],
          },
        },
        risks: stringList,
        validation: { ...stringList, description: 'Criteria that tell whether the goal is met.' },
      },
      required: ['summary', 'steps'],
    },
  },
  targets: noTargets,
  execute: async (args, ctx) => {
    if (!ctx.goalPlan) return failed('goal_write_plan only valid during planning (phase=idle)');
    const result = ctx.goalPlan.writePlan(args);
    return result.ok ? { ...succeeded(result.output), endsTurn: true } : failed(result.output);
  },
};

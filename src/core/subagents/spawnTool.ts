/**
 * spawn: upstream's deferred shorthand for delegating one bounded sub-task (research A:127): `{prompt, model?}` runs the
 * `delegate` agent in a fresh child conversation, exactly as the subagent tool's legacy `{prompt}` form, whose path it
 * takes (depth limit, child events, approvals under the parent's rules). Destructive like upstream's: the call is approved.
 */
import { failed } from '../tools/outcome';
import { subagentTool } from './subagentTool';
import { noTargets } from '../tools/toolTargets';
import type { ToolDefinition } from '../tools/types';

export const spawnTool: ToolDefinition = {
  name: 'spawn',
  kind: 'destructive',
  startsChildren: true,
  deferred: true,
  schema: {
    name: 'spawn',
    description:
      'Delegate a bounded sub-task (research, review, implementation) to a child agent with a fresh conversation and its ' +
      'own tool loop, in this workspace, and get its text answer back. The child sees only the prompt: make it self-contained.',
    parameters: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'the sub-task, self-contained' },
        model: { type: 'string', description: "a model for the child (default: the delegate agent's, else this conversation's)" },
      },
      required: ['prompt'],
    },
  },
  targets: noTargets,
  execute: (args, ctx) => {
    const prompt = typeof args.prompt === 'string' ? args.prompt : '';
    if (!prompt.trim()) return Promise.resolve(failed("spawn requires a non-empty 'prompt'"));
    const model = typeof args.model === 'string' && args.model ? { model: args.model } : {};
    return subagentTool.execute({ prompt, ...model }, ctx);
  },
};

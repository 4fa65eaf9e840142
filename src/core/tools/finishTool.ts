/** finish: the model says the task is done; the turn ends there, with upstream's result text. */
import { succeeded } from './outcome';
import { noTargets } from './toolTargets';
import type { ToolDefinition } from './types';

/** What upstream shows as the result of finish (tools.rs FINISH_MESSAGE). */
export const FINISH_MESSAGE = 'This turn has finished';

export const finishTool: ToolDefinition = {
  name: 'finish',
  kind: 'readonly',
  schema: {
    name: 'finish',
    description:
      "Signal that the task is complete. Call this when you have finished the user's request and verified your work; " +
      'it ends the turn. Write your completion summary for the user in the same assistant message (or an earlier one ' +
      'this turn): finish itself shows nothing to the user. Tool calls after finish in the same message are not run.',
    parameters: { type: 'object', properties: {} },
  },
  targets: noTargets,
  execute: async () => ({ ...succeeded(FINISH_MESSAGE), endsTurn: true }),
};

/** ask: structured questions for the user; the answers (or the fact they skipped) go back to the model. */
import { guarded, succeeded, ToolInputError } from './outcome';
import { isRecord, requiredArray } from './toolArgs';
import { noTargets } from './toolTargets';
import type { AskQuestion, ToolDefinition } from './types';

export const askTool: ToolDefinition = {
  name: 'ask',
  kind: 'readonly',
  audience: 'main',
  schema: {
    name: 'ask',
    description:
      'Ask the user structured questions and wait for the answers. Use it when the request is ambiguous, information ' +
      'is missing that you cannot find in the workspace, or a decision has real trade-offs. Do not ask what you can ' +
      'find out yourself. The user may skip the questions.',
    parameters: {
      type: 'object',
      properties: {
        questions: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'stable id; answers are keyed by it' },
              prompt: { type: 'string', description: 'the question' },
              type: { type: 'string', enum: ['select', 'text'], description: 'select = pick an option; text = free input' },
              options: { type: 'array', items: { type: 'string' }, description: 'required for select' },
              allowCustom: { type: 'boolean', description: 'select: also allow a typed answer' },
              placeholder: { type: 'string', description: 'text: input placeholder' },
              required: { type: 'boolean', description: 'false lets the user skip it (default true)' },
            },
            required: ['id', 'prompt', 'type'],
          },
        },
      },
      required: ['questions'],
    },
  },
  targets: noTargets,
  execute: guarded('ask', async (args, ctx) => {
    const questions = requiredArray(args, 'questions').map(parseQuestion);
    const answers = await ctx.ask(questions);
    if (answers === null) return succeeded('The user skipped the questions. Proceed with your best judgement or ask differently.');
    return succeeded(questions.map((question) => `${question.prompt}\n→ ${answers[question.id] ?? '(no answer)'}`).join('\n\n'));
  }),
};

function parseQuestion(value: unknown, index: number): AskQuestion {
  const number = index + 1;
  if (!isRecord(value)) throw new ToolInputError(`question ${number}: must be an object {id, prompt, type}`);
  const { id, prompt, type, options, allowCustom, placeholder, required } = value;
  if (typeof id !== 'string' || id === '') throw new ToolInputError(`question ${number}: 'id' must be a non-empty string`);
  if (typeof prompt !== 'string' || prompt === '') throw new ToolInputError(`question ${number}: 'prompt' must be a non-empty string`);
  if (type !== 'select' && type !== 'text') throw new ToolInputError(`question ${number}: 'type' must be select or text`);
  const question: AskQuestion = { id, prompt, type };
  if (type === 'select') {
    if (!Array.isArray(options) || options.length === 0 || !options.every((option) => typeof option === 'string')) {
      throw new ToolInputError(`question ${number}: a select question needs 'options', a non-empty array of strings`);
    }
    question.options = options;
  }
  if (typeof allowCustom === 'boolean') question.allowCustom = allowCustom;
  if (typeof placeholder === 'string') question.placeholder = placeholder;
  if (typeof required === 'boolean') question.required = required;
  return question;
}

/** todo_write / todo_read: the run's task list, kept by the caller through ctx.todos. */
import { guarded, succeeded, ToolInputError } from './outcome';
import { isRecord } from './toolArgs';
import { noTargets } from './toolTargets';
import type { TodoItem, ToolDefinition } from './types';

const STATUSES: ReadonlyArray<TodoItem['status']> = ['pending', 'in_progress', 'completed'];
const CHECKBOX: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

export const todoWriteTool: ToolDefinition = {
  name: 'todo_write',
  kind: 'destructive',
  schema: {
    name: 'todo_write',
    description:
      'Replace the whole task list. Each todo is {subject, status: pending|in_progress|completed, content?}. Use it ' +
      'to plan and track multi-step work; keep exactly one item in_progress while working.',
    parameters: {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              subject: { type: 'string' },
              status: { type: 'string', enum: [...STATUSES] },
              content: { type: 'string', description: 'optional detail' },
            },
            required: ['subject', 'status'],
          },
        },
      },
      required: ['todos'],
    },
  },
  targets: noTargets,
  execute: guarded('todo_write', async (args, ctx) => {
    if (!Array.isArray(args.todos)) throw new ToolInputError("'todos' is required and must be an array");
    const items = args.todos.map(parseTodo);
    ctx.todos.set(items);
    return succeeded(items.length === 0 ? 'Cleared the task list.' : checklist(items));
  }),
};

export const todoReadTool: ToolDefinition = {
  name: 'todo_read',
  kind: 'readonly',
  parallelSafe: true,
  schema: {
    name: 'todo_read',
    description: 'Show the current task list.',
    parameters: { type: 'object', properties: {} },
  },
  targets: noTargets,
  execute: guarded('todo_read', async (_args, ctx) => {
    const items = ctx.todos.get();
    return succeeded(items.length === 0 ? 'The task list is empty.' : checklist(items));
  }),
};

function parseTodo(value: unknown, index: number): TodoItem {
  const number = index + 1;
  if (!isRecord(value)) throw new ToolInputError(`todo ${number}: must be an object {subject, status, content?}`);
  const { subject, status, content } = value;
  if (typeof subject !== 'string' || subject.trim() === '') {
    throw new ToolInputError(`todo ${number}: 'subject' must be a non-empty string`);
  }
  if (!STATUSES.includes(status as TodoItem['status'])) {
    throw new ToolInputError(`todo ${number}: 'status' must be one of ${STATUSES.join(', ')}`);
  }
  if (content !== undefined && content !== null && typeof content !== 'string') {
    throw new ToolInputError(`todo ${number}: 'content' must be a string`);
  }
  const item: TodoItem = { subject, status: status as TodoItem['status'] };
  if (typeof content === 'string' && content !== '') item.content = content;
  return item;
}

function checklist(items: TodoItem[]): string {
  const done = items.filter((item) => item.status === 'completed').length;
  const active = items.filter((item) => item.status === 'in_progress').length;
  const header = `Task list: ${done}/${items.length} completed${active > 0 ? `, ${active} in progress` : ''}`;
  const lines = items.map((item) => `${CHECKBOX[item.status]} ${item.subject}${item.content ? ` — ${item.content}` : ''}`);
  return [header, ...lines].join('\n');
}

import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { todoReadTool, todoWriteTool } from './todoTools';

describe('todo_write / todo_read', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('stores the list through ctx.todos and shows a checklist', async () => {
    const ctx = ws.context();
    const todos = [
      { subject: 'Read the code', status: 'completed' },
      { subject: 'Fix the bug', status: 'in_progress', content: 'in parser.ts' },
      { subject: 'Add a test', status: 'pending' },
    ];
    const written = await todoWriteTool.execute({ todos }, ctx);
    const checklist = 'Task list: 1/3 completed, 1 in progress\n[x] Read the code\n[~] Fix the bug — in parser.ts\n[ ] Add a test';
    assert.equal(written.output, checklist);
    assert.deepEqual(ctx.todos.get(), todos);
    assert.equal((await todoReadTool.execute({}, ctx)).output, checklist);
  });

  test('validates items and leaves the list unchanged on error', async () => {
    const ctx = ws.context();
    ctx.todos.set([{ subject: 'keep', status: 'pending' }]);
    const outcome = await todoWriteTool.execute({ todos: [{ subject: 'x', status: 'done' }] }, ctx);
    assert.deepEqual([outcome.ok, outcome.status], [false, 'failed']);
    assert.match(outcome.output, /todo 1: 'status' must be one of pending, in_progress, completed/);
    assert.deepEqual(ctx.todos.get(), [{ subject: 'keep', status: 'pending' }]);
  });

  test('an empty list clears it', async () => {
    const ctx = ws.context();
    ctx.todos.set([{ subject: 'old', status: 'pending' }]);
    assert.equal((await todoWriteTool.execute({ todos: [] }, ctx)).output, 'Cleared the task list.');
    assert.equal((await todoReadTool.execute({}, ctx)).output, 'The task list is empty.');
  });

  test('target no workspace path', () => {
    assert.deepEqual(todoWriteTool.targets({ todos: [] }), { paths: [] });
    assert.deepEqual(todoReadTool.targets({}), { paths: [] });
  });
});

import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { askTool } from './askTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import type { AskQuestion } from './types';

describe('ask', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const questions = [
    { id: 'db', prompt: 'Which database?', type: 'select', options: ['sqlite', 'postgres'] },
    { id: 'name', prompt: 'Project name?', type: 'text', required: false },
  ];

  test('passes the questions to the user and returns the answers as text', async () => {
    let received: AskQuestion[] = [];
    const ctx = ws.context({ ask: async (qs) => ((received = qs), { db: 'postgres' }) });
    const outcome = await askTool.execute({ questions }, ctx);
    assert.deepEqual(received, questions);
    assert.equal(outcome.output, 'Which database?\n→ postgres\n\nProject name?\n→ (no answer)');
  });

  test('a skipped prompt says so', async () => {
    const outcome = await askTool.execute({ questions }, ws.context({ ask: async () => null }));
    assert.deepEqual([outcome.ok, outcome.status], [true, 'success']);
    assert.match(outcome.output, /^The user skipped the questions/);
  });

  test('rejects malformed questions without asking', async () => {
    let asked = false;
    const ctx = ws.context({ ask: async () => ((asked = true), {}) });
    const outcome = await askTool.execute({ questions: [{ id: 'x', prompt: 'Pick', type: 'select' }] }, ctx);
    assert.match(outcome.output, /select question needs 'options'/);
    assert.match((await askTool.execute({ questions: [] }, ctx)).output, /must not be empty/);
    assert.equal(asked, false);
  });

  test('targets no workspace path', () => {
    assert.deepEqual(askTool.targets({ questions }), { paths: [] });
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CommandOf } from '../../protocol';
import type { SubagentSettings } from '../config/coreConfig';
import { goalSettings } from './goalOptions';

const SUBAGENTS = { parallelConcurrency: 4, parallelMaxTasks: 64 } as SubagentSettings;
const start = (fields: Partial<CommandOf<'start_goal'>>): CommandOf<'start_goal'> => ({
  type: 'start_goal',
  goal: 'build it',
  model: 'm',
  ...fields,
});

test("start_goal's errors are upstream's", () => {
  assert.equal(goalSettings(start({ goal: '  ' }), SUBAGENTS), 'goal text must not be empty');
  assert.equal(goalSettings(start({ goal: 'abc' }), SUBAGENTS), 'goal text is too short');
  assert.equal(goalSettings(start({ concurrency: 5, max_tasks: 2 }), SUBAGENTS), 'concurrency (5) cannot exceed max_tasks (2)');
});

test('defaults from the subagent settings, clamps, and drops role models outside the allowlist', () => {
  const plain = goalSettings(start({}), SUBAGENTS);
  assert.ok(typeof plain !== 'string');
  assert.deepEqual([plain.concurrency, plain.maxTasks, plain.autoDeploy, plain.reasoningEffort], [4, 64, true, 'medium']);
  const clamped = goalSettings(
    start({
      concurrency: 99,
      max_tasks: 99,
      allowed_models: ['a'],
      worker_model: 'b',
      planner_model: ' a ',
      model_concurrency: { a: 50, b: 1 },
    }),
    SUBAGENTS,
  );
  assert.ok(typeof clamped !== 'string');
  assert.deepEqual([clamped.concurrency, clamped.maxTasks], [32, 64]);
  assert.deepEqual(clamped.roleModels, { planner: 'a', worker: null, reviewer: null });
  assert.deepEqual(clamped.modelConcurrency, { a: 32 });
});

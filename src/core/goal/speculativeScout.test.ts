import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoutModel, scoutTask, SCOUT_TASK_HEADING } from './speculativeScout';

test("the scout runs on the planning model, or the goal's first allowed model when the allowlist leaves it out", () => {
  assert.equal(scoutModel({ allowedModels: [] }, 'planner-model'), 'planner-model');
  assert.equal(scoutModel({ allowedModels: ['a', 'planner-model'] }, 'planner-model'), 'planner-model');
  assert.equal(scoutModel({ allowedModels: ['a', 'b'] }, 'planner-model'), 'a');
});

test("the scout's task: its heading first, the goal, read-only, and a short report", () => {
  const task = scoutTask('Add a --json flag');
  assert.ok(task.startsWith(`${SCOUT_TASK_HEADING}\n`));
  assert.match(task, /# Goal\nAdd a --json flag\n/);
  assert.match(task, /do not modify any file/);
  assert.match(task, /under 800 words/);
});

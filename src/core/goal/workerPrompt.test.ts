import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CommandOf } from '../../protocol';
import type { SubagentSettings } from '../config/coreConfig';
import { goalSettings } from '../commands/goalOptions';
import type { GoalPlan, GoalSettings, PlanStep } from './goalTypes';
import { stepPrompts } from './workerPrompt';

const settings = (fields: Partial<CommandOf<'start_goal'>>): GoalSettings =>
  goalSettings({ type: 'start_goal', goal: 'build it', model: 'm', ...fields }, {
    parallelConcurrency: 4,
    parallelMaxTasks: 64,
  } as SubagentSettings) as GoalSettings;
const step = (id: string, agent: string, model: string | null = null): PlanStep => ({
  id,
  agent,
  title: id,
  task: `do ${id}`,
  model,
  depends_on: [],
  parallel_group: null,
});
const plan = (...steps: PlanStep[]): GoalPlan => ({ summary: 's', steps, risks: [], validation: [] });

test("a role pin applies to its own agent's steps only; others keep their step model (upstream's resolve_step_model)", () => {
  const pinned = settings({ planner_model: 'p', worker_model: 'w', reviewer_model: 'r' });
  const prompts = stepPrompts(
    pinned,
    plan(step('1', 'worker', 'x'), step('2', 'reviewer'), step('3', 'delegate', 'x'), step('4', 'scout')),
  );
  assert.deepEqual(
    prompts.map((p) => p.model),
    ['w', 'r', 'x', null],
  );
});

test('a step model outside a non-empty allowlist becomes the first allowed one', () => {
  const allowed = settings({ allowed_models: ['a', 'b'] });
  assert.deepEqual(
    stepPrompts(allowed, plan(step('1', 'delegate', 'b'), step('2', 'delegate', 'zzz'), step('3', 'delegate'))).map((p) => p.model),
    ['b', 'a', null],
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planWaves, validatePlan, type PlanLimits } from './planValidation';

const LIMITS: PlanLimits = { maxTasks: 3, allowedModels: [], agents: ['worker', 'scout'] };
const step = (fields: object) => ({ agent: 'worker', task: 'do it', ...fields });

test("refuses each malformed plan with upstream's message, in upstream's order", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ steps: [step({})] }, "goal_write_plan requires a non-empty 'summary'"],
    [{ summary: 's' }, "goal_write_plan requires a 'steps' array"],
    [{ summary: 's', steps: [] }, 'goal_write_plan requires at least one step'],
    [{ summary: 's', steps: [step({}), step({}), step({}), step({})] }, 'plan has 4 steps (max_tasks=3)'],
    [{ summary: 's', steps: [step({ id: 'x' }), step({ id: 'x' })] }, "duplicate step id 'x'"],
    [{ summary: 's', steps: [step({ agent: '' })] }, "step '1' missing agent"],
    [{ summary: 's', steps: [step({ task: ' ' })] }, "step '1' missing task prompt"],
    [{ summary: 's', steps: [step({ depends_on: ['9'] })] }, "step '1' depends on unknown id '9'"],
    [{ summary: 's', steps: [step({ depends_on: ['1'] })] }, "step '1' cannot depend on itself"],
    [{ summary: 's', steps: [step({ depends_on: ['2'] }), step({ depends_on: ['1'] })] }, 'step depends_on graph contains a cycle'],
    [{ summary: 's', steps: [step({ agent: 'wizard' })] }, "step '1' uses unknown agent 'wizard'; available agents: worker, scout"],
  ];
  for (const [args, message] of cases) assert.equal(validatePlan(args, LIMITS), message);
});

test('fills the defaults: ids from the index, titles, no model outside the allowlist', () => {
  const plan = validatePlan(
    { summary: ' s ', steps: [step({ model: 'other' }), step({ id: 'b', title: 'B', model: 'm1', depends_on: ['1'] })], risks: ['r', 3] },
    { ...LIMITS, allowedModels: ['m1'] },
  );
  assert.ok(typeof plan !== 'string');
  assert.deepEqual(
    plan.steps.map((s) => [s.id, s.title, s.model, s.depends_on]),
    [
      ['1', 'step 1', null, []],
      ['b', 'B', 'm1', ['1']],
    ],
  );
  assert.deepEqual([plan.summary, plan.risks, plan.validation], ['s', ['r'], []]);
});

test('waves are the topological levels, each sorted by id', () => {
  const plan = validatePlan(
    { summary: 's', steps: [step({ id: 'c', depends_on: ['a', 'b'] }), step({ id: 'b' }), step({ id: 'a' })] },
    LIMITS,
  );
  assert.ok(typeof plan !== 'string');
  assert.deepEqual(planWaves(plan.steps), [['a', 'b'], ['c']]);
});

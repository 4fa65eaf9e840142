import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goalWritePlanTool } from './goalWritePlanTool';
import { coreTools } from '../app/allTools';
import type { ToolContext } from '../tools/types';

const { get: getTool, kind: toolKind, offered: offeredTools, newLoadedTools } = coreTools;

test('goal_write_plan is known to the gate, read-only, and never offered or loadable outside a planning turn', () => {
  assert.equal(getTool('goal_write_plan'), goalWritePlanTool);
  assert.equal(toolKind('goal_write_plan'), 'readonly');
  const loaded = newLoadedTools();
  loaded.load(['all']);
  assert.equal(
    offeredTools(loaded).some((t) => t.name === 'goal_write_plan'),
    false,
  );
  assert.equal(loaded.has('goal_write_plan'), false);
});

test('without a planning goal it answers the phase error; an accepted plan ends the turn', async () => {
  const ctx = { signal: new AbortController().signal } as ToolContext;
  const idle = await goalWritePlanTool.execute({}, ctx);
  assert.deepEqual([idle.ok, idle.output], [false, 'goal_write_plan only valid during planning (phase=idle)']);
  const accepted = await goalWritePlanTool.execute(
    {},
    { ...ctx, goalPlan: { writePlan: () => ({ ok: true, output: 'Plan accepted (1 steps).' }) } },
  );
  assert.deepEqual([accepted.ok, accepted.output, accepted.endsTurn], [true, 'Plan accepted (1 steps).', true]);
  const refused = await goalWritePlanTool.execute({}, { ...ctx, goalPlan: { writePlan: () => ({ ok: false, output: 'bad' }) } });
  assert.deepEqual([refused.ok, refused.endsTurn], [false, undefined]);
});

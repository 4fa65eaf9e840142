// Goal mode's limits over stdio (issue #16): max_tasks caps the plan, and concurrency caps the workers running at once —
// asserted from the workers' own subagent_start/subagent_done, both by their timestamps and by the stream's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoreEvent } from '../support/coreProcess';
import { TEST_MODEL } from '../support/coreScenario';
import { goalSettled, startGoalScenario, withoutScout } from '../support/goalScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const step = (id: string) => ({ id, agent: 'delegate', task: `[step-${id}] Work on ${id}.` });

/** The most runs live at once: [started_at, ended_at) intervals, an end counted before a start at the same instant. */
function peakByTimestamps(starts: CoreEvent[], dones: CoreEvent[]): number {
  const edges = [...starts.map((e) => [e.started_at, 1]), ...dones.map((e) => [e.ended_at, -1])].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let live = 0;
  let peak = 0;
  for (const [, delta] of edges) peak = Math.max(peak, (live += delta));
  return peak;
}

/** The most runs live at once by the order the core reported them in. */
function peakByOrder(events: CoreEvent[], runIds: Set<string>): number {
  let live = 0;
  let peak = 0;
  for (const e of events) {
    if (!runIds.has(e.run_id)) continue;
    if (e.type === 'subagent_start') peak = Math.max(peak, ++live);
    if (e.type === 'subagent_done') live--;
  }
  return peak;
}

test('max_tasks refuses a longer plan, and concurrency is never exceeded by the workers', { timeout: 60_000 }, async () => {
  const s = await startGoalScenario({
    script: [
      calls('call_long', 'goal_write_plan', { summary: 'Too long.', steps: ['a', 'b', 'c', 'd', 'e'].map(step) }),
      calls('call_plan', 'goal_write_plan', { summary: 'Four at most.', steps: ['a', 'b', 'c', 'd'].map(step) }),
      says('Wrapped up.'),
    ],
    routes: {
      '[step-a]': [{ holdUntil: 'first', steps: [{ text: 'a done' }] }],
      '[step-b]': [{ holdUntil: 'first', steps: [{ text: 'b done' }] }],
      '[step-c]': [says('c done')],
      '[step-d]': [says('d done')],
    },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'start_goal', model: TEST_MODEL, goal: 'Four steps, two at a time', concurrency: 2, max_tasks: 4 });
    // Both held workers have their slots: the other two must wait for one of them.
    await s.model.held('first', 2);
    s.model.release('first');
    const { ended, events } = await goalSettled(s, 'done', from);

    const refused = events.find((e) => e.type === 'tool_result' && e.id === 'call_long')!;
    assert.deepEqual([refused.ok, refused.output], [false, 'plan has 5 steps (max_tasks=4)']);
    const starts = withoutScout(events).filter((e) => e.type === 'subagent_start' && e.parent_run_id === ended.id);
    const runIds = new Set(starts.map((e) => e.run_id));
    const dones = events.filter((e) => e.type === 'subagent_done' && runIds.has(e.run_id));
    assert.equal(starts.length, 4, 'one worker per step, never more than max_tasks');
    assert.equal(dones.length, 4);
    assert.equal(peakByOrder(events, runIds), 2, 'two workers ran at once, and never three (stream order)');
    assert.equal(peakByTimestamps(starts, dones), 2, 'nor by their started_at/ended_at');
    assert.equal(s.model.peakInFlight('[step-a]', '[step-b]', '[step-c]', '[step-d]'), 2, 'nor at the model server');
    assert.deepEqual(
      ended.prompts.map((p: any) => p.status),
      ['done', 'done', 'done', 'done'],
    );
  } finally {
    s.model.release('first');
    await s.close();
  }
});

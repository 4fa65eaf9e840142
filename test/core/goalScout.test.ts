// The goal's speculative scout over stdio (issue #26): a read-only `scout` child of the goal that runs while the planner
// plans. The planner answers from the default FIFO, the scout from its own route (SCOUT_ROUTE), each held at a gate
// when the test needs it still running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCOUT_FINDINGS_MAX_CHARS, SCOUT_FINISHED_INFO, SCOUT_RESOURCE_LABEL } from '../../src/core/goal/speculativeScout';
import type { CoreEvent } from '../support/coreProcess';
import { TEST_MODEL, type Scenario } from '../support/coreScenario';
import { goalSettled, isScoutStart, SCOUT_GATE, SCOUT_ROUTE, startGoalScenario } from '../support/goalScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const SCENARIO = { timeout: 60_000 };

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const ONE_STEP_PLAN = { summary: 'One step.', steps: [{ id: 'a', agent: 'delegate', task: '[step-a] Do the thing.' }] };
const writesPlan = (extra: Partial<ScriptedResponse> = {}): ScriptedResponse => ({
  ...extra,
  steps: [{ toolCall: { id: 'call_plan', name: 'goal_write_plan', arguments: ONE_STEP_PLAN } }],
});

const lastUserMessage = (request: { body: any }): string =>
  String(request.body.messages.filter((m: any) => m.role === 'user').at(-1)?.content ?? '');

async function runtimeStatus(s: Scenario): Promise<CoreEvent> {
  const at = s.core.events.length;
  s.core.send({ type: 'runtime_status' });
  return s.core.waitForType('runtime_status', { from: at });
}

const scoutResources = (status: CoreEvent) => status.resources.filter((r: any) => r.label === SCOUT_RESOURCE_LABEL);

test(
  'start_goal starts the scout under the goal; cancel_goal stops it with the planner, and nothing of it stays live',
  SCENARIO,
  async () => {
    const s = await startGoalScenario({ script: [writesPlan({ holdUntil: 'planner' })] });
    try {
      const from = s.core.events.length;
      s.core.send({ type: 'start_goal', model: TEST_MODEL, goal: 'Map the notes module', auto_deploy: true });
      await s.model.held(SCOUT_GATE);
      await s.model.held('planner');
      const scout = await s.core.waitFor(isScoutStart, { from });
      const goalId = s.core.events.slice(from).find((e) => e.type === 'goal_state')!.id;
      assert.deepEqual([scout.agent, scout.mode, scout.parent_run_id, scout.depth], ['scout', 'single', goalId, 1]);

      const [request] = s.model.requestsFor(SCOUT_ROUTE);
      assert.equal(request.body.model, TEST_MODEL, "the scout runs on the planning turn's model");
      assert.match(lastUserMessage(request), /Map the notes module/);
      assert.match(lastUserMessage(request), /do not modify any file/);
      assert.match(lastUserMessage(request), /under 800 words/);

      const before = await runtimeStatus(s);
      assert.deepEqual(
        scoutResources(before).map((r: any) => [r.kind, r.run_id, r.cancelled]),
        [['subagent', scout.run_id, false]],
        'while it runs the scout is a live resource with upstream’s label',
      );

      const at = s.core.events.length;
      s.core.send({ type: 'cancel_goal' });
      const done = await s.core.waitFor((e) => e.type === 'subagent_done' && e.run_id === scout.run_id, { from: at });
      assert.deepEqual([done.state, done.parent_run_id], ['cancelled', goalId]);
      await s.core.waitFor((e) => e.type === 'info' && e.message === 'goal cancelled', { from: at });
      const cancelled = await s.core.waitFor((e) => e.type === 'run_cancelled', { from: at });
      assert.equal(cancelled.reason, 'goal_cancelled', 'the planning turn is cancelled too');
      assert.equal(await s.model.responseEnd(request), 'closed_by_client', "the scout's stream was abandoned");

      const after = await runtimeStatus(s);
      assert.deepEqual(
        scoutResources(after).filter((r: any) => !r.cancelled),
        [],
        'no scout resource is left uncancelled',
      );
      assert.ok(
        !s.core.events.slice(at).some((e) => e.type === 'info' && e.message === SCOUT_FINISHED_INFO),
        'a cancelled scout reports no findings',
      );
    } finally {
      s.model.release('planner');
      await s.close();
    }
  },
);

test('findings that arrive before the plan go into every step’s task, capped; the planner never waits for them', SCENARIO, async () => {
  const findings = `Entry point: src/notes.ts. ${'x'.repeat(SCOUT_FINDINGS_MAX_CHARS)}`;
  const s = await startGoalScenario({
    script: [writesPlan({ holdUntil: 'planner' }), says('Wrapped up.')],
    routes: { [SCOUT_ROUTE]: [says(findings)], '[step-a]': [says('Did the thing.')] },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'start_goal', model: TEST_MODEL, goal: 'Use what the scout found' });
    // The scout agent writes its report to its `output` file (context.md, which workers read): a destructive write.
    const write = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool === 'write_file', { from });
    s.core.send({ type: 'approve', request_id: write.request_id, decision: 'yes' });
    await s.core.waitFor((e) => e.type === 'info' && e.message === SCOUT_FINISHED_INFO, { from });
    const scout = s.core.events.slice(from).find(isScoutStart)!;
    const scoutDone = s.core.events.slice(from).find((e) => e.type === 'subagent_done' && e.run_id === scout.run_id)!;
    assert.equal(scoutDone.state, 'completed');
    s.model.release('planner');
    await goalSettled(s, 'done', from);

    const task = lastUserMessage(s.model.requestsFor('[step-a]')[0]);
    const block = /# Speculative scout findings\n([\s\S]*?)\n\n# Tools/.exec(task)?.[1];
    assert.equal(block, findings.slice(0, SCOUT_FINDINGS_MAX_CHARS), 'the findings, cut to their cap, between the criteria and the tools');
  } finally {
    s.model.release('planner');
    await s.close();
  }
});

test('a scout still running when the plan is written is stopped by the deploy, before any worker, and adds nothing', SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [writesPlan(), says('Wrapped up.')],
    routes: { '[step-a]': [says('Did the thing.')] },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'start_goal', model: TEST_MODEL, goal: 'Plan faster than the scout' });
    const { events } = await goalSettled(s, 'done', from);
    const scout = events.find(isScoutStart)!;
    const stopped = events.findIndex((e) => e.type === 'subagent_done' && e.run_id === scout.run_id);
    assert.equal(events[stopped].state, 'cancelled');
    const firstWorker = events.findIndex((e) => e.type === 'subagent_start' && !isScoutStart(e));
    assert.ok(stopped >= 0 && stopped < firstWorker, 'the deploy stops the scout before its first worker starts');
    assert.doesNotMatch(lastUserMessage(s.model.requestsFor('[step-a]')[0]), /Speculative scout findings/);
    assert.ok(!events.some((e) => e.type === 'info' && e.message === SCOUT_FINISHED_INFO));
    assert.deepEqual(scoutResources(await runtimeStatus(s)), []);
  } finally {
    await s.close();
  }
});

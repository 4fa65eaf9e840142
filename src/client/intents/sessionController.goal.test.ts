// Goal mode's intents against the real core: /goal plans and waits for review, approve deploys the workers, the state
// follows; an SCV server answers that it has no goal mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NoticeItem, SessionState, SubagentItem } from '../../shared/sessionState';
import { parkedScout, SCOUT_ROUTE } from '../../../test/support/goalScenario';
import { realCoreEnv, unstartedScvController, untilState, useRealCoreControllers } from '../../../test/support/realCoreHarness';

const startController = useRealCoreControllers();
const PLAN = {
  summary: 'Two steps, one after the other.',
  steps: [
    { id: 'a', agent: 'delegate', title: 'Look', task: 'Look around.' },
    { id: 'b', agent: 'delegate', title: 'Report', task: 'Report.', depends_on: ['a'] },
  ],
  validation: ['the report exists'],
};

const notices = (s: SessionState) => s.items.filter((i): i is NoticeItem => i.kind === 'notice').map((i) => i.text);

test('/goal <text> plans and waits for review; approve deploys the workers; the goal ends done', { timeout: 60_000 }, async () => {
  const env = await realCoreEnv([
    { steps: [{ toolCall: { id: 'call_plan', name: 'goal_write_plan', arguments: PLAN } }] },
    { steps: [{ text: 'Looked: one file.' }] },
    { steps: [{ text: 'Report: one file.' }] },
    // The plan has validation criteria, so the classic reviewer judges the last wave.
    { steps: [{ text: 'The report is there. VERDICT: PASS' }] },
  ]);
  env.model.route(SCOUT_ROUTE, parkedScout());
  const controller = await startController(env);

  assert.equal(controller.runSlash('goal', 'Report on the workspace'), true);
  const ready = await untilState(controller, (s) => s.goal?.phase === 'plan_ready' && s.goal.plan !== undefined && s.run.status === 'idle');
  assert.deepEqual(
    [ready.goal?.goal, ready.goal?.autoDeploy, ready.goal?.plan?.steps.map((st) => [st.id, st.status, st.dependsOn])],
    [
      'Report on the workspace',
      false,
      [
        ['a', 'pending', []],
        ['b', 'pending', ['a']],
      ],
    ],
  );

  const before = notices(controller.state).length;
  assert.equal(controller.goalAction('revise', '  '), false, 'a revision needs feedback');
  assert.deepEqual(notices(controller.state).slice(before), ['Say what the plan should change.']);

  assert.equal(controller.goalAction('approve'), true);
  // work_state follows the last goal_state.
  const done = await untilState(controller, (s) => s.goal?.phase === 'done' && s.workState?.lastActivity === 'goal:done');
  const goal = done.goal!;
  assert.deepEqual(
    goal.plan?.steps.map((st) => [st.id, st.status, st.summary]),
    [
      ['a', 'done', 'Looked: one file.'],
      ['b', 'done', 'Report: one file.'],
    ],
  );
  assert.match(goal.completionSummary ?? '', /Outcome: 2\/2 step\(s\) done/);
  assert.deepEqual(
    goal.verdicts.map((v) => [v.kind, v.ok]),
    [['step', true]],
    "the reviewer's verdict",
  );
  const runs = done.items.filter((i): i is SubagentItem => i.kind === 'subagent');
  assert.deepEqual(
    runs.map((w) => [w.id, w.agent, w.runId, w.parentRunId, w.parentToolCallId, w.state]),
    [
      [runs[0]?.id, 'scout', goal.id, goal.id, undefined, 'cancelled'],
      ...goal.plan!.steps.map((st) => [st.runId, 'delegate', goal.id, goal.id, undefined, 'completed']),
      [runs[3]?.id, 'reviewer', goal.id, goal.id, undefined, 'completed'],
    ],
    'the speculative scout (stopped by the deploy), the two workers, then the reviewer: all runs under the goal',
  );
});

test('a rich wrap-up (no goal_completion_summary follows it) is the goal’s completion summary', { timeout: 60_000 }, async () => {
  const wrapUp = `## What was done\n\n${'The workspace was looked at and the report written; nothing else changed. '.repeat(4)}`;
  assert.ok(wrapUp.trim().length >= 200, 'long enough to stand as the summary in the core');
  const env = await realCoreEnv([
    { steps: [{ toolCall: { id: 'call_plan', name: 'goal_write_plan', arguments: { summary: 'One.', steps: [PLAN.steps[0]] } } }] },
    { steps: [{ text: 'Looked: one file.' }] },
    { steps: [{ text: wrapUp }] },
  ]);
  env.model.route(SCOUT_ROUTE, parkedScout());
  const controller = await startController(env);
  assert.equal(controller.startGoal({ goal: 'Look and wrap up', autoDeploy: true }), true);
  const done = await untilState(controller, (s) => s.goal?.phase === 'done' && s.run.status === 'idle');
  assert.equal(done.goal?.completionSummary, wrapUp);
});

test('an SCV server has no goal mode: /goal and the actions say so and send nothing', () => {
  const controller = unstartedScvController();
  assert.equal(controller.runSlash('goal', 'Ship it'), false);
  assert.equal(controller.goalAction('cancel'), false);
  assert.deepEqual(notices(controller.state), ['An SCV server has no goal mode.', 'An SCV server has no goal mode.']);
});

// Goal mode over stdio (issue #16, classic mode): the real core as a child process; the planning and wrap-up turns
// scripted on the default FIFO, each worker on the route of its step's key (its task is its last user message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { subagentTarget } from '../../src/protocol/subagents';
import { CoreProcess, type CoreEvent } from '../support/coreProcess';
import { TEST_MODEL, type Scenario } from '../support/coreScenario';
import { goalEnded, goalSettled, startGoalScenario, nonScoutChats, withoutScout, isScoutStart } from '../support/goalScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const SCENARIO = { timeout: 60_000 };

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });

/** Two independent steps, then one that depends on both: waves [a, b] and [c]. */
const THREE_STEPS = {
  summary: 'Read the notes, then report.',
  steps: [
    { id: 'a', agent: 'worker', title: 'Read the notes', task: '[step-a] Read notes.txt and give its first line.' },
    { id: 'b', agent: 'delegate', title: 'Look around', task: '[step-b] List the workspace.' },
    { id: 'c', agent: 'worker', title: 'Report', task: '[step-c] Report what the others found.', depends_on: ['a', 'b'] },
  ],
  risks: ['none'],
  validation: ['the report names the first line'],
};

const UPSTREAM_GOAL_STATE_FIELDS =
  'id goal phase concurrency max_tasks allowed_models allowed_providers auto_deploy ceo_mode mode iteration max_iterations plan_revision ' +
  'max_plan_revisions review_verdict verify_verdict remaining_gaps self_review_feedback certified role_models model_concurrency prompts ' +
  'active_run_ids version error parent_model';
const envelope = new Set(['type', 'protocol_version', 'session_id', 'run_id', 'sequence']);

/** The classic validation reviewer's task heading (its route). */
const VALIDATION = '# Goal validation';

const toolNames = (request: { body: any }): string[] => (request.body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
/** The chat requests (the core also asks GET /models). */
const chats = nonScoutChats;
const lastUserMessage = (request: { body: any }): string =>
  String(request.body.messages.filter((m: any) => m.role === 'user').at(-1)?.content ?? '');

/** The goal_phase transitions of a slice, as `from→to`. */
const phases = (events: CoreEvent[]): string[] => events.filter((e) => e.type === 'goal_phase').map((e) => `${e.from}→${e.to}`);

async function startGoal(s: Scenario, fields: object): Promise<number> {
  const from = s.core.events.length;
  s.core.send({ type: 'start_goal', model: TEST_MODEL, ...fields });
  return from;
}

test('a goal with auto_deploy off: plan, approve, two waves of workers as child runs, the completion summary', SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [calls('call_plan', 'goal_write_plan', THREE_STEPS), says('Wrapped up.'), says('A plain answer.')],
    routes: {
      '[step-a]': [calls('call_1', 'read_file', { path: 'notes.txt' }), says('The first line is alpha.')],
      '[step-b]': [says('The workspace holds notes.txt.')],
      '[step-c]': [says('Report: the first line is alpha.')],
      [VALIDATION]: [says('The report names alpha.\nVERDICT: PASS')],
    },
    files: { 'notes.txt': 'alpha\nbeta\n' },
  });
  try {
    const from = await startGoal(s, { goal: 'Report the first line of notes.txt', auto_deploy: false, concurrency: 1, max_tasks: 4 });
    await s.core.waitForType('done', { from });
    const planning = s.core.events.slice(from);
    const workState = planning.findIndex((e) => e.type === 'work_state');
    const stateAt = planning.findIndex((e) => e.type === 'goal_state');
    const infoAt = planning.findIndex((e) => e.type === 'info' && e.message === 'Goal mode: planning…');
    assert.ok(workState >= 0 && workState < stateAt && stateAt < infoAt, 'start_goal: work_state, goal_state, then the info');
    const started = planning[stateAt];
    assert.deepEqual(
      Object.keys(started)
        .filter((k) => !envelope.has(k))
        .sort(),
      UPSTREAM_GOAL_STATE_FIELDS.split(' ').sort(),
      "goal_state carries upstream's fields, no more, no fewer",
    );
    assert.match(started.id, /^goal-\d+$/);
    assert.deepEqual(
      [started.phase, started.version, started.concurrency, started.max_tasks, started.auto_deploy],
      ['planning', 1, 1, 4, false],
    );
    assert.deepEqual(phases(planning), ['planning→plan_ready']);

    const plan = planning.find((e) => e.type === 'goal_plan')!;
    assert.deepEqual(
      Object.keys(plan)
        .filter((k) => !envelope.has(k))
        .sort(),
      ['id', 'summary', 'steps', 'risks', 'validation', 'version'].sort(),
    );
    assert.deepEqual(
      plan.steps.map((st: any) => [st.id, st.agent, st.title, st.depends_on]),
      [
        ['a', 'worker', 'Read the notes', []],
        ['b', 'delegate', 'Look around', []],
        ['c', 'worker', 'Report', ['a', 'b']],
      ],
    );
    assert.deepEqual(
      [plan.id, plan.summary, plan.risks, plan.validation],
      [started.id, THREE_STEPS.summary, ['none'], THREE_STEPS.validation],
    );
    const result = planning.find((e) => e.type === 'tool_result' && e.id === 'call_plan')!;
    assert.equal(result.output, 'Plan accepted (3 steps). Waiting for approve_goal_plan.');
    const planned = planning.filter((e) => e.type === 'work_state').at(-1)!;
    assert.deepEqual([planned.next, planned.last_activity], [['Read the notes', 'Look around', 'Report'], 'goal:plan_ready']);
    assert.ok(toolNames(chats(s)[0]).includes('goal_write_plan'), 'the planning turn offers goal_write_plan');
    assert.match(lastUserMessage(chats(s)[0]), /Report the first line of notes\.txt/);
    assert.equal(chats(s).length, 1, 'a plan accepted ends the planning turn after its tool batch');

    let at = s.core.events.length;
    s.core.send({ type: 'goal_status' });
    await s.core.waitForType('goal_plan', { from: at });
    assert.deepEqual(
      s.core.events.slice(at).map((e) => [e.type, e.phase]),
      [
        ['goal_state', 'plan_ready'],
        ['goal_plan', undefined],
      ],
    );

    at = s.core.events.length;
    s.core.send({ type: 'approve_goal_plan' });
    // goal_state follows its goal_phase: waiting for it keeps the slice from ending between the two.
    const { events: deploy } = await goalSettled(s, 'done', at);
    const checkpoint = deploy.find((e) => e.type === 'checkpoint_created')!;
    assert.deepEqual([checkpoint.label, checkpoint.auto], ['auto-before-goal-deploy', true]);
    assert.ok(
      deploy.indexOf(checkpoint) < deploy.findIndex((e) => e.type === 'goal_phase' && e.to === 'deploying'),
      'the workspace is snapshotted before any worker runs',
    );
    assert.deepEqual(phases(deploy), [
      'plan_ready→deploying',
      'deploying→running',
      'running→running',
      'running→synthesizing',
      'synthesizing→done',
    ]);
    const waves = deploy.filter((e) => e.type === 'goal_phase' && e.to === 'running');
    assert.deepEqual(
      waves.map((e) => [e.wave, e.step_count, e.done_count, e.message]),
      [
        [1, 3, 0, 'wave 1 — dispatching steps'],
        [2, 3, 2, 'wave 2 — dispatching steps'],
      ],
    );

    const allStarts = deploy.filter((e) => e.type === 'subagent_start');
    assert.deepEqual(
      allStarts.map((e) => [e.agent, e.mode, e.parent_run_id, e.depth]),
      [
        ['worker', 'single', started.id, 1],
        ['delegate', 'single', started.id, 1],
        ['worker', 'single', started.id, 1],
        ['reviewer', 'single', started.id, 1],
      ],
      "each step is a child run of the goal, in wave order (sorted ids), then the validation reviewer, with upstream's subagent events",
    );
    const starts = allStarts.slice(0, 3);
    const verdict = deploy.find((e) => e.type === 'goal_step_verdict')!;
    assert.deepEqual([verdict.ok, verdict.provider_ok, verdict.output], [true, true, 'The report names alpha.\nVERDICT: PASS']);
    assert.match(lastUserMessage(s.model.requestsFor(VALIDATION)[0]), /- the report names the first line/);
    assert.ok(
      deploy.indexOf(verdict) < deploy.findIndex((e) => e.type === 'goal_phase' && e.to === 'synthesizing'),
      'the criteria are checked after the last wave, before the synthesis',
    );
    const completes = deploy.filter((e) => e.type === 'goal_step_complete');
    assert.deepEqual(
      completes.map((e) => [e.step_id, e.ok, e.status, e.summary, e.run_id]),
      [
        ['a', true, 'done', 'The first line is alpha.', starts[0].run_id],
        ['b', true, 'done', 'The workspace holds notes.txt.', starts[1].run_id],
        ['c', true, 'done', 'Report: the first line is alpha.', starts[2].run_id],
      ],
    );
    for (const start of starts) {
      const done = deploy.find((e) => e.type === 'subagent_done' && e.run_id === start.run_id)!;
      assert.equal(done.state, 'completed');
      assert.ok(deploy.indexOf(done) < deploy.findIndex((e) => e.type === 'goal_step_complete' && e.run_id === start.run_id));
    }
    assert.ok(
      deploy.some((e) => e.type === 'subagent_tool_result' && e.run_id === starts[0].run_id && e.name === 'read_file' && e.ok),
      "step a's read_file ran in its child run",
    );

    const cTask = lastUserMessage(s.model.requestsFor('[step-c]')[0]);
    assert.match(cTask, /Prior step outputs/);
    assert.match(cTask, /The first line is alpha\./, "step c's task carries its dependencies' outputs");
    assert.match(cTask, /# Validation criteria for the overall goal\n- the report names the first line/);
    assert.ok(!toolNames(s.model.requestsFor('[step-a]')[0]).includes('goal_write_plan'), 'a worker is never offered goal_write_plan');
    assert.ok(s.model.peakInFlight('[step-a]', '[step-b]', '[step-c]') <= 1, 'concurrency 1: never two workers at once');

    const wrapUp = chats(s).find((r) => lastUserMessage(r).startsWith('# Goal wrap-up'))!;
    assert.match(
      lastUserMessage(wrapUp),
      /\[done\] Report \(worker\): Report: the first line is alpha\./,
      'the wrap-up turn reads the results',
    );
    assert.ok(
      deploy.findIndex((e) => e.type === 'info' && e.message === 'Goal deploy complete — starting follow-up turn…') >
        deploy.findIndex((e) => e.type === 'goal_phase' && e.to === 'synthesizing'),
    );
    // "Wrapped up." is shorter than a summary: the deterministic report is sent as well.
    const summary = deploy.find((e) => e.type === 'goal_completion_summary')!;
    assert.match(summary.text, /Outcome: 3\/3 step\(s\) done/);
    assert.match(summary.text, /\[done\] Report \(worker\): Report: the first line is alpha\./);
    assert.ok(deploy.indexOf(summary) < deploy.findIndex((e) => e.type === 'goal_phase' && e.to === 'done'));
    const finalState = deploy.filter((e) => e.type === 'goal_state').at(-1)!;
    assert.deepEqual(
      [finalState.phase, finalState.active_run_ids, finalState.prompts.map((p: any) => p.status)],
      ['done', [], ['done', 'done', 'done']],
    );
    assert.equal(deploy.filter((e) => e.type === 'goal_certified').length, 0, 'classic mode has no verifier: it never certifies');
    const artifact = join(s.core.workspace, '.catalyst-code', 'goal-ux', 'artifacts', started.id, 'a.md');
    assert.equal(readFileSync(artifact, 'utf8'), 'The first line is alpha.');

    const turn = await s.turn('Anything else?');
    assert.ok(turn.some((e) => e.type === 'done'));
    assert.ok(!toolNames(chats(s).at(-1)!).includes('goal_write_plan'), 'an ordinary turn is not offered goal_write_plan');
  } finally {
    await s.close();
  }
});

for (const via of ['cancel_goal', 'abort'] as const) {
  test(`${via} during deployment cancels every worker, and the goal ends cancelled`, SCENARIO, async () => {
    const held = (key: string) => ({ [key]: [{ holdUntil: 'workers', steps: [{ text: 'never read' }] }] });
    const s = await startGoalScenario({
      script: [
        calls('call_plan', 'goal_write_plan', {
          summary: 'Two at once.',
          steps: [
            { id: 'a', agent: 'delegate', task: '[step-a] First.' },
            { id: 'b', agent: 'delegate', task: '[step-b] Second.' },
            { id: 'c', agent: 'delegate', task: '[step-c] After both.', depends_on: ['a', 'b'] },
          ],
        }),
      ],
      routes: { ...held('[step-a]'), ...held('[step-b]'), '[step-c]': [says('not reached')] },
    });
    try {
      const from = await startGoal(s, { goal: 'Run two workers at once', concurrency: 2 });
      await s.model.held('workers', 2);
      // The requests can reach the server before the core's stdout reaches the test: wait for both starts too.
      for (const key of ['[step-a]', '[step-b]'])
        await s.core.waitFor((e) => e.type === 'subagent_start' && e.task.includes(key), { from });
      const running = s.core.events.slice(from);
      assert.ok(
        running.some(
          (e) => e.type === 'tool_result' && e.output === 'Plan accepted (3 steps). Deploy will start after this planning turn.',
        ),
        'auto_deploy (the default) deploys after the planning turn',
      );
      const goalId = running.find((e) => e.type === 'goal_state')!.id;
      const workers = withoutScout(running)
        .filter((e) => e.type === 'subagent_start')
        .map((e) => e.run_id);
      assert.equal(workers.length, 2, 'concurrency 2: both steps of wave 1 run at once');

      const at = s.core.events.length;
      s.core.send({ type: via });
      for (const runId of workers) {
        const done = await s.core.waitFor((e) => e.type === 'subagent_done' && e.run_id === runId, { from: at });
        assert.deepEqual([done.state, done.parent_run_id], ['cancelled', goalId]);
      }
      const ended = await s.core.waitFor((e) => e.type === 'goal_phase' && e.to === 'cancelled', { from: at });
      assert.equal(ended.from, 'running');
      await s.core.waitFor((e) => e.type === 'info' && e.message === 'goal cancelled', { from: at });

      const asked = s.core.events.length;
      s.core.send({ type: 'goal_status' });
      const state = await s.core.waitForType('goal_state', { from: asked });
      assert.deepEqual([state.phase, state.error, state.active_run_ids], ['cancelled', 'cancelled by user', []]);
      const after = s.core.events.slice(at);
      assert.deepEqual(
        after.filter((e) => ['goal_step_complete', 'goal_completion_summary', 'subagent_start'].includes(e.type)),
        [],
        'no step completes, no wave starts and no summary is sent once the goal is cancelled',
      );
      assert.equal(s.model.requestsFor('[step-c]').length, 0);
      if (via === 'abort') assert.ok(after.some((e) => e.type === 'aborted'));

      const again = s.core.events.length;
      s.core.send({ type: 'cancel_goal' });
      await s.core.waitFor((e) => e.type === 'info' && e.message === 'no active goal to cancel', { from: again });
    } finally {
      s.model.release('workers');
      await s.close();
    }
  });
}

test('start_goal refuses bad fields without a turn; approve and revise need a goal', SCENARIO, async () => {
  const s = await startGoalScenario();
  try {
    /** The command's error; `withDone`: upstream also ends it with `done`, awaited so it cannot land in a later slice. */
    const errorFor = async (cmd: object, withDone = false): Promise<CoreEvent> => {
      const at = s.core.events.length;
      s.core.send(cmd);
      const error = await s.core.waitForType('error', { from: at });
      if (withDone) await s.core.waitForType('done', { from: at });
      return error;
    };
    assert.equal((await errorFor({ type: 'start_goal', goal: 'abc', model: TEST_MODEL })).message, 'goal text is too short');
    assert.equal((await errorFor({ type: 'start_goal', goal: '   ', model: TEST_MODEL })).message, 'goal text must not be empty');
    assert.equal(
      (await errorFor({ type: 'start_goal', goal: 'do the thing', model: TEST_MODEL, concurrency: 5, max_tasks: 2 })).message,
      'concurrency (5) cannot exceed max_tasks (2)',
    );
    assert.equal((await errorFor({ type: 'start_goal', goal: 'do the thing', model: 'nope' }, true)).message, 'unknown model: nope');
    assert.equal((await errorFor({ type: 'approve_goal_plan' })).message, 'approve_goal_plan requires phase plan_ready (got idle)');
    assert.equal(
      (await errorFor({ type: 'revise_goal', feedback: 'more', model: TEST_MODEL }, true)).message,
      'no goal to revise — use start_goal first',
    );
    const at = s.core.events.length;
    s.core.send({ type: 'goal_status' });
    s.core.send({ type: 'stats' });
    await s.core.waitForType('stats', { from: at });
    const answered = s.core.events.slice(at).filter((e) => e.type.startsWith('goal_') || e.type === 'work_state' || e.type === 'stats');
    assert.deepEqual(
      answered.map((e) => [e.type, e.phase]),
      [
        ['goal_state', 'idle'],
        ['stats', undefined],
      ],
      'no goal was started by any of them',
    );
    assert.deepEqual(
      Object.keys(answered[0])
        .filter((k) => !envelope.has(k))
        .sort(),
      UPSTREAM_GOAL_STATE_FIELDS.split(' ').sort(),
      "goal_status before any goal: upstream's default GoalMode, every field",
    );
    assert.equal(chats(s).length, 0, 'and no model request was made');
  } finally {
    await s.close();
  }
});

test('a plan naming an unknown agent is refused and the planner re-plans in the same turn', SCENARIO, async () => {
  const bad = { summary: 'x', steps: [{ id: 'a', agent: 'wizard', task: 'cast' }] };
  const good = { summary: 'x', steps: [{ id: 'a', agent: 'delegate', task: 'do' }] };
  const s = await startGoalScenario({ script: [calls('call_bad', 'goal_write_plan', bad), calls('call_good', 'goal_write_plan', good)] });
  try {
    const from = await startGoal(s, { goal: 'Use a real agent', auto_deploy: false });
    await s.core.waitForType('done', { from });
    const events = s.core.events.slice(from);
    const refused = events.find((e) => e.type === 'tool_result' && e.id === 'call_bad')!;
    assert.equal(refused.ok, false);
    assert.match(refused.output, /^step 'a' uses unknown agent 'wizard'; available agents: .*delegate/);
    const accepted = events.find((e) => e.type === 'tool_result' && e.id === 'call_good')!;
    assert.equal(accepted.output, 'Plan accepted (1 steps). Waiting for approve_goal_plan.');
    assert.deepEqual(phases(events), ['planning→plan_ready']);
    assert.equal(events.filter((e) => e.type === 'goal_plan').length, 1);
  } finally {
    await s.close();
  }
});

test('reset during deployment clears the goal and stops its workers', SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [calls('call_plan', 'goal_write_plan', { summary: 'One.', steps: [{ id: 'a', agent: 'delegate', task: '[step-a] Wait.' }] })],
    routes: { '[step-a]': [{ holdUntil: 'worker', steps: [{ text: 'never read' }] }] },
  });
  try {
    const from = await startGoal(s, { goal: 'Be reset midway' });
    await s.model.held('worker');
    const worker = await s.core.waitFor((e) => e.type === 'subagent_start' && !isScoutStart(e), { from });
    const at = s.core.events.length;
    s.core.send({ type: 'reset' });
    const done = await s.core.waitFor((e) => e.type === 'subagent_done' && e.run_id === worker.run_id, { from: at });
    assert.equal(done.state, 'cancelled');
    const cleared = await s.core.waitFor((e) => e.type === 'goal_state', { from: at });
    assert.deepEqual([cleared.id, cleared.phase, cleared.concurrency, cleared.max_tasks, cleared.prompts], ['', 'idle', 0, 0, []]);
    const work = await s.core.waitFor((e) => e.type === 'work_state', { from: at });
    assert.deepEqual([work.goal, work.done, work.in_progress, work.next, work.last_activity], ['', [], [], [], '']);
    const asked = s.core.events.length;
    s.core.send({ type: 'goal_status' });
    assert.equal((await s.core.waitForType('goal_state', { from: asked })).phase, 'idle');
    assert.equal(
      s.core.events.slice(at).filter((e) => e.type === 'goal_step_complete' || e.type === 'goal_phase').length,
      0,
      'the cleared goal reports nothing more',
    );
  } finally {
    s.model.release('worker');
    await s.close();
  }
});

test('revise_goal with feedback: a new planning turn that reads it, and a new plan version', SCENARIO, async () => {
  const first = { summary: 'First try.', steps: [{ id: 'a', agent: 'delegate', task: 'do it roughly' }] };
  const second = { summary: 'Second try.', steps: [{ id: 'a', agent: 'delegate', task: 'do it carefully' }] };
  const s = await startGoalScenario({ script: [calls('call_p1', 'goal_write_plan', first), calls('call_p2', 'goal_write_plan', second)] });
  try {
    const from = await startGoal(s, { goal: 'Do it well', auto_deploy: false });
    await s.core.waitForType('done', { from });
    const plan1 = s.core.events.slice(from).find((e) => e.type === 'goal_plan')!;

    const at = s.core.events.length;
    s.core.send({ type: 'revise_goal', feedback: 'Be more careful.', model: TEST_MODEL });
    await s.core.waitForType('done', { from: at });
    const revised = s.core.events.slice(at);
    assert.deepEqual(phases(revised), ['plan_ready→planning', 'planning→plan_ready']);
    assert.equal(revised.find((e) => e.type === 'goal_phase')!.message, 'revising plan');
    const plan2 = revised.find((e) => e.type === 'goal_plan')!;
    assert.equal(plan2.summary, 'Second try.');
    assert.equal(plan2.id, plan1.id, 'the same goal');
    assert.ok(plan2.version > plan1.version, 'a new plan version');
    assert.match(lastUserMessage(chats(s)[1]), /Revision feedback on the previous plan\nBe more careful\./);
    assert.ok(toolNames(chats(s)[1]).includes('goal_write_plan'));
  } finally {
    await s.close();
  }
});

test('a worker past its timeout is cancelled and fails; its dependent is skipped; the summary says so', SCENARIO, async () => {
  const s = await startGoalScenario({
    env: { CATALYST_CODE_GOAL_WORKER_TIMEOUT_SECS: '1' },
    script: [
      calls('call_plan', 'goal_write_plan', {
        summary: 'Slow, then dependent.',
        steps: [
          { id: 'a', agent: 'delegate', task: '[step-a] Hang.' },
          { id: 'b', agent: 'delegate', task: '[step-b] After a.', depends_on: ['a'] },
        ],
      }),
      says('Wrapped up.'),
    ],
    routes: { '[step-a]': [{ holdUntil: 'never', steps: [{ text: 'never read' }] }], '[step-b]': [says('not reached')] },
  });
  try {
    const from = await startGoal(s, { goal: 'Time out a worker' });
    await s.core.waitFor((e) => e.type === 'goal_state' && e.phase === 'done', { from });
    const events = s.core.events.slice(from);
    const start = events.find((e) => e.type === 'subagent_start' && !isScoutStart(e))!;
    assert.equal(events.find((e) => e.type === 'subagent_done' && e.run_id === start.run_id)!.state, 'cancelled');
    assert.deepEqual(
      events.filter((e) => e.type === 'goal_step_complete').map((e) => [e.step_id, e.ok, e.status, e.summary]),
      [
        ['a', false, 'failed', 'goal worker timed out after 1s and was cancelled'],
        ['b', false, 'skipped', 'skipped: a dependency step failed or was skipped'],
      ],
    );
    assert.equal(s.model.requestsFor('[step-b]').length, 0);
    assert.match(
      events.find((e) => e.type === 'goal_completion_summary')!.text,
      /Outcome: 0\/2 step\(s\) done with 1 failed step\(s\), 1 skipped/,
    );
    assert.equal(events.find((e) => e.type === 'goal_phase' && e.to === 'done')!.message, 'goal complete with 1 failed step(s), 1 skipped');
  } finally {
    s.model.release('never');
    await s.close();
  }
});

test("model_concurrency caps a model's workers below the goal's concurrency", SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [
      calls('call_plan', 'goal_write_plan', {
        summary: 'Two independent steps.',
        steps: [
          { id: 'a', agent: 'delegate', task: '[step-a] First.' },
          { id: 'b', agent: 'delegate', task: '[step-b] Second.' },
        ],
      }),
      says('Wrapped up.'),
    ],
    routes: { '[step-a]': [{ holdUntil: 'first', steps: [{ text: 'a done' }] }], '[step-b]': [says('b done')] },
  });
  try {
    const from = await startGoal(s, {
      goal: 'One worker per model',
      concurrency: 2,
      allowed_models: [TEST_MODEL],
      model_concurrency: { [TEST_MODEL]: 1 },
    });
    await s.model.held('first');
    await s.core.waitFor((e) => e.type === 'subagent_start' && e.task.includes('[step-a]'), { from });
    const asked = s.core.events.length;
    s.core.send({ type: 'goal_status' });
    const state = await s.core.waitForType('goal_state', { from: asked });
    assert.deepEqual(
      state.prompts.map((p: any) => [p.step_id, p.status]),
      [
        ['a', 'running'],
        ['b', 'pending'],
      ],
      'b waits for the model slot a holds, though the goal allows 2',
    );
    s.model.release('first');
    await s.core.waitFor((e) => e.type === 'goal_state' && e.phase === 'done', { from });
    assert.equal(s.model.peakInFlight('[step-a]', '[step-b]'), 1);
  } finally {
    s.model.release('first');
    await s.close();
  }
});

test('the classic validation reviewer: a FAIL fails the last wave, and the synthesis says so', SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [
      calls('call_plan', 'goal_write_plan', {
        summary: 'Write, then check.',
        steps: [
          { id: 'a', agent: 'delegate', title: 'Draft', task: '[step-a] Draft it.' },
          { id: 'b', agent: 'delegate', title: 'Finish', task: '[step-b] Finish it.', depends_on: ['a'] },
        ],
        validation: ['the result says done'],
      }),
      says('Wrapped up.'),
    ],
    routes: {
      '[step-a]': [says('drafted')],
      '[step-b]': [says('finished')],
      [VALIDATION]: [says('Nothing says done.\nVERDICT: FAIL')],
    },
  });
  try {
    const from = await startGoal(s, { goal: 'Write something done' });
    const { ended, events } = await goalSettled(s, 'done', from);
    const verdict = events.find((e) => e.type === 'goal_step_verdict')!;
    assert.deepEqual([verdict.ok, verdict.provider_ok, verdict.output], [false, true, 'Nothing says done.\nVERDICT: FAIL']);
    assert.deepEqual(
      events.filter((e) => e.type === 'goal_step_complete').map((e) => [e.step_id, e.ok, e.status, e.summary]),
      [
        ['a', true, 'done', 'drafted'],
        ['b', true, 'done', 'finished'],
        ['b', false, 'failed', 'verifier failed: Nothing says done.\nVERDICT: FAIL'],
      ],
      'only the last wave is failed by the verdict',
    );
    assert.equal(
      events.find((e) => e.type === 'goal_phase' && e.to === 'synthesizing')!.message,
      'workers finished with 1 failed step(s) — summarizing',
    );
    assert.ok(
      events.some((e) => e.type === 'info' && e.message === 'Goal deploy complete — some steps failed; continuing to follow-up turn…'),
    );
    assert.deepEqual(
      ended.prompts.map((p: any) => p.status),
      ['done', 'failed'],
    );
    assert.equal(events.find((e) => e.type === 'goal_phase' && e.to === 'done')!.message, 'goal complete with 1 failed step(s)');
  } finally {
    await s.close();
  }
});

test(
  'the wrap-up: a rich one stands as the summary; with the turn slot busy it is skipped for the deterministic report',
  SCENARIO,
  async () => {
    const rich = `Summary: ${'the step read the notes and reported alpha; '.repeat(6)}`;
    const oneStep = (key: string) =>
      calls(`call_${key}`, 'goal_write_plan', { summary: 'One step.', steps: [{ id: 'a', agent: 'delegate', task: `[${key}] Do it.` }] });
    const s = await startGoalScenario({
      script: [oneStep('rich'), says(rich), oneStep('busy')],
      routes: {
        '[rich]': [says('done once')],
        '[busy]': [{ holdUntil: 'worker', steps: [{ text: 'done twice' }] }],
        '[user-turn]': [{ holdUntil: 'user', steps: [{ text: 'the user turn' }] }],
      },
    });
    try {
      let from = await startGoal(s, { goal: 'Wrap up richly' });
      let { events } = await goalSettled(s, 'done', from);
      assert.ok(
        events.some((e) => e.type === 'delta'),
        'the wrap-up turn streamed its text',
      );
      assert.equal(events.filter((e) => e.type === 'goal_completion_summary').length, 0, 'a wrap-up of 200+ chars is the summary');

      from = await startGoal(s, { goal: 'Wrap up while busy' });
      await s.model.held('worker');
      await s.core.waitForType('done', { from }); // the planning turn's: the slot is free for the user's turn
      const userTurn = s.core.events.length;
      s.core.send({ type: 'send', prompt: '[user-turn] Hello meanwhile.', model: TEST_MODEL });
      await s.model.held('user');
      s.model.release('worker');
      await goalEnded(s, 'done', from);
      events = s.core.events.slice(from);
      assert.ok(
        events.some((e) => e.type === 'info' && e.message === 'Goal wrapup finished without parent turn (another turn is running)'),
      );
      assert.match(events.find((e) => e.type === 'goal_completion_summary')!.text, /Outcome: 1\/1 step\(s\) done/);
      assert.equal(s.model.requestsFor('[busy]').length, 1);
      assert.ok(
        !chats(s).some((r) => lastUserMessage(r).startsWith('# Goal wrap-up') && lastUserMessage(r).includes('Wrap up while busy')),
        'no wrap-up request was made for the second goal',
      );
      s.model.release('user');
      await s.core.waitForType('done', { from: userTurn });
      assert.equal(
        s.core.events.slice(userTurn).filter((e) => e.type === 'run_cancelled').length,
        0,
        "the user's turn was never cancelled",
      );
    } finally {
      s.model.release('worker');
      s.model.release('user');
      await s.close();
    }
  },
);

test("a worker's need_decision is auto-resolved while the goal runs: shown without an id, answered at once", SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [
      calls('call_plan', 'goal_write_plan', { summary: 'Ask.', steps: [{ id: 'a', agent: 'delegate', task: '[step-a] Decide.' }] }),
      says('Wrapped up.'),
    ],
    routes: {
      '[step-a]': [calls('call_ask', 'contact_supervisor', { reason: 'need_decision', message: 'Tabs or spaces?' }), says('Chose spaces.')],
    },
  });
  try {
    const from = await startGoal(s, { goal: 'Decide without the user' });
    const ended = await goalEnded(s, 'done', from);
    const events = s.core.events.slice(from);
    const worker = events.find((e) => e.type === 'subagent_start' && !isScoutStart(e))!;
    const message = events.find((e) => e.type === 'intercom_message')!;
    assert.deepEqual(
      [message.to, message.reason, message.message, message.auto_resolved],
      ['orchestrator', 'need_decision', 'Tabs or spaces?', true],
    );
    assert.equal(message.from, subagentTarget(worker.run_id, worker.agent), "from is the worker's intercom target");
    assert.ok(!('id' in message), 'an auto-resolved message has no id: there is nothing to answer');
    const result = events.find((e) => e.type === 'subagent_tool_result' && e.name === 'contact_supervisor')!;
    assert.equal(result.ok, true);
    assert.match(result.result, /^No supervisor is watching this goal run/);
    assert.equal(ended.prompts[0].summary, 'Chose spaces.');
  } finally {
    await s.close();
  }
});

test('a core killed mid-deploy: the session file shows the goal interrupted, and the restarted core has no goal', SCENARIO, async () => {
  const s = await startGoalScenario({
    args: ['--session', 'sess.jsonl'],
    script: [calls('call_plan', 'goal_write_plan', { summary: 'One.', steps: [{ id: 'a', agent: 'delegate', task: '[step-a] Wait.' }] })],
    routes: { '[step-a]': [{ holdUntil: 'never', steps: [{ text: 'never read' }] }] },
  });
  try {
    const from = await startGoal(s, { goal: 'Survive a restart' });
    await s.model.held('never');
    const worker = await s.core.waitFor((e) => e.type === 'subagent_start' && !isScoutStart(e), { from });
    const goalId = s.core.events.slice(from).find((e) => e.type === 'goal_state')!.id;
    await s.core.kill();

    const records = readFileSync(join(s.core.workspace, 'sess.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)._run)
      .filter((run) => run?.run_id === goalId);
    assert.deepEqual(
      records.map((r) => [r.kind, r.state, r.detail]),
      [['goal', 'started', 'deploying']],
      "the deploy is journalled as upstream's is: kind goal, the goal's id",
    );

    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'sess.jsonl'] });
    try {
      await again.handshake();
      const recovered = await again.waitForType('session_recovered');
      assert.ok(recovered.interrupted_runs.includes(goalId), 'the unfinished deploy is reported interrupted');
      assert.ok(recovered.interrupted_runs.includes(worker.run_id), 'and so is its worker');
      assert.deepEqual(
        recovered.interrupted_activities.find((a: any) => a.run_id === goalId),
        { run_id: goalId, kind: 'goal', parent_run_id: null, tool_call_id: null },
      );
      const at = again.events.length;
      again.send({ type: 'goal_status' });
      const state = await again.waitForType('goal_state', { from: at });
      assert.deepEqual([state.id, state.phase], ['', 'idle'], 'the goal itself lives in the core process only, as upstream');
    } finally {
      await again.close();
    }
  } finally {
    s.model.release('never');
    await s.close();
  }
});

test('undo clears the goal, as reset does', SCENARIO, async () => {
  const s = await startGoalScenario({
    script: [calls('call_plan', 'goal_write_plan', { summary: 'One.', steps: [{ id: 'a', agent: 'delegate', task: 'do it' }] })],
  });
  try {
    const from = await startGoal(s, { goal: 'Be undone', auto_deploy: false });
    await s.core.waitForType('done', { from });
    const at = s.core.events.length;
    s.core.send({ type: 'undo' });
    const cleared = await s.core.waitFor((e) => e.type === 'goal_state', { from: at });
    assert.deepEqual([cleared.id, cleared.phase, cleared.prompts], ['', 'idle', []]);
    const work = await s.core.waitFor((e) => e.type === 'work_state', { from: at });
    assert.deepEqual([work.goal, work.next, work.last_activity], ['', [], '']);
    const asked = s.core.events.length;
    s.core.send({ type: 'approve_goal_plan' });
    assert.equal((await s.core.waitForType('error', { from: asked })).message, 'approve_goal_plan requires phase plan_ready (got idle)');
  } finally {
    await s.close();
  }
});

// Goal mode's CEO loop over stdio (issue #16): self-review, verify, re-plan and certification against the real core.
// Planning turns take the default FIFO; the self-review and verify turns are routed by their prompts' headings, and
// each worker by its step's key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreEvent } from '../support/coreProcess';
import { TEST_MODEL, type Scenario } from '../support/coreScenario';
import { goalEnded, goalSettled, startGoalScenario, nonScoutChats } from '../support/goalScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const SCENARIO = { timeout: 60_000 };
const REVIEW = '# Plan self-review';
const VERIFY = '# Goal verification';

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const held = (gate: string, text: string): ScriptedResponse => ({ holdUntil: gate, steps: [{ text }] });

const chats = nonScoutChats;
const lastUserMessage = (request: { body: any }): string =>
  String(request.body.messages.filter((m: any) => m.role === 'user').at(-1)?.content ?? '');
const phases = (events: CoreEvent[]): string[] => events.filter((e) => e.type === 'goal_phase').map((e) => `${e.from}→${e.to}`);
const ofType = (events: CoreEvent[], type: string) => events.filter((e) => e.type === type);
const envelope = new Set(['type', 'protocol_version', 'session_id', 'run_id', 'sequence']);
const fields = (e: CoreEvent): string[] =>
  Object.keys(e)
    .filter((k) => !envelope.has(k))
    .sort();

/** Two steps in parallel (a, b), then one after both (c). */
const THREE_STEPS = {
  summary: 'Read the notes, look around, then report.',
  steps: [
    { id: 'a', agent: 'worker', title: 'Read the notes', task: '[step-a] Read notes.txt and give its first line.' },
    { id: 'b', agent: 'delegate', title: 'Look around', task: '[step-b] List the workspace.' },
    { id: 'c', agent: 'worker', title: 'Report', task: '[step-c] Report what the others found.', depends_on: ['a', 'b'] },
  ],
  validation: ['the report names the first line'],
};

function startGoal(s: Scenario, fields: object): number {
  const from = s.core.events.length;
  s.core.send({ type: 'start_goal', model: TEST_MODEL, ceo_mode: true, ...fields });
  return from;
}

test('ceo_mode, auto_deploy off: plan, approve, two waves of three steps (two in parallel), verify, certified', SCENARIO, async () => {
  const certifiedText = 'The report names the first line (notes.txt:1 is alpha).\nVERDICT: CERTIFIED';
  const s = await startGoalScenario({
    script: [calls('call_plan', 'goal_write_plan', THREE_STEPS)],
    routes: {
      '[step-a]': [held('pair', 'The first line is alpha.')],
      '[step-b]': [held('pair', 'The workspace holds notes.txt.')],
      '[step-c]': [says('Report: the first line is alpha.')],
      [VERIFY]: [says(certifiedText)],
    },
    files: { 'notes.txt': 'alpha\nbeta\n' },
  });
  try {
    const hello = s.core.events.find((e) => e.type === 'protocol_hello')!;
    assert.ok(hello.capabilities.includes('goal'), 'the core announces goal mode');
    const from = startGoal(s, { goal: 'Report the first line of notes.txt', auto_deploy: false, concurrency: 2, max_tasks: 4 });
    await s.core.waitForType('done', { from });
    const started = s.core.events.slice(from).find((e) => e.type === 'goal_state')!;
    assert.deepEqual(
      [started.ceo_mode, started.mode, started.iteration, started.max_iterations, started.plan_revision, started.max_plan_revisions],
      [true, 'ceo', 0, 3, 0, 2],
      "upstream's CEO defaults: 3 iterations, 2 plan revisions",
    );
    assert.match(lastUserMessage(chats(s)[0]), /Do not call ask: nobody will answer/);

    const at = s.core.events.length;
    s.core.send({ type: 'approve_goal_plan' });
    await s.model.held('pair', 2);
    s.model.release('pair');
    const { ended, events } = await goalSettled(s, 'done', at);

    assert.deepEqual(phases(events), [
      'plan_ready→deploying',
      'deploying→running',
      'running→running',
      'running→verifying',
      'verifying→done',
    ]);
    assert.equal(s.model.requestsFor(REVIEW).length, 0, 'approve_goal_plan skips the self-review');
    assert.equal(ofType(events, 'goal_review_verdict').length, 0);
    const starts = ofType(events, 'subagent_start');
    assert.deepEqual(
      starts.map((e) => e.parent_run_id),
      [started.id, started.id, started.id],
    );

    const summaryPath = join('.catalyst-code', 'goal-ux', 'artifacts', started.id, 'SUMMARY.md');
    const verifying = events.find((e) => e.type === 'goal_phase' && e.to === 'verifying')!;
    assert.equal(verifying.message, `workers finished — verifying against goal (evidence: ${summaryPath})`);
    assert.ok(events.some((e) => e.type === 'info' && e.message === 'Goal deploy complete — starting follow-up turn…'));
    const summary = readFileSync(join(s.core.workspace, summaryPath), 'utf8');
    assert.match(summary, /## Validation criteria\n- the report names the first line/);
    assert.match(summary, /### \[done\] Read the notes \(worker\)\npath: .*a\.md\n\nThe first line is alpha\./);
    const verifyPrompt = lastUserMessage(s.model.requestsFor(VERIFY)[0]);
    assert.ok(verifyPrompt.includes(summaryPath), 'the verify turn is pointed at SUMMARY.md');
    assert.match(verifyPrompt, /- the report names the first line/);

    const verdict = events.find((e) => e.type === 'goal_verify_verdict')!;
    assert.deepEqual(fields(verdict), ['evidence_paths', 'id', 'iteration', 'ok', 'remaining_gaps', 'summary']);
    assert.deepEqual(
      [verdict.id, verdict.ok, verdict.summary, verdict.iteration, verdict.remaining_gaps, verdict.evidence_paths],
      [started.id, true, certifiedText, 0, [], [summaryPath]],
    );
    assert.ok(verdict.run_id, 'a verdict from the verify turn carries its run_id');
    const certified = events.find((e) => e.type === 'goal_certified')!;
    assert.deepEqual(fields(certified), ['certified', 'id', 'iteration', 'summary']);
    assert.deepEqual([certified.id, certified.summary, certified.iteration, certified.certified], [started.id, certifiedText, 0, true]);
    const completion = events.find((e) => e.type === 'goal_completion_summary')!;
    assert.equal(completion.text, certifiedText);
    const done = events.find((e) => e.type === 'goal_phase' && e.to === 'done')!;
    assert.equal(done.message, 'goal certified');
    const order = [verdict, certified, completion, done].map((e) => events.indexOf(e));
    assert.deepEqual(
      order,
      [...order].sort((x, y) => x - y),
      'verdict, certified, summary, then done',
    );
    assert.deepEqual([ended.certified, ended.verify_verdict.ok, ended.verify_verdict.evidence_paths], [true, true, [summaryPath]]);
  } finally {
    s.model.release('pair');
    await s.close();
  }
});

test('ceo_mode self-review: REVISE sends its fixes to a new plan, PASS deploys it; ask gets the fixed answer', SCENARIO, async () => {
  const first = { summary: 'Vague.', steps: [{ id: 'a', agent: 'delegate', task: '[step-a] Do something.' }] };
  const second = { summary: 'Precise.', steps: [{ id: 'a', agent: 'delegate', task: '[step-a] Read notes.txt.' }] };
  const s = await startGoalScenario({
    script: [
      calls('call_ask', 'ask', { questions: [{ id: 'q', prompt: 'Which file?', type: 'text' }] }),
      calls('call_p1', 'goal_write_plan', first),
      calls('call_p2', 'goal_write_plan', second),
    ],
    routes: {
      [REVIEW]: [says('Step a names no file.\nVERDICT: REVISE\n## Fixes\n- name the file to read'), says('VERDICT: PASS')],
      '[step-a]': [says('Read it: alpha.')],
      [VERIFY]: [says('VERDICT: CERTIFIED')],
    },
  });
  try {
    const from = startGoal(s, { goal: 'Read the notes file', max_plan_revisions: 1 });
    const { ended, events } = await goalSettled(s, 'done', from);
    assert.deepEqual(phases(events), [
      'planning→plan_ready',
      'plan_ready→reviewing',
      'reviewing→planning',
      'planning→plan_ready',
      'plan_ready→reviewing',
      'reviewing→plan_ready',
      'plan_ready→deploying',
      'deploying→running',
      'running→verifying',
      'verifying→done',
    ]);
    const messages = events.filter((e) => e.type === 'goal_phase').map((e) => e.message);
    assert.deepEqual(
      [messages[1], messages[2], messages[5]],
      ['CEO self-reviewing plan', 'self-review failed — revising plan', 'self-review passed — deploying'],
    );

    const verdicts = ofType(events, 'goal_review_verdict');
    assert.deepEqual(fields(verdicts[0]), ['evidence_paths', 'id', 'iteration', 'ok', 'plan_revision', 'summary']);
    assert.deepEqual(
      verdicts.map((v) => [v.ok, v.iteration, v.plan_revision, v.evidence_paths]),
      [
        [false, 0, 0, []],
        [true, 0, 1, []],
      ],
    );
    const iteration = events.find((e) => e.type === 'goal_iteration')!;
    assert.deepEqual(fields(iteration), ['id', 'iteration', 'max_iterations', 'max_plan_revisions', 'plan_revision']);
    assert.deepEqual([iteration.iteration, iteration.max_iterations, iteration.plan_revision, iteration.max_plan_revisions], [0, 3, 1, 1]);
    const replanning = chats(s).filter((r) => lastUserMessage(r).includes('You are planning a goal'));
    assert.match(lastUserMessage(replanning.at(-1)!), /# Revision feedback on the previous plan\nname the file to read/);
    assert.match(lastUserMessage(s.model.requestsFor(REVIEW)[1]), /Read notes\.txt/, 'the second review sees the new plan');
    assert.equal(events.find((e) => e.type === 'goal_plan' && e.summary === 'Precise.')!.id, ended.id);

    const asked = events.find((e) => e.type === 'tool_result' && e.id === 'call_ask')!;
    assert.equal(asked.ok, true);
    assert.match(asked.output, /Which file\?\n→ Nobody will answer: this goal runs without the user\./);
    assert.equal(ofType(events, 'ask_request').length, 0, 'a CEO turn never asks the user');
    assert.deepEqual([ended.certified, ended.plan_revision, ended.review_verdict.ok], [true, 1, true]);
  } finally {
    await s.close();
  }
});

test(
  'ceo_mode: a failing step, verify FAIL re-plans the gaps once, then the goal fails when its iterations are spent',
  SCENARIO,
  async () => {
    const first = { summary: 'Read.', steps: [{ id: 'a', agent: 'delegate', title: 'Read', task: '[step-a] Read notes.txt.' }] };
    const second = {
      summary: 'Read again.',
      steps: [{ id: 'b', agent: 'delegate', title: 'Retry', task: '[step-b] Read notes.txt again.' }],
    };
    const s = await startGoalScenario({
      script: [calls('call_p1', 'goal_write_plan', first), calls('call_p2', 'goal_write_plan', second)],
      routes: {
        '[step-a]': [{ status: 400, body: { error: { message: 'model refused the request' } } }],
        '[step-b]': [says('I could not find notes.txt.')],
        [VERIFY]: [
          says('VERDICT: FAIL\n## Remaining gaps\n- step a failed: the notes were never read'),
          says('Still missing.\nVERDICT: FAIL\nGAPS: the notes are still unread'),
        ],
      },
    });
    try {
      const from = startGoal(s, { goal: 'Read the notes file', max_iterations: 1, max_plan_revisions: 0 });
      const { ended, events } = await goalSettled(s, 'failed', from);
      assert.deepEqual(phases(events), [
        'planning→plan_ready',
        'plan_ready→deploying',
        'deploying→running',
        'running→verifying',
        'verifying→replanning',
        'replanning→planning',
        'planning→plan_ready',
        'plan_ready→deploying',
        'deploying→running',
        'running→verifying',
        'verifying→failed',
      ]);
      assert.equal(s.model.requestsFor(REVIEW).length, 0, 'no plan revision budget: no self-review');
      const failedStep = events.find((e) => e.type === 'goal_step_complete')!;
      assert.deepEqual([failedStep.step_id, failedStep.ok, failedStep.status], ['a', false, 'failed']);
      const verifying = events.find((e) => e.type === 'goal_phase' && e.to === 'verifying')!;
      assert.match(verifying.message, /^workers finished with 1 failed step\(s\) — verifying against goal \(evidence: /);
      assert.ok(
        events.some((e) => e.type === 'info' && e.message === 'Goal deploy complete — some steps failed; continuing to follow-up turn…'),
      );

      const verdicts = ofType(events, 'goal_verify_verdict');
      assert.deepEqual(
        verdicts.map((v) => [v.ok, v.iteration, v.remaining_gaps]),
        [
          [false, 0, ['step a failed: the notes were never read']],
          [false, 1, ['the notes are still unread']],
        ],
      );
      const iteration = events.find((e) => e.type === 'goal_iteration')!;
      assert.deepEqual(
        [iteration.iteration, iteration.max_iterations, iteration.plan_revision, iteration.max_plan_revisions],
        [1, 1, 0, 0],
      );
      const phaseMessages = events.filter((e) => e.type === 'goal_phase').map((e) => e.message);
      assert.deepEqual(phaseMessages.slice(4, 6), ['verify failed — replanning gaps', 'replan: writing delta plan']);
      const replan = lastUserMessage(chats(s).filter((r) => lastUserMessage(r).includes('You are planning a goal'))[1]);
      assert.match(replan, /Verify failed \(iteration 1\/1\)\. Remaining gaps:\n- step a failed: the notes were never read/);
      assert.match(replan, /# Gaps the last verification found \(iteration 1\/1\)\n- step a failed: the notes were never read/);

      const message = 'verify budget exhausted after 1 iteration(s); last gaps: the notes are still unread';
      assert.equal(events.find((e) => e.type === 'goal_phase' && e.to === 'failed')!.message, message);
      assert.deepEqual(
        [ended.error, ended.iteration, ended.remaining_gaps, ended.certified, ended.verify_verdict.ok],
        [message, 1, ['the notes are still unread'], false, false],
      );
      assert.equal(ofType(events, 'goal_certified').length, 0);
      assert.equal(ofType(events, 'work_state').at(-1)!.last_activity, 'goal:failed', 'work_state follows the goal to its end');
    } finally {
      await s.close();
    }
  },
);

test('ceo_mode: cancel_goal during the verify turn cancels it; a verify that finds the slot busy fails the goal', SCENARIO, async () => {
  const oneStep = (key: string) =>
    calls(`call_${key}`, 'goal_write_plan', { summary: 'One step.', steps: [{ id: 'a', agent: 'delegate', task: `[${key}] Do it.` }] });
  const s = await startGoalScenario({
    script: [oneStep('first'), oneStep('second')],
    routes: {
      '[first]': [says('done once')],
      '[second]': [held('worker', 'done twice')],
      [VERIFY]: [held('verify', 'VERDICT: CERTIFIED')],
      '[user-turn]': [held('user', 'the user turn')],
    },
  });
  try {
    let from = startGoal(s, { goal: 'Be cancelled while verifying', max_plan_revisions: 0 });
    await s.model.held('verify');
    const verifying = await s.core.waitFor((e) => e.type === 'goal_phase' && e.to === 'verifying', { from });
    assert.ok(verifying);
    const at = s.core.events.length;
    s.core.send({ type: 'cancel_goal' });
    const cancelledRun = await s.core.waitForType('run_cancelled', { from: at });
    assert.equal(cancelledRun.reason, 'goal_cancelled');
    const cancelled = await s.core.waitFor((e) => e.type === 'goal_phase' && e.to === 'cancelled', { from: at });
    assert.equal(cancelled.from, 'verifying');
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'goal cancelled', { from: at });

    from = startGoal(s, { goal: 'Verify while busy', max_plan_revisions: 0 });
    await s.model.held('worker');
    await s.core.waitForType('done', { from }); // the planning turn's: the slot is free for the user's turn
    const userTurn = s.core.events.length;
    s.core.send({ type: 'send', prompt: '[user-turn] Hello meanwhile.', model: TEST_MODEL });
    await s.model.held('user');
    s.model.release('worker');
    const ended = await goalEnded(s, 'failed', from);
    assert.equal(ended.error, 'goal verify skipped: another turn is running');
    // The info follows the failed goal_state: wait for it, it may be in the next read of the pipe.
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'Goal verify finished without parent turn (another turn is running)', {
      from: s.core.events.indexOf(ended),
    });
    assert.equal(s.model.requestsFor(VERIFY).length, 1, 'only the first goal reached its verify turn');
    s.model.release('user');
    await s.core.waitForType('done', { from: userTurn });
    assert.equal(s.core.events.slice(userTurn).filter((e) => e.type === 'run_cancelled').length, 0, "the user's turn was never cancelled");
  } finally {
    for (const gate of ['verify', 'worker', 'user']) s.model.release(gate);
    await s.close();
  }
});

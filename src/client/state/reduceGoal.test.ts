import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ApprovalItem, initialSessionState, type SessionState, type SubagentItem, type ToolItem } from '../../shared/sessionState';
import type { GoalView } from '../../shared/goalState';
import type { WireEvent } from './eventFields';
import { EMPTY_COMPLETION_SUMMARY } from './reduceGoal';
import { RECORDED_GOAL_STREAM } from '../../../test/fixtures/goalStream';
import { sessionReducer } from './sessionReducer';

const GOAL_ID = 'goal-1796171744798';
const STREAM = RECORDED_GOAL_STREAM as readonly WireEvent[];
const fold = (events: readonly WireEvent[], from: SessionState = initialSessionState()): SessionState =>
  events.reduce(sessionReducer, from);
/** The state right after the recorded stream's first event matching `pred`. */
const after = (pred: (e: WireEvent) => boolean): SessionState => {
  const index = STREAM.findIndex(pred);
  assert.ok(index >= 0, 'the recording has that event');
  return fold(STREAM.slice(0, index + 1));
};
const goalOf = (s: SessionState): GoalView => {
  assert.ok(s.goal, 'a goal in the state');
  return s.goal;
};
const steps = (s: SessionState) => goalOf(s).plan?.steps.map((st) => [st.id, st.status, st.runId, st.summary]);

/** A goal_state of upstream's shape (research A: goal_state), with `fields` over the defaults. */
function upstreamState(fields: Record<string, unknown>): WireEvent {
  return {
    type: 'goal_state',
    id: 'goal-1700000000000',
    goal: 'Ship the feature',
    phase: 'planning',
    concurrency: 4,
    max_tasks: 8,
    allowed_models: [],
    allowed_providers: [],
    auto_deploy: true,
    ceo_mode: true,
    mode: 'ceo',
    iteration: 1,
    max_iterations: 3,
    plan_revision: 0,
    max_plan_revisions: 2,
    review_verdict: null,
    verify_verdict: null,
    remaining_gaps: [],
    self_review_feedback: null,
    certified: false,
    role_models: { planner: 'big', worker: null, reviewer: '' },
    model_concurrency: { big: 2, bad: 'x' },
    prompts: [],
    active_run_ids: [],
    version: 1,
    error: null,
    parent_model: 'big',
    session_id: 's',
    ...fields,
  };
}

describe('goal mode in the session model: a recorded stream of our core', () => {
  test('start_goal: the goal in its planning phase, with its settings and the work summary', () => {
    const s = after((e) => e.type === 'info');
    const goal = goalOf(s);
    assert.deepEqual(
      [goal.id, goal.goal, goal.phase, goal.mode, goal.autoDeploy, goal.concurrency, goal.maxTasks, goal.plan, goal.startedAt],
      [GOAL_ID, 'Write alpha into notes.txt', 'planning', 'single_pass', false, 1, 4, undefined, 1796171744798],
    );
    assert.deepEqual(goal.roleModels, {}, 'null role models are no models');
    assert.equal(goal.endedAt, undefined);
    assert.deepEqual(s.workState, {
      goal: 'Write alpha into notes.txt',
      done: [],
      inProgress: [],
      next: [],
      recentFiles: [],
      lastActivity: 'goal:planning',
    });
  });

  test('goal_plan: the plan under review, its steps pending, with dependencies, risks and validation', () => {
    const s = after((e) => e.type === 'goal_plan');
    const goal = goalOf(s);
    assert.equal(goal.phase, 'plan_ready');
    assert.equal(goal.message, 'plan ready');
    assert.deepEqual(
      goal.plan?.steps.map((st) => [st.id, st.agent, st.title, st.task, st.dependsOn, st.status]),
      [
        ['a', 'worker', 'Write the notes', '[step-a] Write notes.txt.', [], 'pending'],
        ['b', 'delegate', 'Look around', '[step-b] List the workspace.', [], 'pending'],
        ['c', 'worker', 'Report', '[step-c] Report.', ['a', 'b'], 'pending'],
      ],
    );
    assert.deepEqual(
      [goal.plan?.summary, goal.plan?.risks, goal.plan?.validation],
      ['Read the notes, then report.', ['none'], ['the report names the first line']],
    );
    assert.deepEqual([goal.plan?.version, goal.plan?.number], [2, 1], "the goal's first plan is plan 1, whatever its state counter says");
  });

  test('a late goal_status (goal_state + goal_plan again) changes nothing', () => {
    const planned = after((e) => e.type === 'done');
    const index = STREAM.findIndex((e) => e.type === 'done');
    const again = fold(STREAM.slice(index + 1, index + 3), planned);
    assert.deepEqual(
      STREAM.slice(index + 1, index + 3).map((e) => e.type),
      ['goal_state', 'goal_plan'],
    );
    assert.equal(again, planned, 'the same state object: no change, no patch');
  });

  test('the deploy: waves from goal_phase, step progress from goal_state.prompts and goal_step_complete', () => {
    const wave1 = after((e) => e.type === 'subagent_start');
    assert.deepEqual(goalOf(wave1).wave, { index: 1, stepCount: 2, doneCount: 0 });
    assert.equal(goalOf(wave1).message, 'wave 1 — dispatching steps');
    assert.deepEqual(steps(wave1), [
      ['a', 'running', 'run-1', undefined],
      ['b', 'pending', 'run-2', undefined],
      ['c', 'pending', undefined, undefined],
    ]);
    assert.deepEqual(goalOf(wave1).activeRunIds, ['run-1', 'run-2']);

    const wave2 = after((e) => e.type === 'goal_phase' && e.wave === 2);
    assert.deepEqual(goalOf(wave2).wave, { index: 2, stepCount: 1, doneCount: 2 });
    assert.deepEqual(steps(wave2), [
      ['a', 'done', 'run-1', 'Wrote alpha.'],
      ['b', 'done', 'run-2', 'The workspace holds notes.txt.'],
      ['c', 'pending', undefined, undefined],
    ]);
  });

  test('the end: done, every step done, the completion summary, the time it ended; the work summary says so', () => {
    const s = after((e) => e.type === 'goal_state' && e.phase === 'done');
    const goal = goalOf(s);
    assert.equal(goal.phase, 'done');
    assert.deepEqual(steps(s), [
      ['a', 'done', 'run-1', 'Wrote alpha.'],
      ['b', 'done', 'run-2', 'The workspace holds notes.txt.'],
      ['c', 'done', 'run-3', 'Report: alpha.'],
    ]);
    assert.match(goal.completionSummary ?? '', /^Goal: Write alpha into notes\.txt\n.*\nOutcome: 3\/3 step\(s\) done/s);
    assert.deepEqual([goal.activeRunIds, goal.certified, goal.verdicts], [[], false, []]);
    assert.ok(goal.endedAt !== undefined && goal.endedAt >= goal.startedAt, 'a terminal phase has an end');
    const ended = goal.endedAt;
    const later = fold([STREAM.find((e) => e.type === 'goal_state' && e.phase === 'done')!], s);
    assert.equal(later.goal?.endedAt, ended, 'a repeated terminal goal_state keeps the first end');
    const work = fold(
      STREAM.slice(
        0,
        STREAM.findIndex((e) => e.type === 'reset'),
      ),
    );
    assert.equal(work.workState?.lastActivity, 'goal:done');
  });

  test('reset: the idle goal_state clears the goal and the empty work_state the work summary', () => {
    const s = fold(STREAM);
    assert.equal(s.goal, undefined);
    assert.equal(s.workState, undefined);
  });

  test("each worker is a SubagentItem rooted at the goal, never a turn's card; its approval waits with no turn running", () => {
    const s = after((e) => e.type === 'approval_request' && e.tool === 'write_file');
    const worker = s.items.find((i): i is SubagentItem => i.kind === 'subagent' && i.id === 'run-1');
    assert.ok(worker);
    assert.deepEqual(
      [worker.runId, worker.parentRunId, worker.parentToolCallId, worker.agent, worker.state],
      [GOAL_ID, GOAL_ID, undefined, 'worker', 'running'],
    );
    const approval = s.items.find((i): i is ApprovalItem => i.kind === 'approval' && i.tool === 'write_file');
    assert.ok(approval, "the worker's write_file asks");
    assert.deepEqual(
      [approval.state, approval.childRunId, approval.agent, approval.runId, approval.toolCallId],
      ['pending', 'run-1', 'worker', GOAL_ID, 'sa:run-1:call_1'],
    );
    assert.match(approval.diff ?? '', /\+alpha/);
    const card = s.items.find((i): i is ToolItem => i.kind === 'tool' && i.id === 'sa:run-1:call_1');
    assert.equal(card?.status, 'awaiting_approval');
    assert.equal(s.run.status, 'idle', 'no turn is running: the approval does not invent one');
  });

  test("a worker is not taken for a child of the user's running subagent card (a core whose turn events carry no run_id)", () => {
    const planned = after((e) => e.type === 'done');
    const chatting = fold(
      [
        { type: 'client:prompt', text: 'delegate', images: 0 } as unknown as WireEvent,
        { type: 'tool_call', id: 'c-sub', name: 'subagent', args: '{"agent":"delegate","task":"x"}' },
      ],
      planned,
    );
    const card = chatting.items.find((i) => i.kind === 'tool' && i.id === 'c-sub') as ToolItem;
    assert.equal(card.status, 'pending', 'the card is live');
    const start = STREAM.find((e) => e.type === 'subagent_start')!;
    const s = fold([start], chatting);
    const worker = s.items.find((i): i is SubagentItem => i.kind === 'subagent' && i.id === 'run-1');
    assert.deepEqual([worker?.runId, worker?.parentToolCallId], [GOAL_ID, undefined]);
  });
});

describe('goal mode in the session model: what a worker leaves in the chat', () => {
  test("a worker's closing token tally stays out of the chat; the same line from a turn's own child stays in", () => {
    const tallies = (s: SessionState) => s.items.filter((i) => i.kind === 'notice' && i.text.startsWith('subagent done (')).length;
    assert.ok(STREAM.some((e) => e.type === 'info' && e.run_id === GOAL_ID && String(e.message).startsWith('subagent done (')));
    const s = after((e) => e.type === 'goal_completion_summary');
    assert.ok(
      s.items.some((i) => i.kind === 'notice' && i.text.startsWith('Goal deploy')),
      "the goal's own notices are there",
    );
    assert.equal(tallies(s), 0, 'no stray line per worker');
    const own = fold([{ type: 'info', message: 'subagent done (m): 3+4t', run_id: 'run-9' } as WireEvent], s);
    assert.equal(tallies(own), 1, "a turn's own child still reports its tally");
  });

  test("a worker's question the core answered itself (no id, auto_resolved) is shown as info, never as a pending ask", () => {
    const running = after((e) => e.type === 'subagent_start');
    const auto = {
      type: 'intercom_message',
      from: 'subagent-worker-run-1',
      to: 'orchestrator',
      reason: 'need_decision',
      message: 'A or B?',
      auto_resolved: true,
    };
    const s = fold([auto as WireEvent, { ...auto, message: 'C or D?' } as WireEvent], running);
    const items = s.items.filter((i) => i.kind === 'intercom');
    assert.deepEqual(
      items.map((i) => (i.kind === 'intercom' ? [i.message, i.state] : [])),
      [
        ['A or B?', 'info'],
        ['C or D?', 'info'],
      ],
    );
    assert.notEqual(items[0].id, items[1].id, 'each has its own item');
    const unnamed = fold([{ ...auto, auto_resolved: undefined } as WireEvent], running);
    assert.equal(
      unnamed.items.filter((i) => i.kind === 'intercom').length,
      0,
      'an ask without an id that nobody resolved is still dropped',
    );
  });
});

describe("goal mode in the session model: upstream's shapes and untrusted values", () => {
  test('CEO mode: review verdict, iteration, a failed verify with gaps, then certified with an empty summary', () => {
    const s = fold([
      upstreamState({}),
      {
        type: 'goal_review_verdict',
        id: 'goal-1700000000000',
        ok: true,
        summary: 'plan covers it',
        iteration: 1,
        plan_revision: 0,
        evidence_paths: [],
      },
      upstreamState({ phase: 'verifying', version: 7 }),
      {
        type: 'goal_verify_verdict',
        id: 'goal-1700000000000',
        ok: false,
        summary: 'tests missing',
        iteration: 1,
        remaining_gaps: ['add tests', 3],
        evidence_paths: ['/ws/SUMMARY.md'],
      },
      { type: 'goal_iteration', id: 'goal-1700000000000', iteration: 2, max_iterations: 3, plan_revision: 0, max_plan_revisions: 2 },
      { type: 'goal_verify_verdict', ok: true, summary: 'all good', iteration: 2, remaining_gaps: [], evidence_paths: [] },
      { type: 'goal_certified', id: 'goal-1700000000000', summary: 'certified', iteration: 2, certified: true },
      { type: 'goal_completion_summary', text: '' },
      { type: 'goal_phase', from: 'verifying', to: 'done', message: 'goal certified' },
    ]);
    const goal = goalOf(s);
    assert.deepEqual(
      [goal.mode, goal.phase, goal.message, goal.iteration, goal.maxIterations, goal.maxPlanRevisions, goal.certified, goal.parentModel],
      ['ceo', 'done', 'goal certified', 2, 3, 2, true, 'big'],
    );
    assert.deepEqual(goal.roleModels, { planner: 'big' });
    assert.deepEqual(goal.modelConcurrency, { big: 2 }, 'a non-number limit is dropped');
    assert.deepEqual(
      goal.verdicts.map((v) => [v.kind, v.ok, v.summary, v.iteration]),
      [
        ['review', true, 'plan covers it', 1],
        ['verify', false, 'tests missing', 1],
        ['verify', true, 'all good', 2],
      ],
    );
    assert.deepEqual(goal.verdicts[1].remainingGaps, ['add tests']);
    assert.deepEqual(goal.verdicts[1].evidencePaths, ['/ws/SUMMARY.md']);
    assert.deepEqual(goal.remainingGaps, [], 'the last verify says what is left');
    assert.equal(goal.completionSummary, EMPTY_COMPLETION_SUMMARY);
    assert.ok(goal.endedAt !== undefined);
  });

  test('the classic validation reviewer: goal_step_verdict is a step verdict', () => {
    const s = fold([
      upstreamState({ mode: 'single_pass', ceo_mode: false, phase: 'running' }),
      { type: 'goal_step_verdict', ok: false, provider_ok: true, output: 'FAIL: no test' },
    ]);
    assert.deepEqual(goalOf(s).verdicts, [{ kind: 'step', ok: false, summary: 'FAIL: no test' }]);
  });

  test("a client that joins late: goal_state's own verdicts and prompts stand in for the events it missed", () => {
    const s = fold([
      upstreamState({
        phase: 'running',
        review_verdict: { ok: true, summary: 'fine', evidence_paths: [], at: 1 },
        prompts: [
          {
            step_id: 's1',
            agent: 'worker',
            title: 'Build it',
            task: 'the whole worker prompt',
            model: null,
            status: 'running',
            run_id: 'r1',
            summary: null,
          },
          { step_id: 's2', agent: 'reviewer', title: 'Check it', task: '…', model: null, status: 'bogus', run_id: null, summary: null },
          'not a prompt',
        ],
        active_run_ids: ['r1', 7],
      }),
    ]);
    const goal = goalOf(s);
    assert.deepEqual(goal.verdicts, [{ kind: 'review', ok: true, summary: 'fine', evidencePaths: [] }]);
    assert.deepEqual(
      goal.plan?.steps.map((st) => [st.id, st.agent, st.title, st.status, st.runId]),
      [
        ['s1', 'worker', 'Build it', 'running', 'r1'],
        ['s2', 'reviewer', 'Check it', 'pending', undefined],
      ],
    );
    assert.deepEqual(goal.activeRunIds, ['r1']);
  });

  test('revise_goal: back in planning with no prompts, the old plan is gone; the new goal_plan is a new version', () => {
    const plan = (version: number, title: string): WireEvent => ({
      type: 'goal_plan',
      id: 'goal-1700000000000',
      summary: 's',
      steps: [{ agent: 'worker', task: 't', title, parallel_group: 2 }],
      risks: [],
      validation: [],
      version,
    });
    const ready = fold([upstreamState({ phase: 'plan_ready', version: 2 }), plan(2, 'First')]);
    assert.deepEqual(
      goalOf(ready).plan?.steps.map((st) => [st.id, st.title, st.parallelGroup]),
      [['1', 'First', '2']],
    );
    const revising = fold(
      [
        { type: 'goal_phase', from: 'plan_ready', to: 'planning', message: 'revising plan' },
        upstreamState({ phase: 'planning', version: 3 }),
      ],
      ready,
    );
    assert.equal(goalOf(revising).plan, undefined);
    const replanned = fold([plan(4, 'Second')], revising);
    assert.deepEqual([goalOf(replanned).plan?.version, goalOf(replanned).plan?.steps[0].title], [4, 'Second']);
    assert.deepEqual([goalOf(ready).plan?.number, goalOf(replanned).plan?.number], [1, 2], 'the revised plan is plan 2');
    const resent = fold([upstreamState({ phase: 'plan_ready', version: 5 }), plan(5, 'Second')], replanned);
    assert.equal(goalOf(resent).plan?.number, 2, 'goal_status sending the same plan again (a newer version) keeps its number');
  });

  test('another goal replaces the old one whole; a goal event for another id or with no goal is ignored', () => {
    const first = fold([upstreamState({ phase: 'failed', error: 'planning turn ended without goal_write_plan — re-run /goal' })]);
    assert.equal(goalOf(first).error, 'planning turn ended without goal_write_plan — re-run /goal');
    const second = fold([upstreamState({ id: 'goal-1700000000999', goal: 'Another' })], first);
    assert.deepEqual(
      [goalOf(second).id, goalOf(second).goal, goalOf(second).error, goalOf(second).endedAt],
      ['goal-1700000000999', 'Another', undefined, undefined],
    );
    const other = fold([{ type: 'goal_certified', id: 'goal-1', summary: 'x', certified: true }], second);
    assert.equal(other, second);
    const none = initialSessionState();
    for (const e of [
      { type: 'goal_plan', id: 'g', steps: [] },
      { type: 'goal_phase', from: 'idle', to: 'planning' },
      { type: 'goal_step_complete', step_id: 'a', ok: true },
      { type: 'goal_completion_summary', text: 'x' },
    ] as WireEvent[])
      assert.equal(sessionReducer(none, e), none, `${e.type} without a goal changes nothing`);
  });

  test('mistyped fields never throw and never make a goal', () => {
    const none = initialSessionState();
    for (const e of [
      { type: 'goal_state', id: 5, phase: 'running' },
      { type: 'goal_state', id: 'g', phase: 'warp' },
      { type: 'goal_state', id: 'g', phase: 'idle' },
      { type: 'goal_state' },
      { type: 'work_state', goal: 3, done: 'x' },
    ] as WireEvent[])
      assert.equal(sessionReducer(none, e), none);
    const s = fold([
      upstreamState({ concurrency: '4', prompts: 'x', active_run_ids: null, goal: 9, remaining_gaps: 'gap' }),
      { type: 'goal_phase', from: 1, to: 'running', wave: '2' },
      { type: 'goal_step_complete', step_id: 7, ok: 'yes' },
      { type: 'goal_verify_verdict', ok: 'yes', summary: 5, remaining_gaps: 'x' },
    ]);
    const goal = goalOf(s);
    assert.deepEqual(
      [goal.concurrency, goal.goal, goal.activeRunIds, goal.remainingGaps, goal.wave, goal.phase],
      [0, '', [], [], undefined, 'running'],
    );
    assert.deepEqual(goal.verdicts, [{ kind: 'verify', ok: false, summary: '', remainingGaps: [] }]);
  });

  test('a core that stops, crashes or restarts takes its active goal with it; a finished goal stays for its summary', () => {
    const running = after((e) => e.type === 'subagent_start');
    for (const status of ['crashed', 'restarting', 'stopped'] as const) {
      const s = sessionReducer(running, { type: 'client:core_status', status } as unknown as WireEvent);
      assert.deepEqual([s.goal, s.workState], [undefined, undefined], status);
    }
    const back = sessionReducer(running, { type: 'client:core_status', status: 'ready' } as unknown as WireEvent);
    assert.equal(back.goal?.phase, 'running');
    const ended = after((e) => e.type === 'goal_state' && e.phase === 'done');
    const crashed = sessionReducer(ended, { type: 'client:core_status', status: 'crashed' } as unknown as WireEvent);
    assert.equal(crashed.goal?.phase, 'done');
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../../shared/sessionState';
import type { WireEvent } from '../state/eventFields';
import { RECORDED_GOAL_STREAM } from '../../../test/fixtures/goalStream';
import { sessionReducer } from '../state/sessionReducer';
import { goalNotice, goalStatusText } from './goalPresentation';

const STREAM = RECORDED_GOAL_STREAM as readonly WireEvent[];
/** Every state the recorded stream passes through. */
const states = (): SessionState[] => {
  const out: SessionState[] = [];
  STREAM.reduce((s, e) => {
    const next = sessionReducer(s, e);
    out.push(next);
    return next;
  }, initialSessionState());
  return out;
};

describe('goal presentation over a recorded goal', () => {
  test('the status bar follows the phase, the wave and the steps done; nothing once the goal ended', () => {
    const texts = states().map((s) => goalStatusText(s.goal, s.workState)?.text);
    const distinct = texts.filter((t, i) => t !== texts[i - 1]);
    assert.deepEqual(distinct, [
      '$(target) Goal: planning',
      '$(target) Goal: plan ready',
      '$(target) Goal: plan ready · 0/3 steps',
      '$(target) Goal: deploying · 0/3 steps',
      '$(target) Goal: running · wave 1 · 0/3 steps',
      '$(target) Goal: running · wave 1 · 1/3 steps',
      '$(target) Goal: running · wave 1 · 2/3 steps',
      '$(target) Goal: running · wave 2 · 2/3 steps',
      '$(target) Goal: running · wave 2 · 3/3 steps',
      '$(target) Goal: summarizing · 3/3 steps',
      undefined,
    ]);
    const tooltip = goalStatusText(states()[30].goal, states()[30].workState)?.tooltip ?? '';
    assert.match(tooltip, /^Goal: Write alpha into notes\.txt\nwave 1 — dispatching steps\n/);
    assert.match(tooltip, /Click to open the Goal Control Center\.$/);
  });

  test('two notices: the plan waiting for approval (once per plan version) and the end', () => {
    const notices = states()
      .map((s) => goalNotice(s.goal))
      .filter((n) => n !== undefined);
    const distinct = [...new Map(notices.map((n) => [n.key, n])).values()];
    assert.deepEqual(
      distinct.map((n) => [n.key, n.kind, n.level, n.message]),
      [
        [
          'goal-1796171744798:plan:2',
          'planReady',
          'info',
          'Catalyst Code: the plan for "Write alpha into notes.txt" is ready (3 steps) and waits for your approval.',
        ],
        ['goal-1796171744798:end:done', 'ended', 'info', 'Catalyst Code: the goal "Write alpha into notes.txt" is done (3/3 steps done).'],
      ],
    );
  });

  test('a plan that deploys by itself asks nothing; failed, cancelled and certified goals say so', () => {
    const planned = states().find((s) => s.goal?.phase === 'plan_ready' && s.goal.plan)!;
    assert.equal(goalNotice({ ...planned.goal!, autoDeploy: true }), undefined);
    const ended = states().find((s) => s.goal?.phase === 'done')!.goal!;
    assert.equal(
      goalNotice({ ...ended, certified: true })?.message,
      'Catalyst Code: the goal "Write alpha into notes.txt" is certified (3/3 steps done).',
    );
    assert.deepEqual(
      [
        goalNotice({ ...ended, phase: 'failed', error: 'planning turn ended without goal_write_plan — re-run /goal' })?.level,
        goalNotice({ ...ended, phase: 'cancelled' })?.message,
      ],
      ['error', 'Catalyst Code: the goal "Write alpha into notes.txt" was cancelled.'],
    );
  });
});

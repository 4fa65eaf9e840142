import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type NoticeItem, type SessionState } from '../../shared/sessionState';
import type { WireEvent } from './eventFields';
import { sessionReducer } from './sessionReducer';

const fold = (events: WireEvent[], from: SessionState = initialSessionState()): SessionState => events.reduce(sessionReducer, from);
const notices = (s: SessionState): Pick<NoticeItem, 'level' | 'text'>[] =>
  s.items.filter((i): i is NoticeItem => i.kind === 'notice').map((n) => ({ level: n.level, text: n.text }));

describe('the agent loop’s quiet notices (§12)', () => {
  test('stuck_nudge shows the first sentence of the message, not the recovery advice meant for the model', () => {
    const message = 'You have called read_file with the same key arguments 3 times without changing any file.\nTo recover:\n1. …';
    assert.deepEqual(notices(fold([{ type: 'stuck_nudge', message }])), [
      { level: 'info', text: 'Loop nudge: You have called read_file with the same key arguments 3 times without changing any file.' },
    ]);
    assert.deepEqual(notices(fold([{ type: 'stuck_nudge' }])), [
      { level: 'info', text: 'Loop nudge: the agent was repeating the same tool call.' },
    ]);
  });

  test('summary_required is one line that counts its attempts, after the reflecting line', () => {
    const s = fold([
      { type: 'reflecting', recurrence: 2 },
      { type: 'summary_required', attempt: 1, max_attempts: 2 },
      { type: 'summary_required', attempt: 2, max_attempts: 2 },
    ]);
    assert.deepEqual(notices(s), [
      { level: 'info', text: 'Reflecting on the turn (2 recurring patterns)…' },
      { level: 'info', text: 'Writing completion summary (2/2)…' },
    ]);
    assert.deepEqual(notices(fold([{ type: 'reflecting', recurrence: 0 }])), [{ level: 'info', text: 'Reflecting on the turn…' }]);
  });

  test('digested reports what the main loop reclaimed; a child’s digest stays out of the main transcript', () => {
    const s = fold([
      { type: 'digested', trigger: 'pressure', results: 3, before_tokens: 91000, after_tokens: 60500, utilization_pct: 71 },
      { type: 'digested', scope: 'subagent', trigger: 'pressure', results: 1, before_tokens: 5000, after_tokens: 4000 },
    ]);
    assert.deepEqual(notices(s), [{ level: 'info', text: 'Reclaimed 3 stale tool results (91,000 → 60,500 tokens).' }]);
  });

  test('digested moves the context meter to the smaller context; a child’s leaves it alone', () => {
    const measured = fold([{ type: 'context_breakdown', total_tokens: 91000, context_window: 128000 }]);
    const s = fold([{ type: 'digested', trigger: 'pressure', results: 3, before_tokens: 91000, after_tokens: 64000 }], measured);
    assert.deepEqual(s.context, { tokens: 64000, window: 128000, pct: 50 });
    const child = fold([{ type: 'digested', scope: 'subagent', results: 1, before_tokens: 5000, after_tokens: 100 }], measured);
    assert.deepEqual(child.context, measured.context);
  });

  test('advisor_note: a nit is information, concern and blocker are warnings; advisor_status shows nothing', () => {
    const s = fold([
      { type: 'advisor_status', scope: 'main', advisor: 'default', state: 'reviewing', model: 'm' },
      { type: 'advisor_note', scope: 'main', advisor: 'default', model: 'm', severity: 'nit', message: 'Name the constant.' },
      { type: 'advisor_note', scope: 'main', advisor: 'security', model: 'm', severity: 'blocker', message: 'The key is logged.' },
      { type: 'advisor_note', scope: 'main', advisor: 'default', model: 'm', severity: 'shrug', message: 'Odd severity.' },
      { type: 'advisor_note', scope: 'main', advisor: 'default', model: 'm', severity: 'nit', message: '  ' },
    ]);
    assert.deepEqual(notices(s), [
      { level: 'info', text: 'Advisor (nit): Name the constant.' },
      { level: 'warning', text: 'Advisor security (blocker): The key is logged.' },
      { level: 'info', text: 'Advisor: Odd severity.' },
    ]);
  });

  test('a long core message is clipped to one line’s worth', () => {
    const s = fold([{ type: 'advisor_note', severity: 'concern', message: 'x'.repeat(2000) }]);
    const [note] = notices(s);
    assert.equal(note.level, 'warning');
    assert.ok(note.text.length < 330 && note.text.endsWith('…'));
  });
});

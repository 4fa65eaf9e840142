import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventSink, legacyStatus } from './eventSink';
import { RunScope } from './runScope';

function sink(sessionId = 'session-a') {
  const lines: any[] = [];
  let current = sessionId;
  const s = new EventSink((line) => lines.push(JSON.parse(line)), () => current);
  return { s, lines, switchTo: (id: string) => (current = id) };
}

test('events outside a run carry protocol_version and the current session id', () => {
  const { s, lines } = sink();
  s.emit({ type: 'info', message: 'hi' });
  assert.deepEqual(lines, [{ type: 'info', message: 'hi', protocol_version: 2, session_id: 'session-a' }]);
});

test('events in a run carry run_id and a per-run sequence from 1', () => {
  const { s, lines } = sink();
  const a = new RunScope('session-a', 'run-1', 'turn');
  const b = new RunScope('session-a', 'run-2', 'turn');
  s.emitInRun(a, { type: 'delta', text: '1' });
  s.emitInRun(a, { type: 'delta', text: '2' });
  s.emitInRun(b, { type: 'delta', text: 'x' });
  assert.deepEqual(lines.map((l) => [l.run_id, l.sequence]), [['run-1', 1], ['run-1', 2], ['run-2', 1]]);
});

test('a cancelled run and a replaced session are stale: their events are dropped and counted', () => {
  const { s, lines, switchTo } = sink();
  const run = new RunScope('session-a', 'run-1', 'turn');
  run.cancel('abort');
  assert.equal(s.emitInRun(run, { type: 'delta', text: 'late' }), false);
  const other = new RunScope('session-a', 'run-2', 'turn');
  switchTo('session-b');
  assert.equal(s.emitInRun(other, { type: 'delta', text: 'old session' }), false);
  assert.equal(s.emitForSession('session-a', { type: 'info', message: 'old' }), false);
  assert.equal(lines.length, 0);
  assert.equal(s.discardedStale, 3);
  assert.equal(run.signal.aborted, true);
});

test('secret-named keys are redacted before writing; tool_result gets a status from legacy fields', () => {
  const { s, lines } = sink();
  s.emit({ type: 'provider_changed', headers: { authorization: 'Bearer x' }, api_key: 'sk-live' });
  s.emit({ type: 'tool_result', id: 'c', ok: false, output: 'tool call was denied by the user' });
  assert.equal(lines[0].api_key, '[REDACTED]');
  assert.equal(lines[0].headers.authorization, '[REDACTED]');
  assert.equal(lines[1].status, 'denied');
});

test('legacyStatus follows upstream wording rules', () => {
  assert.equal(legacyStatus({ ok: true }), 'success');
  assert.equal(legacyStatus({ ok: false, output: 'Operation was Cancelled' }), 'cancelled');
  assert.equal(legacyStatus({ ok: false, output: 'command timed out after 30s' }), 'timed_out');
  assert.equal(legacyStatus({ ok: false, output: 'partial success: 2 of 3' }), 'partially_completed');
  assert.equal(legacyStatus({ ok: false, output: 'boom' }), 'failed');
});

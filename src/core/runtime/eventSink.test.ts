import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventSink, legacyStatus, type EventFields, type SessionEvent } from './eventSink';
import { ChildScope } from './childScope';
import { RunScope } from './runScope';

function sink(sessionId = 'session-a', secrets: string[] = []) {
  const lines: any[] = [];
  const raw: string[] = [];
  const emitted: any[] = [];
  let current = sessionId;
  const s = new EventSink(
    (line) => {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
    () => current,
    (e) => emitted.push(e),
    () => secrets,
  );
  return { s, lines, raw, emitted, secrets, switchTo: (id: string) => (current = id) };
}

const KEY = 'sk-live-SINKMARKER-0123456789';

/** An event of a shape the types refuse (a legacy executor's tool_result, a cycle): what the sink does with it anyway. */
const untyped = (event: EventFields): SessionEvent => event as SessionEvent;

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
  assert.deepEqual(
    lines.map((l) => [l.run_id, l.sequence]),
    [
      ['run-1', 1],
      ['run-1', 2],
      ['run-2', 1],
    ],
  );
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
  s.emit({
    type: 'usage',
    provider: 'p',
    provider_kind: 'openai',
    model: 'm',
    base_url: '',
    headers: { authorization: 'Bearer x' },
    api_key: 'sk-live',
  });
  s.emit(untyped({ type: 'tool_result', id: 'c', ok: false, output: 'tool call was denied by the user' }));
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

test('a live secret is replaced in every string of every event, at any depth, whatever the event', () => {
  const { s, raw, lines, emitted } = sink('session-a', [KEY]);
  const run = new RunScope('session-a', 'run-1', 'turn');
  s.emit({ type: 'error', code: 'auth_error', message: `Incorrect API key provided: ${KEY}` });
  s.emitInRun(run, { type: 'tool_call', id: 'c1', name: 'write_file', args: JSON.stringify({ path: 'a.txt', content: `key=${KEY}\n` }) });
  s.emitInRun(run, { type: 'tool_result', id: 'c1', ok: true, output: 'ok', status: 'success', diff: `+key=${KEY}` });
  s.emitInRun(run, { type: 'file_change', path: 'a.txt', unified_diff: `+key=${KEY}`, tool: 'write_file' });
  s.emitForSession('session-a', {
    type: 'history',
    messages: [{ role: 'assistant', content: [{ type: 'text', text: `it is ${KEY}` }] }],
    tokens_in: 0,
  });
  for (const line of raw) assert.ok(!line.includes(KEY), line);
  for (const e of emitted) assert.ok(!JSON.stringify(e).includes(KEY), 'the debug-log hook gets the scrubbed event');
  assert.equal(lines[0].message, 'Incorrect API key provided: [REDACTED]');
  assert.equal(JSON.parse(lines[1].args).content, 'key=[REDACTED]\n', 'tool_call args stay valid JSON');
  assert.equal(lines[2].diff, '+key=[REDACTED]');
  assert.equal(lines[3].unified_diff, '+key=[REDACTED]');
  assert.equal(lines[4].messages[0].content[0].text, 'it is [REDACTED]');
});

test('events without a secret are written as they are (no copy), with or without a secret configured', () => {
  const { s, emitted } = sink('session-a', [KEY]);
  const event = { type: 'info' as const, message: 'nothing secret', nested: { list: ['a'] } };
  s.emit(event);
  assert.equal(emitted[0].nested, event.nested, 'no deep copy on the hot path');
});

test('a key split across streamed deltas never appears in any delta, and the text is intact and in order', () => {
  const text = `Sure. For the record your key is ${KEY} — and more text.`;
  for (let a = 0; a <= text.length; a += 3) {
    for (let b = a; b <= text.length; b += 5) {
      const { s, lines, raw } = sink('session-a', [KEY]);
      const run = new RunScope('session-a', 'run-1', 'turn');
      for (const part of [text.slice(0, a), text.slice(a, b), text.slice(b)]) s.emitInRun(run, { type: 'delta', text: part });
      s.emitInRun(run, { type: 'done' });
      for (const line of raw) assert.ok(!line.includes(KEY));
      const deltas = lines.filter((l) => l.type === 'delta');
      assert.equal(deltas.map((d) => d.text).join(''), text.replace(KEY, '[REDACTED]'), `cuts ${a}, ${b}`);
      assert.equal(lines.at(-1).type, 'done', 'held text is flushed before done');
      assert.deepEqual(
        lines.map((l) => l.sequence),
        lines.map((_, i) => i + 1),
        'sequence stays gapless and ordered',
      );
    }
  }
});

test("held text is flushed before the run's next event of another kind, keeping the stream's shape", () => {
  const { s, lines } = sink('session-a', [KEY]);
  const run = new RunScope('session-a', 'run-1', 'turn');
  s.emitInRun(run, { type: 'thinking', text: 'hmm sk-live' });
  s.emitInRun(run, { type: 'delta', text: 'answer: sk-' });
  s.emitInRun(run, { type: 'tool_call_start', id: 'c1', index: 0 });
  s.emitInRun(run, { type: 'tool_call_args', index: 0, args: '{"command":"echo sk-live-SINK' });
  s.emitInRun(run, { type: 'tool_call_args', index: 0, args: 'MARKER-0123456789 sk"}' });
  s.emitInRun(run, { type: 'tool_call_args', index: 1, args: '{}' });
  s.emitInRun(run, { type: 'error', code: 'x', message: 'y' });
  assert.deepEqual(
    lines.map(({ type, text, args, index }) => ({ type, text, args, index })),
    [
      { type: 'thinking', text: 'hmm ', args: undefined, index: undefined },
      { type: 'thinking', text: 'sk-live', args: undefined, index: undefined },
      { type: 'delta', text: 'answer: ', args: undefined, index: undefined },
      { type: 'delta', text: 'sk-', args: undefined, index: undefined },
      { type: 'tool_call_start', text: undefined, args: undefined, index: 0 },
      { type: 'tool_call_args', text: undefined, args: '{"command":"echo ', index: 0 },
      { type: 'tool_call_args', text: undefined, args: '[REDACTED] sk"}', index: 0 },
      { type: 'tool_call_args', text: undefined, args: '{}', index: 1 },
      { type: 'error', text: undefined, args: undefined, index: undefined },
    ],
  );
});

test("endRun flushes what a run still holds; a cancelled run's held text is dropped like its other late events", () => {
  const { s, lines } = sink('session-a', [KEY]);
  const run = new RunScope('session-a', 'run-1', 'turn');
  s.emitInRun(run, { type: 'delta', text: 'tail sk-li' });
  s.endRun(run);
  s.endRun(run);
  assert.deepEqual(
    lines.map((l) => l.text),
    ['tail ', 'sk-li'],
  );
  const cancelled = new RunScope('session-a', 'run-2', 'turn');
  s.emitInRun(cancelled, { type: 'delta', text: 'x sk-' });
  cancelled.cancel('abort');
  s.endRun(cancelled);
  assert.equal(s.emitInRun(cancelled, { type: 'done' }), false);
  assert.deepEqual(
    lines.slice(2).map((l) => l.text),
    ['x '],
  );
});

test('with no secret configured streamed events pass through at once, chunk for chunk', () => {
  const { s, lines } = sink();
  const run = new RunScope('session-a', 'run-1', 'turn');
  for (const text of ['s', 'k-', 'live']) s.emitInRun(run, { type: 'delta', text });
  assert.deepEqual(
    lines.map((l) => l.text),
    ['s', 'k-', 'live'],
  );
});

test('streams of two runs are independent', () => {
  const { s, lines } = sink('session-a', [KEY]);
  const a = new RunScope('session-a', 'run-a', 'turn');
  const b = new RunScope('session-a', 'run-b', 'compact');
  s.emitInRun(a, { type: 'delta', text: 'a sk-live-SINK' });
  s.emitInRun(b, { type: 'delta', text: 'b sk-' });
  s.emitInRun(a, { type: 'delta', text: 'MARKER-0123456789!' });
  s.emitInRun(b, { type: 'delta', text: 'not' });
  assert.deepEqual(
    lines.map((l) => [l.run_id, l.text]),
    [
      ['run-a', 'a '],
      ['run-b', 'b '],
      ['run-a', '[REDACTED]!'],
      ['run-b', 'sk-not'],
    ],
  );
});

test('an event that cannot be serialized becomes one internal_error instead of throwing into its command', () => {
  const { s, lines } = sink();
  const cyclic: EventFields = { type: 'info', message: 'loop' };
  cyclic.self = cyclic;
  assert.doesNotThrow(() => s.emit(untyped(cyclic)));
  s.emit({ type: 'info', message: 'after' });
  assert.equal(lines.length, 2);
  assert.equal(lines[0].type, 'error');
  assert.equal(lines[0].code, 'internal_error');
  assert.match(lines[0].message, /an event of type info could not be sent/);
  assert.equal(lines[1].message, 'after');
});

function childOf(root: RunScope, runId = 'run-1', parent: { signal: AbortSignal } = root): ChildScope {
  return new ChildScope(runId, root.runId, root, `subagent-worker-${runId.replaceAll('-', '')}`, 1, parent.signal);
}

test("a child's events keep their run_id, count the root run's sequence, and default to the root's run_id", () => {
  const { s, lines } = sink();
  const root = new RunScope('session-a', 'turn-1', 'turn');
  const child = childOf(root);
  s.emitInRun(root, { type: 'tool_call', id: 'c1', name: 'subagent', args: '{}' });
  s.emitInChild(child, { type: 'subagent_message', run_id: 'run-1', role: 'user', content: 'task' });
  s.emitInChild(child, { type: 'info', message: 'subagent done' });
  assert.deepEqual(
    lines.map((l) => [l.type, l.run_id, l.sequence, l.session_id]),
    [
      ['tool_call', 'turn-1', 1, 'session-a'],
      ['subagent_message', 'run-1', 2, 'session-a'],
      ['info', 'turn-1', 3, 'session-a'],
    ],
  );
});

test('a child is stale once it, its parent child or its root run is cancelled, or the session was replaced', () => {
  const { s, lines, switchTo } = sink();
  const root = new RunScope('session-a', 'turn-1', 'turn');
  const batch = childOf(root, 'run-1');
  const first = childOf(root, 'run-1-0', batch);
  const second = childOf(root, 'run-1-1', batch);
  first.cancel();
  assert.equal(s.emitInChild(first, { type: 'subagent_delta', run_id: 'run-1-0', text: 'late' }), false);
  assert.equal(s.emitInChild(second, { type: 'subagent_delta', run_id: 'run-1-1', text: 'live' }), true);
  batch.cancel();
  assert.equal(s.emitInChild(second, { type: 'subagent_delta', run_id: 'run-1-1', text: 'after batch' }), false);
  const other = childOf(new RunScope('session-a', 'turn-2', 'turn'), 'run-2');
  other.root.cancel('abort');
  assert.equal(s.emitInChild(other, { type: 'subagent_done', run_id: 'run-2', state: 'cancelled', duration_ms: 1, ended_at: 1 }), false);
  const fresh = childOf(new RunScope('session-a', 'turn-3', 'turn'), 'run-3');
  switchTo('session-b');
  assert.equal(s.emitInChild(fresh, { type: 'subagent_delta', run_id: 'run-3', text: 'old session' }), false);
  assert.deepEqual(
    lines.map((l) => l.text),
    ['live'],
  );
  assert.equal(s.discardedStale, 4);
});

test("a key split across a child's deltas never appears, each child has its own carry buffer, and endChild flushes", () => {
  const { s, lines } = sink('session-a', [KEY]);
  const root = new RunScope('session-a', 'turn-1', 'turn');
  const a = childOf(root, 'run-1');
  const b = childOf(root, 'run-2');
  const cut = 12;
  s.emitInChild(a, { type: 'subagent_delta', run_id: 'run-1', text: `a says ${KEY.slice(0, cut)}` });
  s.emitInChild(b, { type: 'subagent_delta', run_id: 'run-2', text: `b says ${KEY.slice(0, cut)}` });
  s.emitInChild(a, { type: 'subagent_delta', run_id: 'run-1', text: `${KEY.slice(cut)} done` });
  s.emitInChild(b, { type: 'subagent_delta', run_id: 'run-2', text: KEY.slice(cut) });
  s.endChild(b);
  const text = (runId: string) =>
    lines
      .filter((l) => l.run_id === runId)
      .map((l) => l.text)
      .join('');
  assert.ok(!lines.some((l) => JSON.stringify(l).includes(KEY.slice(0, cut))), 'no part of the key leaks');
  assert.equal(text('run-1'), 'a says [REDACTED] done');
  assert.equal(text('run-2'), 'b says [REDACTED]');
  assert.ok(lines.every((l) => l.type === 'subagent_delta'));
});

test("a cancelled child's held text is dropped with its other late events", () => {
  const { s, lines } = sink('session-a', [KEY]);
  const root = new RunScope('session-a', 'turn-1', 'turn');
  const child = childOf(root);
  s.emitInChild(child, { type: 'subagent_delta', run_id: 'run-1', text: `held ${KEY.slice(0, 8)}` });
  const before = lines.length;
  child.cancel();
  s.endChild(child);
  s.emit({ type: 'info', message: 'later' });
  assert.deepEqual(
    lines.slice(before).map((l) => l.type),
    ['info'],
  );
  assert.ok(!lines.some((l) => JSON.stringify(l).includes(KEY.slice(0, 8))));
});

test('an event the client did not ask for is not written and takes no sequence number; the run goes on', () => {
  const lines: any[] = [];
  const s = new EventSink(
    (line) => lines.push(JSON.parse(line)),
    () => 'session-a',
    undefined,
    () => [],
    (type) => type !== 'subagent_delta' && type !== 'rules',
  );
  const root = new RunScope('session-a', 'turn-1', 'turn');
  const child = childOf(root);
  const rules = { type: 'rules' as const, files: [], skipped: [], disabled: [], walk_limited: false };
  s.emit(rules);
  assert.equal(s.emitInRun(root, { type: 'delta', text: 'a' }), true);
  assert.equal(s.emitInChild(child, { type: 'subagent_delta', run_id: 'run-1', text: 'child text' }), true, 'withheld, not stale');
  assert.equal(s.emitForSession('session-a', rules), true);
  s.emitInChild(child, { type: 'subagent_message', run_id: 'run-1', role: 'assistant', content: 'child text' });
  assert.deepEqual(
    lines.map((l) => [l.type, l.sequence]),
    [
      ['delta', 1],
      ['subagent_message', 2],
    ],
  );
  assert.equal(s.discardedStale, 0);
});

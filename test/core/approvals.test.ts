import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_MODEL } from '../support/coreScenario';

const write = (id: string, path: string, content = `${path}\n`) => ({
  steps: [{ toolCall: { id, name: 'write_file', arguments: { path, content } } }],
});
const say = (text: string) => ({ steps: [{ text }] });

test('always escalates the destructive kind: later destructive tools run without a prompt', async () => {
  const s = await startScenario({ script: [write('c1', 'a.txt'), write('c2', 'b.txt'), say('both written')] });
  try {
    const events = await s.turnAnswering('write two files', [{ decision: 'always' }]);
    assert.equal(events.filter((e) => e.type === 'approval_request').length, 1);
    const changed = events.find((e) => e.type === 'approval_changed');
    assert.equal(changed.mode, 'destructive:always');
    assert.ok(existsSync(join(s.core.workspace, 'a.txt')) && existsSync(join(s.core.workspace, 'b.txt')));
  } finally {
    await s.close();
  }
});

test('allow_session allows that tool for the session, but other destructive tools still ask', async () => {
  const s = await startScenario({
    script: [
      write('c1', 'a.txt'),
      write('c2', 'b.txt'),
      { steps: [{ toolCall: { id: 'c3', name: 'mkdir', arguments: { path: 'd' } } }] },
      say('ok'),
    ],
  });
  try {
    const events = await s.turnAnswering('go', [{ decision: 'allow_session' }, { decision: 'yes' }]);
    const requests = events.filter((e) => e.type === 'approval_request');
    assert.deepEqual(
      requests.map((r) => r.tool),
      ['write_file', 'mkdir'],
    );
    const changed = events.find((e) => e.type === 'approval_changed');
    assert.deepEqual([changed.mode, changed.tool, changed.pattern], ['allow_pattern', 'write_file', '*']);
    assert.ok(existsSync(join(s.core.workspace, 'b.txt')) && existsSync(join(s.core.workspace, 'd')));
  } finally {
    await s.close();
  }
});

test('allow_pattern covers matching paths only, and a pattern that exceeds the scope is refused', async () => {
  const s = await startScenario({
    script: [
      write('c1', 'src/a.ts'),
      write('c2', 'src/b.ts'),
      write('c3', 'lib/c.ts'),
      say('ok'),
      write('c4', 'docs/x.md'),
      say('refused'),
    ],
  });
  try {
    const events = await s.turnAnswering('go', [{ decision: 'allow_pattern', pattern: 'src/**' }, { decision: 'yes' }]);
    assert.deepEqual(
      events.filter((e) => e.type === 'approval_request').map((r) => JSON.parse(r.args).path),
      ['src/a.ts', 'lib/c.ts'],
    );
    assert.ok(existsSync(join(s.core.workspace, 'src/b.ts')));

    const second = await s.turnAnswering('again', [{ decision: 'allow_pattern', pattern: '*' }]);
    const err = second.find((e) => e.type === 'error');
    assert.equal(err.message, 'approval pattern exceeds or does not match the requested scope');
    const result = second.find((e) => e.type === 'tool_result');
    assert.equal(result.status, 'denied');
    assert.equal(existsSync(join(s.core.workspace, 'docs/x.md')), false);
  } finally {
    await s.close();
  }
});

test('reset while an approval is pending cancels the run; approving the stale id then errors and nothing is written', async () => {
  const s = await startScenario({ script: [write('c1', 'late.txt')] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'write', model: TEST_MODEL });
    const req = await s.core.waitForType('approval_request', { from });
    s.core.send({ type: 'reset' });
    const cancelled = await s.core.waitForType('run_cancelled', { from });
    assert.equal(cancelled.reason, 'reset');
    assert.equal(cancelled.run_id, req.run_id);
    await s.core.waitForType('reset', { from });
    const at = s.core.events.length;
    s.core.send({ type: 'approve', request_id: req.request_id, decision: 'yes' });
    const err = await s.core.waitForType('error', { from: at });
    assert.equal(err.message, `unknown, expired, or already resolved approval request: ${req.request_id}`, "upstream's words");
    s.core.send({ type: 'runtime_status' });
    const status = await s.core.waitForType('runtime_status', { from: at });
    assert.equal(status.pending_approvals, 0);
    assert.equal(existsSync(join(s.core.workspace, 'late.txt')), false);
    assert.equal(
      s.core.events.slice(from).filter((e) => e.run_id === req.run_id && e.type === 'tool_result').length,
      0,
      'no stale events of the cancelled run',
    );
  } finally {
    await s.close();
  }
});

test('abort while an approval is pending: answering it afterwards is "unknown, expired, or already resolved", and the next turn asks anew', async () => {
  const s = await startScenario({ script: [write('c1', 'first.txt'), write('c2', 'second.txt'), say('written')] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'write', model: TEST_MODEL });
    const stale = await s.core.waitForType('approval_request', { from });
    s.core.send({ type: 'abort' });
    await s.core.waitForType('aborted', { from });
    const at = s.core.events.length;
    s.core.send({ type: 'approve', request_id: stale.request_id, decision: 'yes' });
    const err = await s.core.waitForType('error', { from: at });
    assert.equal(err.message, `unknown, expired, or already resolved approval request: ${stale.request_id}`);
    const events = await s.turnAnswering('write again', ['yes']);
    const fresh = events.find((e) => e.type === 'approval_request');
    assert.notEqual(fresh.request_id, stale.request_id);
    assert.equal(existsSync(join(s.core.workspace, 'first.txt')), false, 'the stale approval wrote nothing');
    assert.equal(readFileSync(join(s.core.workspace, 'second.txt'), 'utf8'), 'second.txt\n');
  } finally {
    await s.close();
  }
});

test('under approval "never" nothing prompts, but paths outside the workspace are still refused', async () => {
  const s = await startScenario({
    approval: 'never',
    script: [write('c1', 'ok.txt'), write('c2', '../escape.txt'), say('done')],
  });
  try {
    const events = await s.turn('go');
    assert.equal(events.filter((e) => e.type === 'approval_request').length, 0);
    const [ok, escape] = events.filter((e) => e.type === 'tool_result');
    assert.equal(ok.status, 'success');
    assert.equal(escape.status, 'failed');
    assert.match(escape.output, /refused/);
    assert.equal(existsSync(join(s.core.workspace, '..', 'escape.txt')), false);
    assert.equal(readFileSync(join(s.core.workspace, 'ok.txt'), 'utf8'), 'ok.txt\n');
  } finally {
    await s.close();
  }
});

test('an unanswered approval expires: approval_expired, the call is denied, and answering it later is an error', async () => {
  const s = await startScenario({
    env: { CATALYST_CODE_APPROVAL_TIMEOUT_SECS: '1' },
    script: [write('c1', 'never.txt'), say('understood')],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'write', model: TEST_MODEL });
    const req = await s.core.waitForType('approval_request', { from });
    const expired = await s.core.waitForType('approval_expired', { from });
    assert.deepEqual([expired.request_id, expired.tool_call_id], [req.request_id, 'c1']);
    await s.core.waitForType('done', { from });
    const result = s.core.ofType('tool_result', from)[0];
    assert.equal(result.status, 'denied');
    assert.match(result.output, /expired/);
    const at = s.core.events.length;
    s.core.send({ type: 'approve', request_id: req.request_id, decision: 'yes' });
    assert.match((await s.core.waitForType('error', { from: at })).message, /unknown, expired, or already resolved/);
    assert.equal(existsSync(join(s.core.workspace, 'never.txt')), false);
  } finally {
    await s.close();
  }
});

test('approved with a change rejected (edited_content): tool_result.diff and file_change are the diff of what was written', async () => {
  const before = 'one\ntwo\nthree\n';
  const edits = [
    { search: 'one', replace: 'ONE' },
    { search: 'two', replace: 'TWO' },
    { search: 'three', replace: 'THREE' },
  ];
  const s = await startScenario({
    files: { 'a.txt': before },
    script: [{ steps: [{ toolCall: { id: 'c1', name: 'edit', arguments: { path: 'a.txt', edits } } }] }, say('noted')],
  });
  try {
    // The user rejects the middle change in the diff editor: the client sends the proposal without it.
    const kept = 'ONE\ntwo\nTHREE\n';
    const events = await s.turnAnswering('uppercase', [{ decision: 'yes', edited_content: kept }]);
    assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), kept);
    const request = events.find((e) => e.type === 'approval_request');
    assert.match(request.diff, /^\+TWO$/m, 'the proposal had the change the user rejected');
    const result = events.find((e) => e.type === 'tool_result' && e.id === 'c1');
    assert.equal(result.status, 'success');
    assert.match(result.diff, /^-one\n\+ONE$/m);
    assert.match(result.diff, /^-three\n\+THREE$/m);
    assert.match(result.diff, /^ two$/m, 'the rejected line is unchanged context');
    assert.doesNotMatch(result.diff, /TWO/);
    const change = events.find((e) => e.type === 'file_change');
    assert.deepEqual([change.path, change.tool, change.unified_diff], ['a.txt', 'edit', result.diff]);
  } finally {
    await s.close();
  }
});

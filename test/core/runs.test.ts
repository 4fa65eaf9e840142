import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, TEST_MODEL } from '../support/coreScenario';

const slow = (text: string) => ({ steps: [{ text: 'Starting a long answer. ' }, { delayMs: 400 }, { text }, { delayMs: 400 }, { text: ' and more.' }] });

test('abort mid-stream: run_cancelled + aborted, no stale deltas, and the next turn is clean', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'first part ' }, { delayMs: 3000 }, { text: 'SHOULD NOT APPEAR' }] }, { steps: [{ text: 'second turn ok' }] }] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'long', model: TEST_MODEL });
    const firstDelta = await s.core.waitForType('delta', { from });
    s.core.send({ type: 'abort' });
    const cancelled = await s.core.waitForType('run_cancelled', { from });
    assert.equal(cancelled.reason, 'abort');
    assert.equal(cancelled.run_id, firstDelta.run_id);
    await s.core.waitForType('aborted', { from });
    const next = await s.turn('again');
    assert.equal(next.filter((e) => e.type === 'delta').map((e) => e.text).join(''), 'second turn ok');
    assert.notEqual(next.find((e) => e.type === 'delta').run_id, firstDelta.run_id);
    const context = s.model.requests.at(-1)!.body.messages.map((m: any) => [m.role, m.content]);
    assert.deepEqual(context.slice(1), [['user', 'long'], ['assistant', 'first part \n\n[interrupted by the user]'], ['user', 'again']], 'the interrupted text is kept, marked');
    await new Promise((r) => setTimeout(r, 200));
    const all = s.core.events.slice(from);
    assert.ok(!all.some((e) => e.type === 'delta' && /SHOULD NOT APPEAR/.test(e.text)));
    assert.equal(all.filter((e) => e.run_id === firstDelta.run_id && e.type === 'done').length, 0, 'the aborted run never says done');
    s.core.send({ type: 'runtime_status' });
    const status = await s.core.waitForType('runtime_status', { from });
    assert.equal(status.last_cancellation.reason, 'abort');
  } finally {
    await s.close();
  }
});

test('steer: steer event, the running turn is cancelled with reason steering, and a new run answers the steer prompt', async () => {
  const s = await startScenario({ script: [slow('middle'), { steps: [{ text: 'steered answer' }] }] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'long', model: TEST_MODEL });
    const first = await s.core.waitForType('delta', { from });
    s.core.send({ type: 'steer', prompt: 'use async instead', model: TEST_MODEL });
    const steer = await s.core.waitForType('steer', { from });
    assert.equal(steer.prompt, 'use async instead');
    const cancelled = await s.core.waitForType('run_cancelled', { from });
    assert.equal(cancelled.reason, 'steering');
    await s.core.waitForType('aborted', { from });
    const done = await s.core.waitFor((e) => e.type === 'done' && e.run_id !== first.run_id, { from });
    const deltas = s.core.events.slice(from).filter((e) => e.type === 'delta' && e.run_id === done.run_id);
    assert.equal(deltas.map((e) => e.text).join(''), 'steered answer');
    const lastReq = s.model.requests.at(-1)!.body.messages;
    assert.deepEqual(lastReq.at(-1), { role: 'user', content: 'use async instead' });
  } finally {
    await s.close();
  }
});

test('one-deep queue: a second send is queued and runs after, a third is refused, clear_queue drops it', async () => {
  const s = await startScenario({ script: [slow('one'), { steps: [{ text: 'queued answer' }] }, slow('three'), { steps: [{ text: 'never' }] }] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'first', model: TEST_MODEL });
    await s.core.waitForType('delta', { from });
    s.core.send({ type: 'send', prompt: 'second', model: TEST_MODEL });
    s.core.send({ type: 'send', prompt: 'third', model: TEST_MODEL });
    const info = await s.core.waitFor((e) => e.type === 'info' && e.message === 'prompt queued; will run after the current turn', { from });
    assert.ok(info);
    const err = await s.core.waitForType('error', { from });
    assert.equal(err.message, 'a prompt is already queued; send abort first or wait');
    await s.core.waitFor(() => s.core.ofType('done', from).length >= 2, { from, timeoutMs: 20000 });
    const runs = [...new Set(s.core.events.slice(from).filter((e) => e.type === 'done').map((e) => e.run_id))];
    assert.equal(runs.length, 2);
    const secondText = s.core.events.slice(from).filter((e) => e.type === 'delta' && e.run_id === runs[1]).map((e) => e.text).join('');
    assert.equal(secondText, 'queued answer');

    const at = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'third run', model: TEST_MODEL });
    await s.core.waitForType('delta', { from: at });
    s.core.send({ type: 'send', prompt: 'to be dropped', model: TEST_MODEL });
    s.core.send({ type: 'clear_queue' });
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'queue cleared', { from: at });
    await s.core.waitForType('done', { from: at });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(s.core.ofType('done', at).length, 1, 'the cleared prompt never ran');
    assert.ok(!s.model.requests.some((r) => JSON.stringify(r.body ?? null).includes('to be dropped')));
  } finally {
    await s.close();
  }
});

test('stale events after new_session: the old run is cancelled and its output never appears', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'old ' }, { delayMs: 800 }, { text: 'STALE' }] }] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'x', model: TEST_MODEL });
    const delta = await s.core.waitForType('delta', { from });
    s.core.send({ type: 'new_session' });
    const changed = await s.core.waitForType('session_changed', { from });
    assert.equal(changed.new, true);
    const cancelled = s.core.ofType('run_cancelled', from)[0];
    assert.equal(cancelled.reason, 'new_session');
    await new Promise((r) => setTimeout(r, 1200));
    assert.ok(!s.core.events.some((e) => e.text === 'STALE'));
    const after = s.core.events.slice(s.core.events.indexOf(changed));
    assert.ok(after.every((e) => e.session_id !== delta.session_id), 'later events carry the new session id');
  } finally {
    await s.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';
import type { CoreEvent } from '../support/coreProcess';
import type { RecordedRequest } from '../support/scriptedModelServer';

/** The chat request that carried `prompt` as its last user message. */
function requestFor(s: Scenario, prompt: string): RecordedRequest {
  const found = s.model.requests.find((r) => r.body?.messages?.at(-1)?.content === prompt);
  assert.ok(found, `the model was asked ${JSON.stringify(prompt)}`);
  return found;
}

/**
 * Sends `runtime_status` and returns its answer with the events since `from` that came before it (unsolicited ones left
 * out). The core answers
 * commands in order, so an event the core emitted before handling the probe is in that slice.
 */
async function eventsBeforeProbe(s: Scenario, from: number): Promise<{ status: CoreEvent; before: CoreEvent[] }> {
  const at = s.core.events.length;
  s.core.send({ type: 'runtime_status' });
  const status = await s.core.waitForType('runtime_status', { from: at });
  return { status, before: s.core.answerSince(from, status) };
}

const slow = (text: string) => ({
  steps: [{ text: 'Starting a long answer. ' }, { delayMs: 400 }, { text }, { delayMs: 400 }, { text: ' and more.' }],
});

test('abort mid-stream: run_cancelled + aborted, no stale deltas, and the next turn is clean', async () => {
  const s = await startScenario({
    script: [
      { steps: [{ text: 'first part ' }, { delayMs: 3000 }, { text: 'SHOULD NOT APPEAR' }] },
      { steps: [{ text: 'second turn ok' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'long', model: TEST_MODEL });
    const firstDelta = await s.core.waitForType('delta', { from });
    s.core.send({ type: 'abort' });
    const cancelled = await s.core.waitForType('run_cancelled', { from });
    assert.equal(cancelled.reason, 'abort');
    assert.equal(cancelled.run_id, firstDelta.run_id);
    await s.core.waitForType('aborted', { from });
    // The stale text was still 3 s away in the script: the core dropped the stream, so it can never arrive.
    assert.equal(await s.model.responseEnd(requestFor(s, 'long')), 'closed_by_client', 'the cancelled run abandoned its stream');
    const next = await s.turn('again');
    assert.equal(
      next
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'second turn ok',
    );
    assert.notEqual(next.find((e) => e.type === 'delta').run_id, firstDelta.run_id);
    const context = s.model.requests.at(-1)!.body.messages.map((m: any) => [m.role, m.content]);
    assert.deepEqual(
      context.slice(1),
      [
        ['user', 'long'],
        ['assistant', 'first part \n\n[interrupted by the user]'],
        ['user', 'again'],
      ],
      'the interrupted text is kept, marked',
    );
    const { status, before } = await eventsBeforeProbe(s, from);
    assert.ok(!before.some((e) => e.type === 'delta' && /SHOULD NOT APPEAR/.test(e.text)));
    assert.equal(before.filter((e) => e.run_id === firstDelta.run_id && e.type === 'done').length, 0, 'the aborted run never says done');
    assert.equal(status.last_cancellation.reason, 'abort');
  } finally {
    await s.close();
  }
});

test('runtime_status lists the running turn under a numeric resource id, and names the last cancellation by session and run', async () => {
  const s = await startScenario({
    script: [{ steps: [{ toolCall: { id: 'c1', name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } } }] }],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'write', model: TEST_MODEL });
    const req = await s.core.waitForType('approval_request', { from });
    const { status: running } = await eventsBeforeProbe(s, from);
    assert.equal(running.run_id, req.run_id);
    const turn = running.resources.filter((r: { run_id?: string }) => r.run_id === req.run_id);
    assert.equal(turn.length, 1, JSON.stringify(running.resources));
    assert.equal(typeof turn[0].id, 'number', 'a resource id is a number, not the run id');
    s.core.send({ type: 'abort' });
    await s.core.waitForType('aborted', { from });
    const { status: idle } = await eventsBeforeProbe(s, from);
    assert.equal(idle.run_id, null);
    assert.deepEqual(idle.last_cancellation, { session_id: req.session_id, run_id: req.run_id, reason: 'abort' });
  } finally {
    await s.close();
  }
});

test("runtime_status lists a streaming turn as upstream's foreground_agent_turn task; new_session cancels it and the list empties", async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'streaming… ' }], hangAfterSteps: true }, { steps: [{ text: 'fresh' }] }] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'talk', model: TEST_MODEL });
    const delta = await s.core.waitForType('delta', { from });
    const { status: streaming } = await eventsBeforeProbe(s, from);
    assert.equal(streaming.run_id, delta.run_id);
    const turn = streaming.resources.filter((r: { run_id?: string }) => r.run_id === delta.run_id);
    assert.deepEqual(
      turn.map((r: Record<string, unknown>) => [r.kind, r.label, r.session_id, r.cancelled, typeof r.id]),
      [['task', 'foreground_agent_turn', delta.session_id, false, 'number']],
      "the shape upstream's clients read",
    );
    s.core.send({ type: 'new_session' });
    const changed = await s.core.waitForType('session_changed', { from });
    const cancelled = s.core.ofType('run_cancelled', from);
    assert.deepEqual(
      cancelled.map((e) => [e.run_id, e.reason]),
      [[delta.run_id, 'new_session']],
    );
    const { status: idle } = await eventsBeforeProbe(s, s.core.events.indexOf(changed));
    assert.equal(idle.run_id, null);
    assert.deepEqual(
      idle.resources.filter((r: { kind: string }) => r.kind === 'task'),
      [],
      'no foreground run is held',
    );
    const next = await s.turn('again');
    assert.ok(
      next.every((e) => !('run_id' in e) || e.run_id !== delta.run_id),
      'nothing of the old run follows',
    );
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
  const s = await startScenario({
    script: [slow('one'), { steps: [{ text: 'queued answer' }] }, slow('three'), { steps: [{ text: 'never' }] }],
  });
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
    const runs = [
      ...new Set(
        s.core.events
          .slice(from)
          .filter((e) => e.type === 'done')
          .map((e) => e.run_id),
      ),
    ];
    assert.equal(runs.length, 2);
    const secondText = s.core.events
      .slice(from)
      .filter((e) => e.type === 'delta' && e.run_id === runs[1])
      .map((e) => e.text)
      .join('');
    assert.equal(secondText, 'queued answer');

    const at = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'third run', model: TEST_MODEL });
    await s.core.waitForType('delta', { from: at });
    s.core.send({ type: 'send', prompt: 'to be dropped', model: TEST_MODEL });
    s.core.send({ type: 'clear_queue' });
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'queue cleared', { from: at });
    await s.core.waitForType('done', { from: at });
    // A queued prompt starts as the run that said done unwinds, before the core reads its next command.
    const { status, before } = await eventsBeforeProbe(s, at);
    assert.equal(status.run_id, null, 'no run started after done: the cleared prompt never ran');
    assert.equal(before.filter((e) => e.type === 'done').length, 1);
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
    assert.equal(
      await s.model.responseEnd(requestFor(s, 'x')),
      'closed_by_client',
      'the old run abandoned its stream before STALE was sent',
    );
    const { status, before } = await eventsBeforeProbe(s, from);
    assert.ok(!before.some((e) => e.text === 'STALE'));
    const after = [...before.slice(before.indexOf(changed)), status];
    assert.ok(
      after.every((e) => e.session_id !== delta.session_id),
      'later events carry the new session id',
    );
  } finally {
    await s.close();
  }
});

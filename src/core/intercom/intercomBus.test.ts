import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INTERCOM_ASK_LIMIT,
  INTERCOM_MAILBOX_LIMIT,
  INTERCOM_MESSAGE_BYTES,
  IntercomBus,
  type IntercomEnvelope,
  intercomTimeoutMs,
  ORCHESTRATOR,
} from './intercomBus';

function makeBus(timeoutMs?: number): { bus: IntercomBus; surfaced: IntercomEnvelope[] } {
  const surfaced: IntercomEnvelope[] = [];
  const bus = new IntercomBus({ toOrchestrator: (e) => surfaced.push(e), timeoutMs, now: () => 1760000000000 });
  return { bus, surfaced };
}

const live = (): AbortSignal => new AbortController().signal;

test('an ask to the orchestrator is surfaced with an ask id and wakes with the reply, verbatim, once', async () => {
  const { bus, surfaced } = makeBus();
  bus.register('subagent-worker-run1');
  const { id, outcome } = bus.ask('subagent-worker-run1', ORCHESTRATOR, 'Which DB?', 'need_decision', live());
  assert.match(id, /^ask-[0-9a-f]+-1760000000000$/);
  assert.deepEqual(surfaced, [
    { id, from: 'subagent-worker-run1', to: ORCHESTRATOR, reason: 'need_decision', message: 'Which DB?', ts: 1760000000000, ask_id: id },
  ]);
  assert.equal(bus.pendingAskCount, 1);
  assert.equal(bus.reply(id, '  Postgres\n'), true);
  assert.deepEqual(await outcome, { kind: 'reply', text: '  Postgres\n' });
  assert.equal(bus.reply(id, 'again'), false, 'an answered ask is gone');
  assert.equal(bus.pendingAskCount, 0);
});

test('an ask wakes as interrupted when its signal fires, and a later reply finds nothing', async () => {
  const { bus } = makeBus();
  const controller = new AbortController();
  const { id, outcome } = bus.ask('subagent-a-run1', ORCHESTRATOR, 'q', 'need_decision', controller.signal);
  controller.abort();
  assert.deepEqual(await outcome, { kind: 'interrupted' });
  assert.equal(bus.reply(id, 'late'), false);
});

test('an ask made on an already cancelled signal is interrupted without being surfaced', async () => {
  const { bus, surfaced } = makeBus();
  const controller = new AbortController();
  controller.abort();
  const { outcome } = bus.ask('subagent-a-run1', ORCHESTRATOR, 'q', 'need_decision', controller.signal);
  assert.deepEqual(await outcome, { kind: 'interrupted' });
  assert.deepEqual(surfaced, []);
  assert.equal(bus.pendingAskCount, 0);
});

test("unregistering a child wakes only that child's asks, as agent_finished", async () => {
  const { bus } = makeBus();
  bus.register('subagent-a-run1');
  bus.register('subagent-b-run2');
  const a = bus.ask('subagent-a-run1', ORCHESTRATOR, 'qa', 'need_decision', live());
  const b = bus.ask('subagent-b-run2', ORCHESTRATOR, 'qb', 'need_decision', live());
  bus.unregister('subagent-a-run1');
  assert.deepEqual(await a.outcome, { kind: 'agent_finished' });
  assert.deepEqual(bus.targets(), [ORCHESTRATOR, 'subagent-b-run2']);
  assert.equal(bus.reply(b.id, 'still pending'), true);
  assert.deepEqual(await b.outcome, { kind: 'reply', text: 'still pending' });
});

test('a peer that ends wakes the asks made of it as agent_finished: it can no longer answer them', async () => {
  // The timeout only bounds the test if the wake is missing (it then fails as timed_out).
  const { bus } = makeBus(1000);
  bus.register('subagent-a-run1');
  bus.register('subagent-b-run2');
  const toB = bus.ask('subagent-a-run1', 'subagent-b-run2', 'ok?', 'need_decision', live());
  bus.unregister('subagent-b-run2');
  assert.deepEqual(await toB.outcome, { kind: 'agent_finished' });
  assert.equal(bus.pendingAskCount, 0);
});

test('a reset wakes every ask as session_replaced and empties every mailbox', async () => {
  const { bus } = makeBus();
  bus.register('subagent-a-run1');
  bus.send(ORCHESTRATOR, 'subagent-a-run1', 'steer');
  const a = bus.ask('subagent-a-run1', ORCHESTRATOR, 'q1', 'need_decision', live());
  const b = bus.ask('subagent-a-run1', ORCHESTRATOR, 'q2', 'need_decision', live());
  bus.reset();
  assert.deepEqual(await Promise.all([a.outcome, b.outcome]), [{ kind: 'session_replaced' }, { kind: 'session_replaced' }]);
  assert.deepEqual(bus.drainFrom('subagent-a-run1', ORCHESTRATOR), []);
  assert.deepEqual(bus.targets(), [ORCHESTRATOR]);
});

test('an unanswered ask times out after the injected timeout and is then gone', async () => {
  const { bus } = makeBus(1);
  const { id, outcome } = bus.ask('subagent-a-run1', ORCHESTRATOR, 'q', 'need_decision', live());
  assert.deepEqual(await outcome, { kind: 'timed_out' });
  assert.equal(bus.reply(id, 'too late'), false);
  assert.equal(bus.pendingAskCount, 0);
});

test('a message to the orchestrator is surfaced as msg-, and one to a peer waits in its mailbox', () => {
  const { bus, surfaced } = makeBus();
  bus.register('subagent-a-run1');
  const sent = bus.send('subagent-a-run1', ORCHESTRATOR, 'halfway', 'progress_update');
  assert.match(sent.id, /^msg-[0-9a-f]+-1760000000000$/);
  assert.deepEqual(surfaced, [sent]);
  bus.send('subagent-b-run2', 'subagent-a-run1', 'hi peer');
  assert.equal(bus.receive('subagent-a-run1')?.message, 'hi peer');
  assert.equal(bus.receive('subagent-a-run1'), undefined);
  assert.throws(() => bus.send('subagent-a-run1', 'nobody', 'x'), {
    message: `unknown intercom target 'nobody'; use action:"targets" to list known peers`,
  });
});

test('drainFrom takes the steering messages in order and leaves the peers’ messages', () => {
  const { bus } = makeBus();
  bus.register('subagent-a-run1');
  bus.send(ORCHESTRATOR, 'subagent-a-run1', 'first');
  bus.send('subagent-b-run2', 'subagent-a-run1', 'peer');
  bus.send(ORCHESTRATOR, 'subagent-a-run1', 'second');
  assert.deepEqual(
    bus.drainFrom('subagent-a-run1', ORCHESTRATOR).map((e) => e.message),
    ['first', 'second'],
  );
  assert.deepEqual(bus.drainFrom('subagent-a-run1', ORCHESTRATOR), []);
  assert.equal(bus.receive('subagent-a-run1')?.message, 'peer');
  assert.deepEqual(bus.drainFrom('unknown', ORCHESTRATOR), []);
});

test('a peer ask lands in the peer mailbox with its ask id, and the peer answers it', async () => {
  const { bus, surfaced } = makeBus();
  bus.register('subagent-b-run2');
  const { id, outcome } = bus.ask('subagent-a-run1', 'subagent-b-run2', 'ok?', 'need_decision', live());
  assert.equal(bus.receive('subagent-b-run2')?.ask_id, id);
  assert.deepEqual(surfaced, []);
  bus.reply(id, 'yes');
  assert.deepEqual(await outcome, { kind: 'reply', text: 'yes' });
});

test('limits: 64 KiB per message, 256 messages per mailbox, 256 pending asks', async () => {
  const { bus } = makeBus();
  const atLimit = 'x'.repeat(INTERCOM_MESSAGE_BYTES);
  bus.register('subagent-a-run1');
  bus.send(ORCHESTRATOR, 'subagent-a-run1', atLimit);
  assert.throws(() => bus.send(ORCHESTRATOR, 'subagent-a-run1', `${atLimit}é`), {
    message: 'intercom message exceeds the 65536 byte limit',
  });
  assert.throws(() => bus.ask('subagent-a-run1', ORCHESTRATOR, `${atLimit}x`, 'need_decision', live()), {
    message: 'intercom ask exceeds the 65536 byte limit',
  });
  for (let i = 1; i < INTERCOM_MAILBOX_LIMIT; i++) bus.send(ORCHESTRATOR, 'subagent-a-run1', `m${i}`);
  assert.throws(() => bus.send(ORCHESTRATOR, 'subagent-a-run1', 'one too many'), {
    message: "intercom mailbox 'subagent-a-run1' is full (256 messages)",
  });

  const asks = Array.from({ length: INTERCOM_ASK_LIMIT }, (_, i) =>
    bus.ask('subagent-a-run1', ORCHESTRATOR, `q${i}`, 'need_decision', live()),
  );
  assert.throws(() => bus.ask('subagent-a-run1', ORCHESTRATOR, 'q', 'need_decision', live()), {
    message: 'too many pending intercom asks (limit 256)',
  });
  bus.reset();
  assert.equal((await Promise.all(asks.map((a) => a.outcome))).filter((o) => o.kind === 'session_replaced').length, INTERCOM_ASK_LIMIT);
});

test('the timeout variable overrides the 300 s default; junk keeps the default', () => {
  assert.equal(intercomTimeoutMs({}), 300_000);
  assert.equal(intercomTimeoutMs({ CATALYST_CODE_INTERCOM_TIMEOUT_SECS: '1' }), 1000);
  assert.equal(intercomTimeoutMs({ CATALYST_CODE_INTERCOM_TIMEOUT_SECS: '0.5' }), 500);
  assert.equal(intercomTimeoutMs({ CATALYST_CODE_INTERCOM_TIMEOUT_SECS: 'soon' }), 300_000);
  assert.equal(intercomTimeoutMs({ CATALYST_CODE_INTERCOM_TIMEOUT_SECS: '-3' }), 300_000);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoreRuntime } from '../app/coreRuntime';
import { IntercomBus, ORCHESTRATOR } from '../intercom/intercomBus';
import type { SessionEvent } from '../runtime/eventSink';
import { handleIntercomReply } from './interactionCommands';

/** The two members intercom_reply uses: the session's bus and its emit. */
function fakeRuntime(): { rt: CoreRuntime; bus: IntercomBus; events: SessionEvent[] } {
  const events: SessionEvent[] = [];
  const bus = new IntercomBus({ toOrchestrator: () => undefined });
  return { rt: { intercom: bus, emit: (e: SessionEvent) => events.push(e) } as unknown as CoreRuntime, bus, events };
}

test("intercom_reply wakes the pending ask with the reply and says so in upstream's words", async () => {
  const { rt, bus, events } = fakeRuntime();
  const { id, outcome } = bus.ask('subagent-worker-run1', ORCHESTRATOR, 'Which DB?', 'need_decision', new AbortController().signal);
  handleIntercomReply(rt, { type: 'intercom_reply', request_id: id, reply: 'Postgres' });
  assert.deepEqual(await outcome, { kind: 'reply', text: 'Postgres' });
  assert.deepEqual(events, [{ type: 'info', message: 'reply delivered to subagent' }]);
});

test('intercom_reply to an unknown or answered ask is an error naming the id', () => {
  const { rt, bus, events } = fakeRuntime();
  const { id } = bus.ask('subagent-worker-run1', ORCHESTRATOR, 'q', 'need_decision', new AbortController().signal);
  handleIntercomReply(rt, { type: 'intercom_reply', request_id: id, reply: 'first' });
  handleIntercomReply(rt, { type: 'intercom_reply', request_id: id, reply: 'second' });
  handleIntercomReply(rt, { type: 'intercom_reply', request_id: 'ask-ff-1', reply: 'x' });
  assert.deepEqual(events.slice(1), [
    { type: 'error', code: 'stale_intercom', message: `no pending intercom ask for id ${id}` },
    { type: 'error', code: 'stale_intercom', message: 'no pending intercom ask for id ask-ff-1' },
  ]);
});

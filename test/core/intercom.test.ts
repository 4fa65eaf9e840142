// Intercom over stdio (issue #14): a child's contact_supervisor reaches the client as intercom_message, an
// intercom_reply answers it, and an ask nobody answers times out on the core's own timer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subagentTarget } from '../../src/protocol/subagents';
import { startScenario, TEST_MODEL } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const PARENT_CALL = 'call_ask';
const SCENARIO = { timeout: 60_000 };

const parentCalls = (task: string): ScriptedResponse[] => [
  { steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: { agent: 'worker', task } } }] },
  { steps: [{ text: 'Done.' }] },
];
const contact = (id: string, reason: string, message: string): ScriptedResponse => ({
  steps: [{ toolCall: { id, name: 'contact_supervisor', arguments: { reason, message } } }],
});
const toolMessages = (request: { body: any }): string[] =>
  request.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => String(m.content));

test('a progress update and a question reach the client; the reply unblocks the child verbatim', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    script: parentCalls('[ask] decide with the user'),
    routes: {
      '[ask]': [
        contact('call_1', 'progress_update', 'halfway there'),
        contact('call_2', 'need_decision', 'Overwrite b.txt or keep it?'),
        { steps: [{ text: 'kept it, as told' }] },
      ],
    },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Work with a helper that may ask.', model: TEST_MODEL });
    const question = await s.core.waitFor((e) => e.type === 'intercom_message' && e.reason === 'need_decision', { from });
    const child = s.core.events.slice(from).find((e) => e.type === 'subagent_start')!;
    const target = subagentTarget(child.run_id, 'worker');
    assert.deepEqual([question.from, question.to, question.message], [target, 'orchestrator', 'Overwrite b.txt or keep it?']);
    assert.match(question.id, /^ask-[0-9a-f]+-\d+$/);
    const update = s.core.events.slice(from).find((e) => e.type === 'intercom_message' && e.reason === 'progress_update')!;
    assert.deepEqual([update.from, update.to, update.message], [target, 'orchestrator', 'halfway there']);
    const updateResult = s.core.events.slice(from).find((e) => e.type === 'subagent_tool_result' && e.call_id === 'call_1')!;
    assert.deepEqual([updateResult.ok, updateResult.result], [true, 'progress update sent to supervisor']);

    const wrongAt = s.core.events.length;
    s.core.send({ type: 'intercom_reply', request_id: 'ask-0-0', reply: 'to nobody' });
    const wrong = await s.core.waitFor((e) => e.type === 'error' || (e.type === 'info' && /subagent/.test(e.message)), { from: wrongAt });
    assert.deepEqual([wrong.type, wrong.message], ['error', 'no pending intercom ask for id ask-0-0']);

    const replyAt = s.core.events.length;
    s.core.send({ type: 'intercom_reply', request_id: question.id, reply: 'Keep it.' });
    const delivered = await s.core.waitFor((e) => e.type === 'info' && e.message === 'reply delivered to subagent', { from: replyAt });
    assert.ok(delivered);
    await s.core.waitForType('done', { from, timeoutMs: 30_000 });
    const answer = s.core.events.slice(from).find((e) => e.type === 'subagent_tool_result' && e.call_id === 'call_2')!;
    assert.deepEqual([answer.ok, answer.result], [true, 'Keep it.']);
    assert.equal(toolMessages(s.model.requestsFor('[ask]')[2])[1], 'Keep it.', 'the child read the reply verbatim');
    const result = s.core.events.slice(from).find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
    assert.deepEqual([result.ok, result.output], [true, 'kept it, as told']);
  } finally {
    await s.close();
  }
});

test('a question nobody answers times out (CATALYST_CODE_INTERCOM_TIMEOUT_SECS=1) with upstream words', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    env: { CATALYST_CODE_INTERCOM_TIMEOUT_SECS: '1' },
    script: parentCalls('[unanswered] ask and wait'),
    routes: { '[unanswered]': [contact('call_1', 'need_decision', 'Anyone there?'), { steps: [{ text: 'nobody answered; stopped' }] }] },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Work with a helper that may ask.', model: TEST_MODEL });
    const question = await s.core.waitFor((e) => e.type === 'intercom_message', { from });
    const timedOut = await s.core.waitFor((e) => e.type === 'subagent_tool_result' && e.call_id === 'call_1', { from });
    assert.deepEqual(
      [timedOut.ok, timedOut.result],
      [
        false,
        'need_decision timed out after 5 min with no supervisor response; do NOT proceed with the unapproved decision — re-ask, simplify, or escalate.',
      ],
    );
    await s.core.waitForType('done', { from, timeoutMs: 30_000 });
    const lateAt = s.core.events.length;
    s.core.send({ type: 'intercom_reply', request_id: question.id, reply: 'too late' });
    const late = await s.core.waitFor((e) => e.type === 'error', { from: lateAt });
    assert.equal(late.message, `no pending intercom ask for id ${question.id}`, 'the expired ask is gone');
  } finally {
    await s.close();
  }
});

test('an abort wakes a pending question: the reply that comes after finds nothing, and the child says no more', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    script: [parentCalls('[aborted-ask] ask and wait')[0], { steps: [{ text: 'the next prompt is answered' }] }],
    routes: { '[aborted-ask]': [contact('call_1', 'need_decision', 'Shall I go on?'), { steps: [{ text: 'must never be asked' }] }] },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Work with a helper that may ask.', model: TEST_MODEL });
    const question = await s.core.waitFor((e) => e.type === 'intercom_message' && e.reason === 'need_decision', { from });
    s.core.send({ type: 'abort' });
    const cancelled = await s.core.waitForType('run_cancelled', { from });
    await s.core.waitForType('aborted', { from });
    const lateAt = s.core.events.length;
    s.core.send({ type: 'intercom_reply', request_id: question.id, reply: 'yes, go on' });
    const late = await s.core.waitFor((e) => e.type === 'error' || e.type === 'info', { from: lateAt });
    assert.deepEqual([late.type, late.message], ['error', `no pending intercom ask for id ${question.id}`]);
    const next = await s.turn('Anything left?');
    assert.equal(
      next
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'the next prompt is answered',
    );
    const afterCancel = s.core.events.slice(s.core.events.indexOf(cancelled));
    assert.deepEqual(
      afterCancel.filter((e) => e.type.startsWith('subagent_') || e.type === 'intercom_message').map((e) => e.type),
      [],
    );
    assert.equal(s.model.requestsFor('[aborted-ask]').length, 1, 'the woken child did not ask the model again');
  } finally {
    await s.close();
  }
});

test("runtime_status counts a child's pending question in pending_asks, until it is answered", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    script: parentCalls('[status] ask and wait'),
    routes: { '[status]': [contact('call_1', 'need_decision', 'Which one?'), { steps: [{ text: 'answered' }] }] },
  });
  const pendingAsks = async (): Promise<number> => {
    const at = s.core.events.length;
    s.core.send({ type: 'runtime_status' });
    return (await s.core.waitForType('runtime_status', { from: at })).pending_asks;
  };
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Work with a helper that asks.', model: TEST_MODEL });
    const question = await s.core.waitFor((e) => e.type === 'intercom_message' && e.reason === 'need_decision', { from });
    assert.equal(await pendingAsks(), 1);
    s.core.send({ type: 'intercom_reply', request_id: question.id, reply: 'The first.' });
    await s.core.waitForType('done', { from, timeoutMs: 30_000 });
    assert.equal(await pendingAsks(), 0);
  } finally {
    await s.close();
  }
});

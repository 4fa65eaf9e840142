import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { IntercomBus, type IntercomEnvelope, ORCHESTRATOR } from '../intercom/intercomBus';
import { intercomTool, PEER_ASK_TIMED_OUT } from './intercomTool';
import type { ToolContext } from './types';

const A = 'subagent-scout-run1';
const B = 'subagent-reviewer-run2';

function setup(timeoutMs?: number) {
  const ws = makeTestWorkspace();
  const surfaced: IntercomEnvelope[] = [];
  const bus = new IntercomBus({ toOrchestrator: (e) => surfaced.push(e), timeoutMs });
  bus.register(A);
  bus.register(B);
  const as = (target: string): ToolContext => ws.context({ intercom: { target, bus } });
  const run = (target: string, args: Record<string, unknown>) => intercomTool.execute(args, as(target));
  return { bus, surfaced, run, cleanup: ws.cleanup };
}

test('targets, send to a peer, receive it once, then null', async () => {
  const s = setup();
  try {
    assert.equal((await s.run(A, { action: 'targets' })).output, JSON.stringify([ORCHESTRATOR, A, B]));
    assert.equal((await s.run(A, { action: 'send', to: B, message: 'found it', reason: 'fyi' })).output, `message sent to ${B}`);
    const got = JSON.parse((await s.run(B, { action: 'receive' })).output) as IntercomEnvelope;
    assert.deepEqual([got.from, got.to, got.message, got.reason, got.ask_id], [A, B, 'found it', 'fyi', '']);
    assert.equal((await s.run(B, { action: 'poll' })).output, 'null');
    assert.deepEqual(s.surfaced, []);
  } finally {
    s.cleanup();
  }
});

test('send defaults the action; to the orchestrator it is surfaced; to nobody it is an error', async () => {
  const s = setup();
  try {
    assert.equal((await s.run(A, { to: ORCHESTRATOR, message: 'hello' })).output, 'message sent to orchestrator');
    assert.deepEqual(
      s.surfaced.map((e) => [e.from, e.to, e.message]),
      [[A, ORCHESTRATOR, 'hello']],
    );
    const unknown = await s.run(A, { action: 'send', to: 'ghost', message: 'x' });
    assert.deepEqual([unknown.ok, unknown.output], [false, `unknown intercom target 'ghost'; use action:"targets" to list known peers`]);
    assert.equal((await s.run(A, { action: 'send', to: B })).output, "intercom send requires 'to' and 'message'");
    assert.equal((await s.run(A, { action: 'ask', message: 'x' })).output, "intercom ask requires 'to' and 'message'");
    assert.equal((await s.run(A, { action: 'reply' })).output, "intercom reply requires 'id' (the ask id) and 'reply'");
    assert.equal((await s.run(A, { action: 'shout' })).output, "unknown intercom action 'shout'; use send|ask|receive|poll|reply|targets");
  } finally {
    s.cleanup();
  }
});

test('a peer ask blocks until the peer replies by its ask_id; a third party cannot answer it', async () => {
  const s = setup();
  try {
    const asking = s.run(A, { action: 'ask', to: B, message: 'ok to proceed?' });
    const question = JSON.parse((await s.run(B, { action: 'receive' })).output) as IntercomEnvelope;
    assert.equal(question.reason, 'need_decision');
    const stranger = await s.run(A, { action: 'reply', id: question.ask_id, reply: 'I say yes' });
    assert.deepEqual(
      [stranger.ok, stranger.output],
      [false, `no pending ask with id '${question.ask_id}' (it may have timed out or been answered)`],
    );
    assert.equal((await s.run(B, { action: 'reply', id: question.ask_id, reply: 'yes' })).output, `replied to ask ${question.ask_id}`);
    assert.deepEqual(await asking, { ok: true, output: 'yes', status: 'success', fileChanges: [] });
  } finally {
    s.cleanup();
  }
});

test("an unanswered peer ask fails with upstream's timeout text; an ask to an unknown peer fails at once", async () => {
  const s = setup(1);
  try {
    assert.deepEqual(await s.run(A, { action: 'ask', to: B, message: 'q' }), {
      ok: false,
      output: PEER_ASK_TIMED_OUT,
      status: 'timed_out',
      fileChanges: [],
    });
    const ghost = await s.run(A, { action: 'ask', to: 'ghost', message: 'q' });
    assert.deepEqual([ghost.ok, s.bus.pendingAskCount], [false, 0]);
  } finally {
    s.cleanup();
  }
});

test('the main agent has no intercom', async () => {
  const ws = makeTestWorkspace();
  try {
    const outcome = await intercomTool.execute({ action: 'targets' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.output], [false, 'intercom is only available to subagents']);
  } finally {
    ws.cleanup();
  }
});

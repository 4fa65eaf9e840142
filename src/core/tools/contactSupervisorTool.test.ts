import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { IntercomBus, type IntercomEnvelope, ORCHESTRATOR } from '../intercom/intercomBus';
import { contactSupervisorTool, NEED_DECISION_TIMED_OUT, PROGRESS_UPDATE_SENT } from './contactSupervisorTool';
import type { ToolContext } from './types';

const TARGET = 'subagent-worker-run1';

function setup(opts: { timeoutMs?: number; signal?: AbortSignal } = {}): {
  bus: IntercomBus;
  surfaced: IntercomEnvelope[];
  ctx: ToolContext;
  cleanup(): void;
} {
  const ws = makeTestWorkspace();
  const surfaced: IntercomEnvelope[] = [];
  const bus = new IntercomBus({ toOrchestrator: (e) => surfaced.push(e), timeoutMs: opts.timeoutMs });
  bus.register(TARGET);
  const ctx = ws.context({ intercom: { target: TARGET, bus }, ...(opts.signal ? { signal: opts.signal } : {}) });
  return { bus, surfaced, ctx, cleanup: ws.cleanup };
}

/** Runs the tool and, once its ask is surfaced, hands the ask to `then`. */
async function askAnd(s: ReturnType<typeof setup>, then: (ask: IntercomEnvelope) => void, args: Record<string, unknown>) {
  const running = contactSupervisorTool.execute(args, s.ctx);
  const ask = s.surfaced.at(-1);
  assert.ok(ask, 'the ask is surfaced before the tool waits');
  then(ask);
  return running;
}

test('progress_update surfaces the message and returns at once', async () => {
  const s = setup();
  try {
    const outcome = await contactSupervisorTool.execute({ reason: 'progress_update', message: 'tests pass' }, s.ctx);
    assert.deepEqual(outcome, { ok: true, output: PROGRESS_UPDATE_SENT, status: 'success', fileChanges: [] });
    assert.equal(PROGRESS_UPDATE_SENT, 'progress update sent to supervisor');
    assert.equal(s.surfaced.length, 1);
    assert.deepEqual(
      { from: s.surfaced[0].from, to: s.surfaced[0].to, reason: s.surfaced[0].reason, message: s.surfaced[0].message },
      { from: TARGET, to: ORCHESTRATOR, reason: 'progress_update', message: 'tests pass' },
    );
    assert.equal(s.bus.pendingAskCount, 0);
  } finally {
    s.cleanup();
  }
});

test('need_decision blocks until the reply and returns it verbatim', async () => {
  const s = setup();
  try {
    const outcome = await askAnd(s, (ask) => assert.equal(s.bus.reply(ask.id, 'use Postgres'), true), {
      reason: 'need_decision',
      message: 'Which DB?',
    });
    assert.equal(s.surfaced[0].reason, 'need_decision');
    assert.deepEqual(outcome, { ok: true, output: 'use Postgres', status: 'success', fileChanges: [] });
  } finally {
    s.cleanup();
  }
});

test('a missing reason asks (need_decision), as upstream', async () => {
  const s = setup();
  try {
    const outcome = await askAnd(s, (ask) => s.bus.reply(ask.id, 'fine'), { message: 'ok?' });
    assert.equal(s.surfaced[0].reason, 'need_decision');
    assert.equal(outcome.output, 'fine');
  } finally {
    s.cleanup();
  }
});

test('the ask wakes with [interrupted] on cancel, [agent finished] on the child end, [session replaced] on reset', async () => {
  const controller = new AbortController();
  const s = setup({ signal: controller.signal });
  try {
    const args = { reason: 'need_decision', message: 'q' };
    assert.equal((await askAnd(s, () => s.bus.unregister(TARGET), args)).output, '[agent finished]');
    s.bus.register(TARGET);
    assert.equal((await askAnd(s, () => s.bus.reset(), args)).output, '[session replaced]');
    s.bus.register(TARGET);
    const interrupted = await askAnd(s, () => controller.abort(), args);
    assert.deepEqual(interrupted, { ok: true, output: '[interrupted]', status: 'success', fileChanges: [] });
  } finally {
    s.cleanup();
  }
});

test("an unanswered need_decision fails with upstream's timeout text", async () => {
  const s = setup({ timeoutMs: 1 });
  try {
    const outcome = await contactSupervisorTool.execute({ reason: 'need_decision', message: 'q' }, s.ctx);
    assert.deepEqual(outcome, { ok: false, output: NEED_DECISION_TIMED_OUT, status: 'timed_out', fileChanges: [] });
    assert.equal(
      NEED_DECISION_TIMED_OUT,
      'need_decision timed out after 5 min with no supervisor response; do NOT proceed with the unapproved decision — re-ask, simplify, or escalate.',
    );
  } finally {
    s.cleanup();
  }
});

test('an empty message, a message over the limit and the main agent are refused', async () => {
  const s = setup();
  const ws = makeTestWorkspace();
  try {
    assert.equal(
      (await contactSupervisorTool.execute({ reason: 'need_decision' }, s.ctx)).output,
      "contact_supervisor requires a 'message'",
    );
    const big = await contactSupervisorTool.execute({ reason: 'progress_update', message: 'x'.repeat(70_000) }, s.ctx);
    assert.deepEqual([big.ok, big.output], [false, 'intercom message exceeds the 65536 byte limit']);
    const main = await contactSupervisorTool.execute({ reason: 'progress_update', message: 'hi' }, ws.context());
    assert.deepEqual([main.ok, main.output], [false, 'contact_supervisor is only available to subagents']);
    assert.equal(s.surfaced.length, 0);
  } finally {
    s.cleanup();
    ws.cleanup();
  }
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker, DEFAULT_APPROVAL_TIMEOUT_MS, type PendingApproval } from './approvalBroker';

function pending(broker: ApprovalBroker, toolCallId: string, runId = 'run-1', createdAt = Date.now()): PendingApproval {
  return { requestId: broker.nextRequestId(toolCallId), toolCallId, tool: 'write_file', runId, target: 'src/a.ts', createdAt };
}

const never = () => assert.fail('onExpired must not be called');

describe('ApprovalBroker', () => {
  test('request ids are apv-<seq>-<toolCallId>', () => {
    const b = new ApprovalBroker({ onExpired: never });
    assert.equal(b.nextRequestId('call_1'), 'apv-1-call_1');
    assert.equal(b.nextRequestId('call_9'), 'apv-2-call_9');
  });

  test('an answer resolves the wait with the decision, pattern and edited content', async () => {
    const b = new ApprovalBroker({ onExpired: never });
    const p = pending(b, 'c1');
    const waiting = b.wait(p, new AbortController().signal);
    assert.equal(b.pendingCount(), 1);
    assert.deepEqual(b.answer(p.requestId, { decision: 'allow_pattern', pattern: 'src/**', editedContent: 'new' }), { ok: true });
    assert.deepEqual(await waiting, { decision: 'allow_pattern', pattern: 'src/**', editedContent: 'new' });
    assert.equal(b.pendingCount(), 0);
  });

  test('unknown and already-resolved ids are refused with the upstream message', async () => {
    const b = new ApprovalBroker({ onExpired: never });
    assert.deepEqual(b.answer('apv-9-x', { decision: 'yes' }), {
      ok: false,
      message: 'unknown, expired, or already resolved approval request: apv-9-x',
    });
    const p = pending(b, 'c1');
    const waiting = b.wait(p, new AbortController().signal);
    b.answer(p.requestId, { decision: 'no' });
    assert.deepEqual(await waiting, { decision: 'no' });
    assert.deepEqual(b.answer(p.requestId, { decision: 'yes' }), {
      ok: false,
      message: `unknown, expired, or already resolved approval request: ${p.requestId}`,
    });
  });

  test('expiry calls onExpired, then resolves as a denial; a late answer is refused', async () => {
    const expired: PendingApproval[] = [];
    let countDuringCallback = -1;
    const b = new ApprovalBroker({
      timeoutMs: 30,
      onExpired: (p) => {
        expired.push(p);
        countDuringCallback = b.pendingCount();
      },
    });
    const p = pending(b, 'c1');
    const answer = await b.wait(p, new AbortController().signal);
    assert.deepEqual(answer, { decision: 'no', expired: true });
    assert.deepEqual(expired, [p]);
    assert.equal(countDuringCallback, 0);
    assert.equal(b.answer(p.requestId, { decision: 'yes' }).ok, false);
  });

  test('the expiry counts from createdAt, using the injected clock', async () => {
    let expiredCount = 0;
    const b = new ApprovalBroker({ timeoutMs: 60_000, now: () => 1_000_000, onExpired: () => expiredCount++ });
    // Created 61 s before "now": already past its 60 s timeout.
    const answer = await b.wait(pending(b, 'c1', 'run-1', 1_000_000 - 61_000), new AbortController().signal);
    assert.deepEqual(answer, { decision: 'no', expired: true });
    assert.equal(expiredCount, 1);
  });

  test('every way a wait ends clears its expiry timer (a 15-minute timer left behind would keep the core alive)', async () => {
    const NOW = 1_000_000;
    const armed = new Map<number, number>();
    const armedDelays: number[] = [];
    let handles = 0;
    const b = new ApprovalBroker({
      onExpired: never,
      now: () => NOW,
      setTimer: (_fn, ms) => (armedDelays.push(ms), armed.set(++handles, ms), handles),
      clearTimer: (h) => armed.delete(h as number),
    });
    const answered = pending(b, 'c1', 'run-1', NOW);
    const waits = [b.wait(answered, new AbortController().signal)];
    assert.deepEqual([...armed.values()], [DEFAULT_APPROVAL_TIMEOUT_MS]);
    b.answer(answered.requestId, { decision: 'yes' });
    const ac = new AbortController();
    waits.push(b.wait(pending(b, 'c2', 'run-1', NOW), ac.signal));
    ac.abort();
    waits.push(b.wait(pending(b, 'c3', 'run-stale', NOW), new AbortController().signal));
    b.markStale('run-stale');
    waits.push(b.wait(pending(b, 'c4', 'run-1', NOW), new AbortController().signal));
    b.cancelAll();
    assert.deepEqual(
      [handles, new Set(armedDelays).size, armedDelays[0]],
      [4, 1, DEFAULT_APPROVAL_TIMEOUT_MS],
      'each wait armed its own 15-minute timer',
    );
    assert.deepEqual(await Promise.all(waits), [{ decision: 'yes' }, ...Array(3).fill({ decision: 'no', cancelled: true })]);
    assert.deepEqual([...armed.keys()], [], 'no timer left armed');
  });

  test('abort resolves as cancelled; an already-aborted signal resolves at once', async () => {
    const b = new ApprovalBroker({ onExpired: never });
    const ac = new AbortController();
    const waiting = b.wait(pending(b, 'c1'), ac.signal);
    ac.abort();
    assert.deepEqual(await waiting, { decision: 'no', cancelled: true });
    assert.equal(b.pendingCount(), 0);
    assert.deepEqual(await b.wait(pending(b, 'c2'), ac.signal), { decision: 'no', cancelled: true });
    assert.equal(b.pendingCount(), 0);
  });

  test('markStale: pending and already-aborted requests of the run end; answering them is "unknown, expired, or already resolved"; other runs are untouched', async () => {
    const b = new ApprovalBroker({ onExpired: never });
    const ac = new AbortController();
    const aborted = pending(b, 'c1', 'run-1');
    const abortedWait = b.wait(aborted, ac.signal);
    ac.abort();
    await abortedWait;
    const stillPending = pending(b, 'c2', 'run-1');
    const stillWait = b.wait(stillPending, new AbortController().signal);
    const other = pending(b, 'c3', 'run-2');
    const otherWait = b.wait(other, new AbortController().signal);

    b.markStale('run-1');
    assert.deepEqual(await stillWait, { decision: 'no', cancelled: true });
    for (const id of [aborted.requestId, stillPending.requestId]) {
      assert.deepEqual(b.answer(id, { decision: 'yes' }), {
        ok: false,
        message: `unknown, expired, or already resolved approval request: ${id}`,
      });
    }
    assert.equal(b.pendingCount(), 1);
    assert.deepEqual(b.answer(other.requestId, { decision: 'yes' }), { ok: true });
    assert.deepEqual(await otherWait, { decision: 'yes' });
  });

  test('a request of a run already marked stale ends cancelled at once and cannot be answered', async () => {
    const b = new ApprovalBroker({ onExpired: never });
    b.markStale('run-1');
    const p = pending(b, 'c1', 'run-1');
    assert.deepEqual(await b.wait(p, new AbortController().signal), { decision: 'no', cancelled: true });
    assert.equal(b.pendingCount(), 0);
    assert.match((b.answer(p.requestId, { decision: 'yes' }) as { message: string }).message, /^unknown, expired, or already resolved/);
  });

  test('cancelAll ends every pending wait', async () => {
    const b = new ApprovalBroker({ onExpired: never });
    const waits = [b.wait(pending(b, 'a'), new AbortController().signal), b.wait(pending(b, 'b', 'run-2'), new AbortController().signal)];
    b.cancelAll();
    assert.deepEqual(await Promise.all(waits), [
      { decision: 'no', cancelled: true },
      { decision: 'no', cancelled: true },
    ]);
    assert.equal(b.pendingCount(), 0);
  });

  test('a duplicate request id is a programming error', () => {
    const b = new ApprovalBroker({ onExpired: never });
    const p = pending(b, 'c1');
    void b.wait(p, new AbortController().signal);
    assert.throws(() => b.wait(p, new AbortController().signal), /already pending/);
    b.cancelAll();
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RestartPolicy } from './restartPolicy';

function clock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('RestartPolicy', () => {
  test('delays double from the base up to the cap', () => {
    const c = clock();
    const p = new RestartPolicy({ maxRestarts: 10, baseDelayMs: 500, maxDelayMs: 3000, now: c.now });
    assert.deepEqual([p.nextDelay(), p.nextDelay(), p.nextDelay(), p.nextDelay(), p.nextDelay()], [500, 1000, 2000, 3000, 3000]);
  });

  test('gives up after maxRestarts crashes within the window', () => {
    const c = clock();
    const p = new RestartPolicy({ now: c.now });
    for (let i = 0; i < 5; i++) {
      assert.notEqual(p.nextDelay(), undefined, `crash ${i + 1} is restarted`);
      c.advance(1000);
    }
    assert.equal(p.nextDelay(), undefined);
  });

  test('crashes older than the window no longer count', () => {
    const c = clock();
    const p = new RestartPolicy({ maxRestarts: 2, windowMs: 60_000, now: c.now });
    assert.equal(p.nextDelay(), 500);
    assert.equal(p.nextDelay(), 1000);
    c.advance(61_000);
    assert.equal(p.nextDelay(), 500, 'a crash after a quiet window starts a new streak');
    assert.equal(p.recentCrashes, 1);
  });

  test('recordHealthy (a completed turn) resets the streak', () => {
    const c = clock();
    const p = new RestartPolicy({ maxRestarts: 2, now: c.now });
    p.nextDelay();
    p.nextDelay();
    p.recordHealthy();
    assert.equal(p.recentCrashes, 0);
    assert.equal(p.nextDelay(), 500);
    assert.equal(p.nextDelay(), 1000);
    assert.equal(p.nextDelay(), undefined);
  });

  test('defaults: 5 restarts in 5 minutes, 500 ms base, 10 s cap', () => {
    const c = clock();
    const p = new RestartPolicy({ now: c.now });
    const delays = Array.from({ length: 6 }, () => p.nextDelay());
    assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, undefined]);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelayMs, parseRetryAfterMs, sleepUnlessAborted } from './backoff';
import { ProviderError } from './types';

const policy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8000 };

describe('backoff', () => {
  test('grows exponentially with jitter inside [half, full] of the capped ceiling', () => {
    for (let i = 0; i < 50; i++) {
      const first = backoffDelayMs(1, policy);
      const third = backoffDelayMs(3, policy);
      const tenth = backoffDelayMs(10, policy);
      assert.ok(first >= 250 && first <= 500, `${first}`);
      assert.ok(third >= 1000 && third <= 2000, `${third}`);
      assert.ok(tenth >= 4000 && tenth <= 8000, `${tenth}`);
    }
  });

  test('Retry-After wins when it fits under maxDelayMs, else is ignored', () => {
    assert.equal(backoffDelayMs(1, policy, 3000), 3000);
    const capped = backoffDelayMs(1, policy, 60_000);
    assert.ok(capped <= 500);
  });

  test('parses Retry-After seconds and HTTP dates', () => {
    assert.equal(parseRetryAfterMs('2'), 2000);
    assert.equal(parseRetryAfterMs('0.5'), 500);
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:03 GMT', now), 3000);
    assert.equal(parseRetryAfterMs('soon'), undefined);
    assert.equal(parseRetryAfterMs(null), undefined);
  });

  test('sleepUnlessAborted rejects with cancelled when aborted mid-wait', { timeout: 10_000 }, async () => {
    const controller = new AbortController();
    const sleeping = sleepUnlessAborted(60_000, controller.signal);
    setImmediate(() => controller.abort());
    await assert.rejects(sleeping, (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUmansUsage } from './umansUsageShape';

test('quoted counts, an ISO reset time and a slug-only plan are read; a missing limit stays absent', () => {
  const usage = parseUmansUsage({
    plan: { slug: 'starter' },
    usage: { concurrent_sessions: '1', requests_in_window: 5.0 },
    limits: { requests: { limit: '50' } },
    window: { resets_at: '2030-01-01T00:00:00Z', remaining_minutes: 0.5 },
  });
  assert.equal(usage.plan, 'starter');
  assert.deepEqual(usage.windows, [
    { id: 'concurrency', label: 'Concurrency', unit: 'sessions', used: 1 },
    { id: 'requests', label: 'Requests (window)', unit: 'requests', used: 5, limit: 50, resets_at: 1893456000, detail: 'resets soon' },
  ]);
});

test('a payload without usage fields is unavailable, as upstream says', () => {
  assert.deepEqual(parseUmansUsage({ plan: { display_name: 'Pro' } }), {
    available: false,
    message: 'Umans returned no usage fields.',
    windows: [],
  });
  assert.equal(parseUmansUsage('not json').available, false);
  assert.equal(parseUmansUsage({ usage: { tokens_in: -3 } }).available, false, 'negative counts are dropped');
});

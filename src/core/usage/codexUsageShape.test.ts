import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCodexUsage, windowName } from './codexUsageShape';

test('wham/usage: plan_type, the two rate-limit windows named from their length, and the credit balance', () => {
  const usage = parseCodexUsage({
    plan_type: 'plus',
    rate_limit: {
      allowed: true,
      primary_window: { used_percent: 12.5, limit_window_seconds: 18000, reset_after_seconds: 900, reset_at: 1893456000 },
      secondary_window: { used_percent: 40, limit_window_seconds: 604800, reset_at: 1893900000 },
    },
    credits: { has_credits: true, unlimited: false, balance: '17.25' },
  });
  assert.deepEqual(usage, {
    available: true,
    plan: 'plus',
    windows: [
      { id: 'five_hour', label: '5-hour', unit: 'percent', used: 12.5, resets_at: 1893456000 },
      { id: 'weekly', label: 'Weekly', unit: 'percent', used: 40, resets_at: 1893900000 },
      { id: 'credits', label: 'Credits remaining', unit: 'credits', used: 17.25 },
    ],
  });
});

test('unlimited credits read as "Credits" with no figure', () => {
  const usage = parseCodexUsage({ credits: { has_credits: true, unlimited: true, balance: null } });
  assert.deepEqual(usage.windows, [{ id: 'credits', label: 'Credits', unit: 'credits', detail: 'unlimited' }]);
});

test('window ids from the duration: three_hour, <N>h, <N>m, and primary/secondary when the length is missing', () => {
  assert.deepEqual(windowName(10800, 'primary'), { id: 'three_hour', label: '3-hour' });
  assert.deepEqual(windowName(7200, 'primary'), { id: '2h', label: '2-hour' });
  assert.deepEqual(windowName(1800, 'secondary'), { id: '30m', label: '30-minute' });
  assert.deepEqual(windowName(undefined, 'secondary'), { id: 'secondary', label: 'Secondary window' });
});

test('missing or mistyped fields give an honest partial answer, never a throw', () => {
  const partial = parseCodexUsage({
    plan_type: 7,
    rate_limit: { primary_window: { used_percent: 'x', limit_window_seconds: 18000, reset_at: '1893456000' }, secondary_window: 'no' },
    credits: { balance: {} },
  });
  assert.deepEqual(partial, {
    available: true,
    windows: [{ id: 'five_hour', label: '5-hour', unit: 'percent', resets_at: 1893456000 }],
  });
  for (const v of [null, 'text', [], {}, { rate_limit: null }]) {
    assert.deepEqual(parseCodexUsage(v), { available: false, message: 'ChatGPT returned no usage windows.', windows: [] });
  }
});

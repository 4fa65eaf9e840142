import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnthropicOauthUsage } from './anthropicOauthUsageShape';

test('oauth/usage: the percent buckets with ISO resets, null buckets left out, enabled extra usage as credits', () => {
  const usage = parseAnthropicOauthUsage({
    five_hour: { utilization: 15.0, resets_at: '2030-01-01T05:00:00.570750+00:00' },
    seven_day: { utilization: 48.0, resets_at: '2030-01-05T00:00:00Z' },
    seven_day_oauth_apps: null,
    seven_day_opus: { utilization: 3, resets_at: null },
    seven_day_sonnet: { utilization: 0, resets_at: '2030-01-05T00:00:00Z' },
    iguana_necktie: null,
    extra_usage: { is_enabled: true, monthly_limit: 5000, used_credits: 1234.5, utilization: 24.7, currency: 'USD' },
  });
  assert.deepEqual(usage, {
    available: true,
    windows: [
      { id: 'five_hour', label: '5-hour', unit: 'percent', used: 15, resets_at: 1893474000 },
      { id: 'seven_day', label: 'Weekly', unit: 'percent', used: 48, resets_at: 1893801600 },
      { id: 'seven_day_opus', label: 'Weekly (Opus)', unit: 'percent', used: 3 },
      { id: 'seven_day_sonnet', label: 'Weekly (Sonnet)', unit: 'percent', used: 0, resets_at: 1893801600 },
      { id: 'extra_usage', label: 'Extra usage', unit: 'credits', used: 1234.5, limit: 5000, detail: 'monthly' },
    ],
  });
});

test('the OAuth-apps bucket when present; extra usage that is disabled is left out', () => {
  const usage = parseAnthropicOauthUsage({
    seven_day_oauth_apps: { utilization: 1, resets_at: 1893801600 },
    extra_usage: { is_enabled: false, used_credits: 10 },
  });
  assert.deepEqual(usage.windows, [
    { id: 'seven_day_oauth_apps', label: 'Weekly (OAuth apps)', unit: 'percent', used: 1, resets_at: 1893801600 },
  ]);
});

test('missing or mistyped fields give an honest partial answer, never a throw', () => {
  const partial = parseAnthropicOauthUsage({ five_hour: { utilization: '12', resets_at: 'soon' }, seven_day: { utilization: null } });
  assert.deepEqual(partial, { available: true, windows: [{ id: 'five_hour', label: '5-hour', unit: 'percent', used: 12 }] });
  for (const v of [null, 42, [], {}, { five_hour: 'x', extra_usage: { is_enabled: true } }]) {
    assert.deepEqual(parseAnthropicOauthUsage(v), { available: false, message: 'Anthropic returned no usage windows.', windows: [] });
  }
});

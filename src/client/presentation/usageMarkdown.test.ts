import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatUsageSection, usedText } from './usageMarkdown';

const clock = (s: number) => `T${s}`;

test('a usage answer with windows: plan, note and one row per window with used/limit, unit and reset', () => {
  const lines = formatUsageSection(
    {
      type: 'usage',
      provider: 'gateway',
      model: 'gm',
      available: true,
      plan: 'Pro',
      message: 'fair | use',
      windows: [
        { id: 'requests', label: 'Requests (window)', unit: 'requests', used: 120, limit: 1000, resets_at: 99, detail: 'resets in 2h 5m' },
        { id: 'tokens', label: 'Tokens', unit: 'tokens', used: 17500 },
      ],
    },
    clock,
  );
  assert.deepEqual(lines, [
    '## Provider usage',
    '',
    'Provider `gateway`, model `gm` — plan **Pro**',
    '',
    '> fair | use',
    '',
    '| Limit | Used | Resets | |',
    '| --- | --- | --- | --- |',
    '| Requests (window) | 120 / 1,000 requests | T99 | resets in 2h 5m |',
    '| Tokens | 17,500 tokens | — |  |',
  ]);
});

test('an unavailable provider shows its message, and no answer says so', () => {
  const lines = formatUsageSection({ type: 'usage', provider: 'p', available: false, message: 'no usage here', windows: [] }, clock);
  assert.deepEqual(lines.slice(2), ['Provider `p`', '', '> no usage here']);
  assert.match(formatUsageSection(undefined).join('\n'), /did not answer/);
  assert.match(formatUsageSection({ type: 'usage', available: false }).join('\n'), /reports no usage/);
});

test('used text per unit', () => {
  assert.equal(usedText({ id: 'w', label: 'W', unit: 'percent', used: 42.25, limit: 100 }), '42.3 %');
  assert.equal(usedText({ id: 'c', label: 'C', unit: 'sessions', used: 3 }), '3 sessions');
  assert.equal(usedText({ id: 'c', label: 'C', unit: 'credits', limit: 12 }), '? / 12 credits');
  assert.equal(usedText({ id: 'c', label: 'C', unit: 'credits' }), '—');
});

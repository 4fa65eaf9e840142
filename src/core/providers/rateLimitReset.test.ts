import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitedUntilText, rateLimitResetAt } from './rateLimitReset';

const NOW = Date.UTC(2026, 11, 2, 6, 0, 0);

test('Retry-After wins over the reset headers, in seconds or as an HTTP date', () => {
  assert.equal(rateLimitResetAt(new Headers({ 'retry-after': '30', 'x-ratelimit-reset-requests': '1h' }), NOW), NOW + 30_000);
  assert.equal(rateLimitResetAt(new Headers({ 'retry-after': new Date(NOW + 90_000).toUTCString() }), NOW), NOW + 90_000);
});

test('OpenAI durations, Anthropic RFC 3339 times and epoch x-ratelimit-reset: the latest reset', () => {
  const openai = new Headers({ 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '1.5s' });
  assert.equal(rateLimitResetAt(openai, NOW), NOW + 360_000);
  assert.equal(rateLimitResetAt(new Headers({ 'x-ratelimit-reset-tokens': '250ms' }), NOW), NOW + 250);
  const anthropic = new Headers({ 'anthropic-ratelimit-requests-reset': new Date(NOW + 120_000).toISOString() });
  assert.equal(rateLimitResetAt(anthropic, NOW), NOW + 120_000);
  assert.equal(rateLimitResetAt(new Headers({ 'x-ratelimit-reset': String((NOW + 60_000) / 1000) }), NOW), NOW + 60_000);
  assert.equal(rateLimitResetAt(new Headers({ 'x-ratelimit-reset': String(NOW + 5_000) }), NOW), NOW + 5_000);
  assert.equal(rateLimitResetAt(new Headers({ 'x-ratelimit-reset': '45' }), NOW), NOW + 45_000);
});

test('no reset header, or an unreadable one, says nothing', () => {
  assert.equal(rateLimitResetAt(new Headers({ 'x-ratelimit-limit-requests': '100' }), NOW), undefined);
  assert.equal(rateLimitResetAt(new Headers({ 'x-ratelimit-reset-requests': 'soon' }), NOW), undefined);
});

test('the text names the local clock and the wait', () => {
  const until = NOW + 10 * 60_000;
  const clock = new Date(until);
  const hhmm = `${String(clock.getHours()).padStart(2, '0')}:${String(clock.getMinutes()).padStart(2, '0')}`;
  assert.equal(rateLimitedUntilText(until, NOW), `rate limited until ${hhmm} (in 10m)`);
  assert.match(rateLimitedUntilText(NOW + 42_000, NOW), /\(in 42s\)$/);
  assert.match(rateLimitedUntilText(NOW + 150 * 60_000, NOW), /\(in 2h 30m\)$/);
});

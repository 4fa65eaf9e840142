import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpStatusError } from './httpFailure';
import { rateLimitedUntilSeconds, rateLimitResetAt } from './rateLimitReset';

/** A whole minute of the local clock (the text names local time). */
const MINUTE = new Date(2026, 11, 2, 6, 0, 0).getTime();
const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

test('a 429 ending in the last second of a minute: the text names the second rate_limited_until carries', () => {
  // Retry-After "59.5" at 06:00:00.300 ends at 06:00:59.800; the event field, whole seconds rounded up, says 06:01:00.
  const now = MINUTE + 300;
  const until = rateLimitResetAt(new Headers({ 'retry-after': '59.5' }), now);
  assert.equal(until, MINUTE + 59_800);
  const err = httpStatusError('scripted', 429, '', [], until, now);
  const field = rateLimitedUntilSeconds(err.rateLimitedUntil!);
  assert.equal(field * 1000, MINUTE + 60_000, 'the field: the end rounded up to its second');
  assert.equal(hhmm(field * 1000), hhmm(MINUTE + 60_000));
  assert.ok(err.message.endsWith(`rate limited until ${hhmm(field * 1000)} (in 59s)`), err.message);
  assert.equal(err.retryAfterMs, 59_500, 'the wait the server asked for is not stretched');
});

test('Retry-After: 600 received mid-second still reads "in 10m"', () => {
  const now = MINUTE + 300;
  const err = httpStatusError('scripted', 429, '', [], rateLimitResetAt(new Headers({ 'retry-after': '600' }), now), now);
  assert.equal(rateLimitedUntilSeconds(err.rateLimitedUntil!) * 1000, MINUTE + 601_000);
  assert.ok(err.message.endsWith(`rate limited until ${hhmm(MINUTE + 601_000)} (in 10m)`), err.message);
});

test('only a 429 says until when', () => {
  const err = httpStatusError('scripted', 503, 'busy', [], MINUTE + 1_500, MINUTE);
  assert.equal(err.rateLimitedUntil, undefined);
  assert.equal(err.message, 'HTTP 503 from scripted: busy');
});

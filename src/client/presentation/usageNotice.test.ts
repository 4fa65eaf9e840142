import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usageNotice } from './usageNotice';

const usage = { tokensIn: 12_345, tokensOut: 678, cachedTokens: 9000 };

test('the /stats notice: tokens, and the cost through the shared formatter ("< $0.01" under a cent)', () => {
  assert.equal(usageNotice(usage), 'Tokens: 12,345 in (9,000 cached), 678 out.');
  assert.equal(usageNotice({ ...usage, costUsd: 0.004 }), 'Tokens: 12,345 in (9,000 cached), 678 out; estimated cost < $0.01.');
  assert.equal(usageNotice({ ...usage, costUsd: 0.0123 }), 'Tokens: 12,345 in (9,000 cached), 678 out; estimated cost $0.0123.');
  assert.equal(usageNotice({ ...usage, costUsd: 2.5 }), 'Tokens: 12,345 in (9,000 cached), 678 out; estimated cost $2.50.');
});

test('an unknown price says so, never a made-up $0', () => {
  assert.equal(usageNotice({ ...usage, costUnknown: true }), 'Tokens: 12,345 in (9,000 cached), 678 out; cost: price unknown.');
  assert.equal(
    usageNotice({ ...usage, costUsd: 0.5, costUnknown: true }),
    'Tokens: 12,345 in (9,000 cached), 678 out; estimated cost $0.5000 (some requests: price unknown).',
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatUsd } from './costFormat';

test('formatUsd: under a cent, fractions of a dollar, dollars, and no negative or NaN figure', () => {
  assert.equal(formatUsd(0.000412), '< $0.01');
  assert.equal(formatUsd(0.0123), '$0.0123');
  assert.equal(formatUsd(0.98765), '$0.9877');
  assert.equal(formatUsd(12.345), '$12.35');
  assert.equal(formatUsd(4321.4), '$4,321');
  assert.equal(formatUsd(0), '$0.00');
  assert.equal(formatUsd(Number.NaN), '$0.00');
});

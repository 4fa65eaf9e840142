import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseApprovalMode } from './configValues';

describe('parseApprovalMode', () => {
  test('names and aliases, case-insensitive; unknown → undefined', () => {
    for (const s of ['never', 'off', 'none', 'auto', 'OFF']) assert.equal(parseApprovalMode(s), 'never', s);
    for (const s of ['destructive', ' Destructive ']) assert.equal(parseApprovalMode(s), 'destructive', s);
    for (const s of ['always', 'all', 'y', 'ALL']) assert.equal(parseApprovalMode(s), 'always', s);
    for (const s of ['', 'yes', 'ask', undefined]) assert.equal(parseApprovalMode(s), undefined, String(s));
  });
});

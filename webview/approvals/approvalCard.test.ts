import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApprovalItem } from '../../src/shared/sessionState';
import { stateLabel } from './approvalCard';

const item = (fields: Partial<ApprovalItem>): ApprovalItem => ({
  kind: 'approval',
  id: 'apv-1',
  toolCallId: 'c1',
  tool: 'edit',
  risk: 'destructive',
  args: '{}',
  createdAt: 0,
  state: 'pending',
  ...fields,
});

test("decided cards say how: approved once or for the session, with the user's edits, rejected, expired", () => {
  assert.equal(stateLabel(item({})), '');
  assert.equal(stateLabel(item({ state: 'approved', decision: 'yes' })), 'Approved once');
  assert.equal(stateLabel(item({ state: 'approved', decision: 'yes', edited: true })), 'Approved with your edits');
  assert.equal(
    stateLabel(item({ state: 'approved', decision: 'allow_session', edited: true })),
    'Approved with your edits (for this session)',
  );
  assert.equal(stateLabel(item({ state: 'approved', decision: 'allow_pattern' })), 'Approved by pattern');
  assert.equal(stateLabel(item({ state: 'denied', decision: 'no' })), 'Rejected');
  assert.match(stateLabel(item({ state: 'expired' })), /^Expired/);
  assert.equal(stateLabel(item({ state: 'cancelled' })), 'Cancelled');
});

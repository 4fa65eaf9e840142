import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalRules } from './approvalRules';

describe('ApprovalRules', () => {
  test('a rule matches its tool and risk only', () => {
    const rules = new ApprovalRules();
    rules.remember('session', 'bash', 'process');
    assert.equal(rules.match('bash', 'process'), 'session');
    assert.equal(rules.match('bash', 'network'), undefined);
    assert.equal(rules.match('write', 'process'), undefined);
  });

  test('names that would collide when joined naively stay apart', () => {
    const rules = new ApprovalRules();
    rules.remember('always', 'a:b', 'c');
    assert.equal(rules.match('a', 'b:c'), undefined);
    assert.equal(rules.match('a:b', 'c'), 'always');
  });

  test('a new connection clears session rules and keeps always rules', () => {
    const rules = new ApprovalRules();
    rules.remember('session', 'bash', 'process');
    rules.remember('always', 'write', 'filesystem');
    assert.equal(rules.size, 2);
    rules.startConnection();
    assert.equal(rules.match('bash', 'process'), undefined);
    assert.equal(rules.match('write', 'filesystem'), 'always');
    assert.equal(rules.size, 1);
  });

  test('when both scopes allow a call, the broader one is reported', () => {
    const rules = new ApprovalRules();
    rules.remember('session', 'bash', 'process');
    rules.remember('always', 'bash', 'process');
    assert.equal(rules.match('bash', 'process'), 'always');
  });
});

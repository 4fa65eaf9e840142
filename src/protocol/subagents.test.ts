import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subagentTarget } from './subagents';

test("a child's target is upstream's subagent_target: the agent kept to [A-Za-z0-9_-] and lowercased, 8 chars of the run id without '-'", () => {
  assert.equal(subagentTarget('run-3-0', 'worker'), 'subagent-worker-run30');
  assert.equal(subagentTarget('run-1a2b-3c4d5e', 'Code Reviewer.v2'), 'subagent-codereviewerv2-run1a2b3');
  assert.equal(subagentTarget('run-1', 'my_agent-x'), 'subagent-my_agent-x-run1');
});

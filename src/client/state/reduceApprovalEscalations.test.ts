import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import { sessionReducer } from './sessionReducer';

test('escalations join the list as they happen and leave the mode alone; duplicates are not repeated', () => {
  let s = sessionReducer(initialSessionState(), { type: 'approval_changed', mode: 'destructive:always', tool: 'write_file' });
  s = sessionReducer(s, { type: 'approval_changed', mode: 'allow_pattern', tool: 'bash', pattern: 'npm test *' });
  s = sessionReducer(s, { type: 'approval_changed', mode: 'allow_pattern', tool: 'edit', pattern: '*' });
  s = sessionReducer(s, { type: 'approval_changed', mode: 'destructive:always', tool: 'edit' });
  s = sessionReducer(s, { type: 'approval_changed', mode: 'allow_pattern', tool: 'bash', pattern: 'npm test *' });
  assert.equal(s.approvalMode, 'destructive');
  assert.deepEqual(s.approvalEscalations, {
    kinds: ['destructive'],
    patterns: [
      { tool: 'bash', pattern: 'npm test *' },
      { tool: 'edit', pattern: '*' },
    ],
  });
  const plain = sessionReducer(s, { type: 'approval_changed', mode: 'always' });
  assert.equal(plain.approvalMode, 'always');
  assert.equal(plain.approvalEscalations, s.approvalEscalations, 'a plain mode keeps the escalations');
});

test("our core's list replaces what was seen; a bad entry is dropped", () => {
  const seen = sessionReducer(initialSessionState(), { type: 'approval_changed', mode: 'readonly:always' });
  const listed = sessionReducer(seen, {
    type: 'approval_escalations',
    kinds: ['destructive', 7],
    patterns: [{ tool: 'bash', pattern: 'git *' }, { tool: 'bash' }, 'x'],
  } as never);
  assert.deepEqual(listed.approvalEscalations, { kinds: ['destructive'], patterns: [{ tool: 'bash', pattern: 'git *' }] });
  const cleared = sessionReducer(listed, { type: 'approval_escalations', kinds: [], patterns: [] });
  assert.deepEqual(cleared.approvalEscalations, { kinds: [], patterns: [] });
});

test("another session drops the kinds (they live in that session's sidecar) and keeps the granted rules", () => {
  let s = sessionReducer(initialSessionState(), { type: 'approval_changed', mode: 'destructive:always' });
  s = sessionReducer(s, { type: 'approval_changed', mode: 'allow_pattern', tool: 'bash', pattern: 'ls' });
  s = sessionReducer(s, { type: 'session_changed', session_id: 's2', path: '/tmp/s2.jsonl', title: 'Other' } as never);
  assert.deepEqual(s.approvalEscalations, { kinds: [], patterns: [{ tool: 'bash', pattern: 'ls' }] });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import { sessionReducer } from './sessionReducer';

const rulesEvent = (files: unknown, extra: Record<string, unknown> = {}) =>
  ({ type: 'rules', files, skipped: [], disabled: [], walk_limited: false, ...extra }) as never;

test('rules: the files in effect replace the previous list; a repeat keeps the state', () => {
  const agents = { path: 'AGENTS.md', source: 'agents_md', bytes: 120, tokens: 40, truncated: false, scope: '.' };
  const nested = { path: 'pkg/AGENTS.md', source: 'agents_md', bytes: 9000, tokens: 2300, truncated: true, scope: 'pkg' };
  const s1 = sessionReducer(
    initialSessionState(),
    rulesEvent([agents, nested], {
      skipped: [{ path: '.env/AGENTS.md', source: 'agents_md', reason: 'restricted' }],
      disabled: ['cursorrules'],
    }),
  );
  assert.deepEqual(s1.rules, { files: [agents, nested], skipped: 1, disabled: ['cursorrules'] });
  assert.equal(sessionReducer(s1, rulesEvent([agents, nested], { skipped: [{}], disabled: ['cursorrules'] })), s1, 'unchanged');
  const s2 = sessionReducer(s1, rulesEvent([agents]));
  assert.deepEqual(s2.rules, { files: [agents], skipped: 0, disabled: [] });
});

test('rules from an untrusted core: entries without a path are dropped, mistyped fields fall back', () => {
  const s = sessionReducer(
    initialSessionState(),
    rulesEvent([{ source: 'agents_md' }, 'x', { path: 'CLAUDE.md', bytes: '12', truncated: 1 }]),
  );
  assert.deepEqual(s.rules?.files, [{ path: 'CLAUDE.md', source: '', bytes: 0, tokens: 0, truncated: false, scope: '.' }]);
  assert.deepEqual(sessionReducer(initialSessionState(), { type: 'rules' } as never).rules, { files: [], skipped: 0, disabled: [] });
});

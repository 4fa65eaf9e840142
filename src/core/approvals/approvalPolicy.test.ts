import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ApprovalMode } from '../config/config';
import { approvalRequired, patternCoversTarget } from './approvalPolicy';

describe('approvalRequired', () => {
  const base = { restricted: false, forceAllow: false, escalated: false, forceAsk: false };

  test('truth table over every mode, kind and flag', () => {
    const modes: ApprovalMode[] = ['never', 'destructive', 'always'];
    const kinds = ['readonly', 'destructive'] as const;
    const bools = [false, true];
    for (const mode of modes)
      for (const kind of kinds)
        for (const restricted of bools)
          for (const forceAllow of bools)
            for (const escalated of bools)
              for (const forceAsk of bools) {
                let expected: boolean;
                if (mode === 'never') expected = false;
                else if (forceAsk || restricted) expected = true;
                else if (forceAllow || escalated) expected = false;
                else expected = mode === 'always' || kind === 'destructive';
                const q = { mode, kind, restricted, forceAllow, escalated, forceAsk };
                assert.equal(approvalRequired(q), expected, JSON.stringify(q));
              }
  });

  test('the cases that matter, spelled out', () => {
    assert.equal(approvalRequired({ ...base, mode: 'never', kind: 'destructive', restricted: true, forceAsk: true }), false);
    assert.equal(approvalRequired({ ...base, mode: 'destructive', kind: 'readonly' }), false);
    assert.equal(approvalRequired({ ...base, mode: 'destructive', kind: 'destructive' }), true);
    assert.equal(approvalRequired({ ...base, mode: 'destructive', kind: 'readonly', restricted: true }), true);
    assert.equal(approvalRequired({ ...base, mode: 'always', kind: 'readonly' }), true);
    assert.equal(approvalRequired({ ...base, mode: 'always', kind: 'destructive', forceAllow: true }), false);
    assert.equal(approvalRequired({ ...base, mode: 'always', kind: 'destructive', escalated: true }), false);
    assert.equal(approvalRequired({ ...base, mode: 'destructive', kind: 'destructive', escalated: true, restricted: true }), true);
    assert.equal(approvalRequired({ ...base, mode: 'destructive', kind: 'readonly', forceAllow: true, forceAsk: true }), true);
  });
});

describe('patternCoversTarget', () => {
  test('accepts the target itself and globs with a literal prefix that match it', () => {
    assert.equal(patternCoversTarget('src/**', 'src/a.ts'), true);
    assert.equal(patternCoversTarget('src/runtime/*', 'src/runtime/mod.rs'), true);
    assert.equal(patternCoversTarget('npm test*', 'npm test -- --watch'), true);
    assert.equal(patternCoversTarget('src/a.ts', 'src/a.ts'), true);
    assert.equal(patternCoversTarget('git diff *', 'git diff src/a.ts'), true);
  });

  test('rejects wildcards without a prefix, parent references, rooted globs and other scopes', () => {
    assert.equal(patternCoversTarget('*', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('**', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('*.ts', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('../x', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('src/../*', 'src/../etc'), false);
    assert.equal(patternCoversTarget('/etc/*', '/etc/passwd'), false);
    assert.equal(patternCoversTarget('~/*', '~/x'), false);
    assert.equal(patternCoversTarget('docs/*', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('src/b.ts', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('!src/b.ts', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('src/*', ''), false);
  });

  test('the glob must actually match, not only share the prefix', () => {
    assert.equal(patternCoversTarget('src/*.md', 'src/a.ts'), false);
    assert.equal(patternCoversTarget('npm test', 'npm test -- --watch'), false);
  });
});

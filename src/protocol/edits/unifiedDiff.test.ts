import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeUnifiedDiff } from './unifiedDiff';

describe('makeUnifiedDiff', () => {
  test('identical content gives ""', () => {
    assert.equal(makeUnifiedDiff('a.txt', 'same\n', 'same\n'), '');
  });

  test('a modification has a/ b/ headers, one hunk and 3 context lines', () => {
    const before = '1\n2\n3\n4\n5\n6\n7\n8\n9\n';
    const diff = makeUnifiedDiff('src/x.ts', before, before.replace('5\n', 'five\n'));
    assert.equal(diff, '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n');
  });

  test('a new file is all additions', () => {
    assert.equal(makeUnifiedDiff('n.txt', '', 'a\nb\n'), '--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  });

  test('a huge change gets the placeholder hunk instead of a diff', () => {
    const before = 'x\n'.repeat(2001);
    const after = 'y\n'.repeat(2000);
    assert.equal(
      makeUnifiedDiff('big.txt', before, after),
      '--- a/big.txt\n+++ b/big.txt\n@@ -1,2001 +1,2000 @@\n… large change (2001 → 2000 lines); diff omitted for size …\n',
    );
  });

  test('caps the output at about 4000 lines', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}\n`).join('');
    const after = Array.from({ length: 1000 }, (_, i) => `new ${i}\n`).join('');
    const lines = makeUnifiedDiff('t.txt', before, after).split('\n');
    assert.ok(lines.length <= 4004, `got ${lines.length} lines`);
    assert.equal(lines.at(-2), '… diff truncated …');
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUnifiedPatch, type PatchResult } from './patchApply';
import { makeUnifiedDiff } from './unifiedDiff';

function content(result: PatchResult): string {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.content;
}

function numbered(count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');
}

describe('applyUnifiedPatch', () => {
  test('applies a multi-hunk patch with ---/+++ headers', () => {
    const before = numbered(20);
    const patch = [
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -2,3 +2,3 @@',
      ' line 2',
      '-line 3',
      '+LINE THREE',
      ' line 4',
      '@@ -15,3 +15,4 @@',
      ' line 15',
      ' line 16',
      '+inserted',
      ' line 17',
      '',
    ].join('\n');
    const expected = before.replace('line 3\n', 'LINE THREE\n').replace('line 16\n', 'line 16\ninserted\n');
    assert.equal(content(applyUnifiedPatch(before, patch)), expected);
  });

  test('round-trips any diff produced by makeUnifiedDiff', () => {
    const before = numbered(40);
    const after = before.replace('line 5\n', '').replace('line 20\n', 'twenty\n').concat('tail\n');
    assert.equal(content(applyUnifiedPatch(before, makeUnifiedDiff('f', before, after))), after);
  });

  test('supports zero-count insertions, in the middle and at the top', () => {
    assert.equal(content(applyUnifiedPatch('a\nb\nc\n', '@@ -2,0 +3,2 @@\n+x\n+y\n')), 'a\nb\nx\ny\nc\n');
    assert.equal(content(applyUnifiedPatch('a\n', '@@ -0,0 +1 @@\n+first\n')), 'first\na\n');
  });

  test('creates content for an empty file', () => {
    assert.equal(content(applyUnifiedPatch('', '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n')), 'hello\nworld\n');
  });

  test('finds the hunk when line numbers have drifted', () => {
    const before = numbered(30);
    const patch = '@@ -10,3 +10,3 @@\n line 16\n-line 17\n+seventeen\n line 18\n';
    assert.equal(content(applyUnifiedPatch(before, patch)), before.replace('line 17\n', 'seventeen\n'));
  });

  test('applies a hunk with a bare "@@" header by its context', () => {
    assert.equal(content(applyUnifiedPatch('a\nb\nc\n', '@@\n b\n-c\n+C\n')), 'a\nb\nC\n');
  });

  test('preserves CRLF line endings, including on added lines', () => {
    const patch = '@@ -1,2 +1,3 @@\n one\n-two\n+TWO\n+more\n';
    assert.equal(content(applyUnifiedPatch('one\r\ntwo\r\nthree\r\n', patch)), 'one\r\nTWO\r\nmore\r\nthree\r\n');
  });

  test('honours "\\ No newline at end of file" on either side', () => {
    const removeFinalNewline = '@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n';
    assert.equal(content(applyUnifiedPatch('a\nb\n', removeFinalNewline)), 'a\nb');
    const addFinalNewline = '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n';
    assert.equal(content(applyUnifiedPatch('a\nb', addFinalNewline)), 'a\nb\n');
  });

  test('without markers, a file that lacked a final newline keeps lacking it', () => {
    assert.equal(content(applyUnifiedPatch('a\nb', '@@ -1,2 +1,3 @@\n a\n b\n+c\n')), 'a\nb\nc');
  });

  test('treats an empty patch line as a blank context line', () => {
    assert.equal(content(applyUnifiedPatch('x\n\ny\n', '@@ -1,3 +1,3 @@\n x\n\n-y\n+z\n')), 'x\n\nz\n');
  });

  test('rejects a hunk whose context does not match', () => {
    const result = applyUnifiedPatch('a\nb\nc\n', '@@ -1,2 +1,2 @@\n a\n-missing\n+x\n');
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, /hunk 1 .*does not apply[\s\S]*missing/);
  });

  test('rejects text that is not a patch, and bad hunk lines', () => {
    const noHunks = applyUnifiedPatch('a\n', 'just some prose');
    assert.match(noHunks.ok ? '' : noHunks.error, /no hunks/);
    const badLine = applyUnifiedPatch('a\n', '@@ -1 +1 @@\n-a\n*b\n');
    assert.match(badLine.ok ? '' : badLine.error, /starts with neither/);
  });

  test('hunks must apply in order without overlapping', () => {
    const result = applyUnifiedPatch('a\nb\nc\n', '@@ -2,1 +2,1 @@\n-b\n+B\n@@ -1,1 +1,1 @@\n-a\n+A\n');
    assert.equal(result.ok, false);
  });
});

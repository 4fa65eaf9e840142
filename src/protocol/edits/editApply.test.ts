import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, type EditResult } from './editApply';

function content(result: EditResult): string {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.content;
}

function error(result: EditResult): string {
  assert.equal(result.ok, false, 'expected the edits to be rejected');
  return result.ok ? '' : result.error;
}

describe('applyEdits', () => {
  test('replaces a unique match and leaves the rest alone', () => {
    assert.equal(content(applyEdits('let a = 1;\nlet b = 2;\n', [{ search: 'b = 2', replace: 'b = 3' }])), 'let a = 1;\nlet b = 3;\n');
  });

  test('applies edits in order to the evolving content', () => {
    const result = applyEdits('one two', [
      { search: 'one', replace: 'three' },
      { search: 'three two', replace: 'done' },
    ]);
    assert.equal(content(result), 'done');
  });

  test('an empty replace deletes, and replacement text is literal (no $ patterns)', () => {
    assert.equal(content(applyEdits('a-b-c', [{ search: '-b', replace: '' }])), 'a-c');
    assert.equal(content(applyEdits('x', [{ search: 'x', replace: '$& $1 $$' }])), '$& $1 $$');
  });

  test('rejects an empty search, naming the edit', () => {
    assert.match(
      error(
        applyEdits('abc', [
          { search: 'a', replace: 'b' },
          { search: '', replace: 'x' },
        ]),
      ),
      /^edit 2: search is empty/,
    );
  });

  test('rejects a search that is not found, naming the edit', () => {
    const message = error(
      applyEdits('alpha\nbeta gamma\n', [
        { search: 'alpha', replace: 'A' },
        { search: 'beta delta', replace: 'x' },
      ]),
    );
    assert.match(message, /^edit 2: search text not found/);
    assert.match(message, /Closest line: 2: beta gamma/);
  });

  test('rejects an ambiguous search with the number of matches', () => {
    assert.match(error(applyEdits('x x x', [{ search: 'x', replace: 'y' }])), /^edit 1: search text found 3 times/);
  });

  test('replace_all replaces every non-overlapping match', () => {
    assert.equal(content(applyEdits('aaa b aa', [{ search: 'aa', replace: 'c', replace_all: true }])), 'ca b c');
  });

  test('rejects a batch whose replace_all search appears in an earlier replacement', () => {
    const message = error(
      applyEdits('foo()\n', [
        { search: 'foo()', replace: 'function helper() { return foo(); }\nfoo()' },
        { search: 'foo', replace: 'bar', replace_all: true },
      ]),
    );
    assert.match(message, /^edit 2: .*edit 1's replacement/);
  });

  test('the replace_all check only looks at EARLIER edits', () => {
    const result = applyEdits('foo foo', [
      { search: 'foo', replace: 'bar', replace_all: true },
      { search: 'bar bar', replace: 'foo' },
    ]);
    assert.equal(content(result), 'foo');
  });

  test('normalize_whitespace matches across indentation drift and edits the original text', () => {
    const source = 'function f() {\n\t\tif (x)   {\n\t\t\treturn 1;\n\t\t}\n}\n';
    const result = applyEdits(source, [{ search: '  if (x) {\n    return 1;\n  }', replace: 'return 2;', normalize_whitespace: true }]);
    assert.equal(content(result), 'function f() {\n\t\treturn 2;\n}\n');
  });

  test('normalize_whitespace still requires a unique match unless replace_all', () => {
    assert.match(error(applyEdits('a  b\na b\n', [{ search: 'a b', replace: 'c', normalize_whitespace: true }])), /found 2 times/);
    assert.equal(
      content(applyEdits('a  b\na b\n', [{ search: 'a b', replace: 'c', normalize_whitespace: true, replace_all: true }])),
      'c\nc\n',
    );
  });

  test('normalize_whitespace maps offsets correctly after multi-unit characters', () => {
    const result = applyEdits('é → 😀  x   y z', [{ search: 'x y', replace: 'Q', normalize_whitespace: true }]);
    assert.equal(content(result), 'é → 😀  Q z');
  });

  test('without normalize_whitespace, a whitespace-only mismatch says how to fix it', () => {
    assert.match(error(applyEdits('if (x)  {\n', [{ search: 'if (x) {', replace: 'y' }])), /normalize_whitespace/);
  });

  test('keeps CRLF line endings when the search and replace use LF', () => {
    const result = applyEdits('one\r\ntwo\r\nthree\r\n', [{ search: 'one\ntwo\n', replace: 'uno\ndos\nextra\n' }]);
    assert.equal(content(result), 'uno\r\ndos\r\nextra\r\nthree\r\n');
  });

  test('a mixed-ending file is matched exactly, not converted', () => {
    assert.equal(content(applyEdits('a\r\nb\nc\n', [{ search: 'b\n', replace: 'B\n' }])), 'a\r\nB\nc\n');
  });

  test('an empty batch is an error', () => {
    assert.match(error(applyEdits('x', [])), /no edits/);
  });
});

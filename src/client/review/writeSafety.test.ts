import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBeforeAnswer, dirtyChoices, rebaseChange } from './writeSafety';

describe('checkBeforeAnswer', () => {
  test('the matrix: unchanged disk × clean/dirty buffer, changed disk wins over a dirty buffer', () => {
    const cases: [string | null, string | null, boolean, string][] = [
      ['a\n', 'a\n', false, 'ok'],
      ['a\n', 'a\n', true, 'dirty_buffer'],
      ['a\n', 'b\n', false, 'changed_on_disk'],
      ['a\n', 'b\n', true, 'changed_on_disk'],
      [null, null, false, 'ok'],
      [null, null, true, 'dirty_buffer'],
      [null, '', false, 'changed_on_disk'], // created (empty) since the preview
      ['', null, false, 'changed_on_disk'], // deleted since the preview
      [null, 'x', true, 'changed_on_disk'],
      ['a\n', null, true, 'changed_on_disk'],
      ['', '', false, 'ok'],
    ];
    for (const [previewBase, diskNow, bufferDirty, kind] of cases) {
      assert.deepEqual(
        checkBeforeAnswer({ previewBase, diskNow, bufferDirty }),
        { kind },
        JSON.stringify([previewBase, diskNow, bufferDirty]),
      );
    }
  });

  test('CRLF/LF and final-newline differences are changes', () => {
    assert.deepEqual(checkBeforeAnswer({ previewBase: 'a\nb\n', diskNow: 'a\r\nb\r\n', bufferDirty: false }), { kind: 'changed_on_disk' });
    assert.deepEqual(checkBeforeAnswer({ previewBase: 'a\nb\n', diskNow: 'a\nb', bufferDirty: false }), { kind: 'changed_on_disk' });
  });
});

describe('rebaseChange', () => {
  const base = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
  const changed = base.replace('line 15\n', 'line fifteen\n');

  test('identity: rebasing onto the same base gives the change back', () => {
    assert.equal(rebaseChange(base, changed, base), changed);
    assert.equal(rebaseChange('', 'new\n', ''), 'new\n');
    assert.equal(rebaseChange('a\r\nb', 'a\r\nB', 'a\r\nb'), 'a\r\nB');
  });

  test('replays the change onto a base edited elsewhere', () => {
    const newBase = `// header\n${base.replace('line 2\n', 'line two\n')}`;
    assert.equal(rebaseChange(base, changed, newBase), newBase.replace('line 15\n', 'line fifteen\n'));
    const appended = `${base}line 21\n`;
    assert.equal(rebaseChange(base, changed, appended), `${changed}line 21\n`);
  });

  test('several hunks, insertions and deletions, at the start and the end', () => {
    const change = `first\n${base.replace('line 8\n', '').replace('line 20\n', 'line 20\nlast\n')}`;
    const newBase = base.replace('line 12\n', 'line twelve\n');
    assert.equal(rebaseChange(base, change, newBase), `first\n${newBase.replace('line 8\n', '').replace('line 20\n', 'line 20\nlast\n')}`);
  });

  test('keeps line endings and the missing final newline exactly', () => {
    const crlf = 'a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n';
    const crlfChanged = crlf.replace('g\r\n', 'G\r\n');
    const crlfNew = crlf.replace('a\r\n', 'A\r\n');
    assert.equal(rebaseChange(crlf, crlfChanged, crlfNew), 'A\r\nb\r\nc\r\nd\r\ne\r\nf\r\nG\r\nh\r\n');
    const noEol = 'a\nb\nc\nd\ne\nf\ng';
    assert.equal(rebaseChange(noEol, `${noEol}\nh`, `A\n${noEol.slice(2)}`), 'A\nb\nc\nd\ne\nf\ng\nh');
  });

  test('no line-ending conversion: a base converted to CRLF conflicts with an LF change', () => {
    assert.equal(rebaseChange(base, changed, base.replace(/\n/g, '\r\n')), undefined);
  });

  test('conflicts give undefined', () => {
    assert.equal(rebaseChange(base, changed, base.replace('line 15\n', 'line 15 (disk)\n')), undefined, 'the same line');
    assert.equal(rebaseChange(base, changed, base.replace('line 16\n', 'line 16 (disk)\n')), undefined, 'inside the context');
    assert.equal(rebaseChange(base, changed, ''), undefined, 'the file was emptied');
    assert.equal(rebaseChange('', 'mine\n', 'theirs\n'), undefined, 'both created the file');
  });

  test('trivial cases: no change, or both made the same change', () => {
    assert.equal(rebaseChange(base, base, 'anything\n'), 'anything\n');
    assert.equal(rebaseChange(base, changed, changed), changed);
  });
});

describe('dirtyChoices', () => {
  test('merge only when the core takes edited content, in a fixed order', () => {
    assert.deepEqual(dirtyChoices(true), ['keep_mine', 'take_agents', 'merge']);
    assert.deepEqual(dirtyChoices(false), ['keep_mine', 'take_agents']);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeHunks, revertHunk } from './hunks';

const OLD = Array.from({ length: 40 }, (_, i) => `line ${i + 1}\n`).join('');
const NEW = OLD.replace('line 3\n', 'line three\n').replace('line 20\n', 'line twenty\nextra\n').replace('line 37\n', '');

describe('computeHunks', () => {
  test('splits distant changes into hunks with header-style numbers', () => {
    const hunks = computeHunks(OLD, NEW);
    assert.equal(hunks.length, 3);
    assert.deepEqual(
      hunks.map((h) => h.index),
      [0, 1, 2],
    );
    assert.deepEqual([hunks[0].oldStart, hunks[0].oldLines, hunks[0].newStart, hunks[0].newLines], [1, 6, 1, 6]);
    assert.deepEqual(hunks[1].lines, [
      ' line 17',
      ' line 18',
      ' line 19',
      '-line 20',
      '+line twenty',
      '+extra',
      ' line 21',
      ' line 22',
      ' line 23',
    ]);
  });

  test('identical texts have no hunks; an insertion into an empty file starts at 0', () => {
    assert.deepEqual(computeHunks('a\n', 'a\n'), []);
    const [hunk] = computeHunks('', 'a\n');
    assert.deepEqual([hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines], [0, 0, 1, 1]);
  });
});

describe('revertHunk', () => {
  test('reverting the middle hunk leaves only the first and last', () => {
    const reverted = revertHunk(OLD, NEW, 1);
    assert.equal(reverted, OLD.replace('line 3\n', 'line three\n').replace('line 37\n', ''));
    const remaining = computeHunks(OLD, reverted);
    assert.equal(remaining.length, 2);
    assert.deepEqual(remaining[0].lines, computeHunks(OLD, NEW)[0].lines);
    assert.ok(remaining[1].lines.includes('-line 37'));
  });

  test('reverting every hunk one by one gets back the old text', () => {
    let current = NEW;
    while (computeHunks(OLD, current).length > 0) current = revertHunk(OLD, current, 0);
    assert.equal(current, OLD);
  });

  test('keeps exact line endings and the final-newline state', () => {
    const before = 'a\r\nb\r\nc';
    const after = 'a\r\nB\r\nc\r\n';
    assert.equal(revertHunk(before, after, 0), before);
  });

  test('a deletion and a pure insertion revert exactly', () => {
    assert.equal(revertHunk('a\nb\nc\n', 'a\nc\n', 0), 'a\nb\nc\n');
    assert.equal(revertHunk('', 'new\n', 0), '');
  });

  test('throws for a hunk that does not exist', () => {
    assert.throws(() => revertHunk('a\n', 'b\n', 5), RangeError);
  });
});

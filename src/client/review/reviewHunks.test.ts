import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_EDIT_LINES, hunkAtLine, rejectHunk, rejectHunkEdit, reviewHunks, type ReviewHunk } from './reviewHunks';

/** [originalStart, originalCount, proposalStart, proposalCount, anchorLine] of each block. */
const shape = (hunks: ReviewHunk[]) => hunks.map((h) => [h.originalStart, h.originalCount, h.proposalStart, h.proposalCount, h.anchorLine]);

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

/** Asserts every block is consistent with both texts and that the texts agree outside the blocks. */
function assertConsistent(original: string, proposal: string, hunks: ReviewHunk[]): void {
  const a = original === '' ? [] : original.split(/(?<=\n)/);
  const b = proposal === '' ? [] : proposal.split(/(?<=\n)/);
  let i = 0;
  let j = 0;
  for (const [n, h] of hunks.entries()) {
    assert.equal(h.index, n);
    assert.equal(h.originalStart - i, h.proposalStart - j, 'equal runs between blocks have the same length');
    assert.deepEqual(a.slice(i, h.originalStart), b.slice(j, h.proposalStart), 'lines between blocks are common');
    assert.ok(h.originalCount + h.proposalCount > 0, 'a block changes something');
    if (n > 0) assert.ok(h.originalStart > i || h.proposalStart > j || n === 0, 'blocks are separated by a common line');
    i = h.originalStart + h.originalCount;
    j = h.proposalStart + h.proposalCount;
    const editorLines = proposal.split('\n').length;
    assert.ok(h.anchorLine >= 0 && h.anchorLine < editorLines, 'anchorLine is a valid editor line');
  }
  assert.deepEqual(a.slice(i), b.slice(j), 'the tails are common');
}

describe('reviewHunks', () => {
  test('identical texts have no blocks', () => {
    assert.deepEqual(reviewHunks('', ''), []);
    assert.deepEqual(reviewHunks('a\nb\n', 'a\nb\n'), []);
    assert.deepEqual(reviewHunks('a\r\nb', 'a\r\nb'), []);
  });

  test('an insertion in the middle: no original lines, the added lines in the proposal', () => {
    const original = 'a\nb\nc\n';
    const proposal = 'a\nb\nX\nY\nc\n';
    const hunks = reviewHunks(original, proposal);
    assert.deepEqual(shape(hunks), [[2, 0, 2, 2, 2]]);
    assertConsistent(original, proposal, hunks);
  });

  test('a deletion in the middle anchors on the line that now follows it', () => {
    const original = 'a\nb\nc\nd\n';
    const proposal = 'a\nd\n';
    const hunks = reviewHunks(original, proposal);
    assert.deepEqual(shape(hunks), [[1, 2, 1, 0, 1]]);
    assertConsistent(original, proposal, hunks);
  });

  test('a replacement is one block of removed + added lines', () => {
    const hunks = reviewHunks('a\nb\nc\nd\n', 'a\nB\nC\nC2\nd\n');
    assert.deepEqual(shape(hunks), [[1, 2, 1, 3, 1]]);
  });

  test('changes at the start of the file', () => {
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'Z\na\nb\n')), [[0, 0, 0, 1, 0]]);
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'b\n')), [[0, 1, 0, 0, 0]]);
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'A\nb\n')), [[0, 1, 0, 1, 0]]);
  });

  test('changes at the end of the file; a deletion at the end anchors on the empty last editor line', () => {
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'a\nb\nc\n')), [[2, 0, 2, 1, 2]]);
    // 'a\n' has two editor lines: "a" and the empty one after the break, where the deleted lines were.
    assert.deepEqual(shape(reviewHunks('a\nb\nc\n', 'a\n')), [[1, 2, 1, 0, 1]]);
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'a\nB\n')), [[1, 1, 1, 1, 1]]);
  });

  test('the last line without a line break: adding or removing the final break is a change of that line', () => {
    const appended = reviewHunks('a\nb', 'a\nb\nc');
    assert.deepEqual(shape(appended), [[1, 1, 1, 2, 1]]);
    assertConsistent('a\nb', 'a\nb\nc', appended);
    assert.deepEqual(shape(reviewHunks('a\nb', 'a\nb\n')), [[1, 1, 1, 1, 1]]);
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'a\nb')), [[1, 1, 1, 1, 1]]);
    assert.deepEqual(shape(reviewHunks('a\nb', 'a\nB')), [[1, 1, 1, 1, 1]]);
    // Deleting the last line of a file without a final break changes the line before it (it loses its break).
    assert.deepEqual(shape(reviewHunks('a\nb\nc', 'a\nb')), [[1, 2, 1, 1, 1]]);
  });

  test('CRLF: lines keep their breaks, so only the changed line is a block; a line-ending change is a change', () => {
    assert.deepEqual(shape(reviewHunks('a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n')), [[1, 1, 1, 1, 1]]);
    assert.deepEqual(shape(reviewHunks('a\r\nb\r\nc\r\n', 'a\r\nb\nc\r\n')), [[1, 1, 1, 1, 1]]);
    assert.deepEqual(shape(reviewHunks('a\nb\n', 'a\r\nb\r\n')), [[0, 2, 0, 2, 0]]);
  });

  test('a new file is one insertion of every line; emptying a file is one deletion anchored at line 0', () => {
    assert.deepEqual(shape(reviewHunks('', 'x\ny\n')), [[0, 0, 0, 2, 0]]);
    assert.deepEqual(shape(reviewHunks('', 'x')), [[0, 0, 0, 1, 0]]);
    assert.deepEqual(shape(reviewHunks('x\ny\n', '')), [[0, 2, 0, 0, 0]]);
  });

  test('three separated blocks, in order', () => {
    const original = lines(30);
    const proposal = original.replace('line 3\n', 'line three\n').replace('line 15\n', 'line 15\nextra\n').replace('line 28\n', '');
    const hunks = reviewHunks(original, proposal);
    assert.deepEqual(shape(hunks), [
      [2, 1, 2, 1, 2],
      [15, 0, 15, 1, 15],
      [27, 1, 28, 0, 28],
    ]);
    assert.deepEqual(
      hunks.map((h) => h.index),
      [0, 1, 2],
    );
    assert.equal(new Set(hunks.map((h) => h.key)).size, 3);
    assertConsistent(original, proposal, hunks);
  });

  test('identical blocks get distinct keys by occurrence; the content part is shared', () => {
    const hunks = reviewHunks('x\na\ny\na\nz\n', 'x\nb\ny\nb\nz\n');
    assert.equal(hunks.length, 2);
    assert.notEqual(hunks[0].key, hunks[1].key);
    assert.equal(hunks[0].key.replace(/-\d+$/, ''), hunks[1].key.replace(/-\d+$/, ''));
    assert.ok(hunks[0].key.endsWith('-0') && hunks[1].key.endsWith('-1'));
  });

  test('keys depend on the block, not on where it is: an edit elsewhere keeps them', () => {
    const original = lines(20);
    const proposal = original.replace('line 10\n', 'line ten\n');
    const [before] = reviewHunks(original, proposal);
    const [after] = reviewHunks(`header\n${original}`, `header\nnew header line\n${proposal}`).filter((h) => h.originalCount > 0);
    assert.equal(after.key, before.key);
    assert.notEqual(reviewHunks(original, original.replace('line 10\n', 'line TEN\n'))[0].key, before.key);
  });

  test('20,000 lines with 3 changed blocks: linear-ish, and correct', () => {
    const original = lines(20_000);
    const proposal = original
      .replace('line 100\n', 'line one hundred\n')
      .replace('line 10000\n', 'line 10000\ninserted a\ninserted b\n')
      .replace('line 19990\nline 19991\n', '');
    const hunks = reviewHunks(original, proposal);
    assert.deepEqual(shape(hunks), [
      [99, 1, 99, 1, 99],
      [10000, 0, 10000, 2, 10000],
      [19989, 2, 19991, 0, 19991],
    ]);
    let reverted = proposal;
    for (const hunk of [...hunks].reverse()) reverted = rejectHunk(original, reverted, hunk.key) as string;
    assert.equal(reverted, original);
  });

  test('a rewrite past the diff budget is one block; just under it, the blocks are still separate', () => {
    const original = lines(3_000, 'old');
    const rewritten = lines(3_000, 'new');
    assert.deepEqual(shape(reviewHunks(original, rewritten)), [[0, 3000, 0, 3000, 0]]);
    const half = MAX_EDIT_LINES / 2 - 1; // each replaced line costs 2 (a removal and an addition)
    const sparse = original
      .split(/(?<=\n)/)
      .map((line, i) => (i % 2 === 0 && i / 2 < half ? line.toUpperCase() : line))
      .join('');
    const hunks = reviewHunks(original, sparse);
    assert.equal(hunks.length, half);
    assertConsistent(original, sparse, hunks);
  });

  test('random edits: blocks are consistent and reverting every block gives the original back', () => {
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const vocabulary = ['a\n', 'b\n', 'c\n', 'a\r\n', 'd', '\n', 'é🙂\n'];
    const pick = () => vocabulary[random(vocabulary.length)];
    const withoutInnerUnterminated = (parts: string[]) => parts.map((p, k) => (k < parts.length - 1 && !p.endsWith('\n') ? `${p}\n` : p));
    for (let round = 0; round < 300; round++) {
      const originalParts = withoutInnerUnterminated(Array.from({ length: random(12) }, pick));
      const proposalParts = [...originalParts];
      for (let edits = random(4); edits > 0; edits--) {
        const at = random(proposalParts.length + 1);
        if (random(2) === 0) proposalParts.splice(at, random(3), ...Array.from({ length: random(3) }, pick));
        else proposalParts.splice(at, 1);
      }
      const original = originalParts.join('');
      const proposal = withoutInnerUnterminated(proposalParts).join('');
      const hunks = reviewHunks(original, proposal);
      assertConsistent(original, proposal, hunks);
      assert.equal(hunks.length === 0, original === proposal);
      let current = proposal;
      for (const hunk of [...hunks].reverse()) {
        const edit = rejectHunkEdit(original, current, hunk.key);
        assert.ok(edit, `block ${hunk.key} is found`);
        current = current.slice(0, edit.start) + edit.text + current.slice(edit.end);
      }
      assert.equal(current, original, JSON.stringify({ original, proposal }));
    }
  });
});

describe('rejectHunk / rejectHunkEdit', () => {
  const original = lines(30);
  const proposal = original.replace('line 3\n', 'line three\n').replace('line 15\n', 'line 15\nextra\n').replace('line 28\n', '');

  test('rejecting the middle of three blocks leaves exactly the first and the last, with the same keys', () => {
    const hunks = reviewHunks(original, proposal);
    const result = rejectHunk(original, proposal, hunks[1].key);
    assert.equal(result, original.replace('line 3\n', 'line three\n').replace('line 28\n', ''));
    const remaining = reviewHunks(original, result as string);
    assert.deepEqual(
      remaining.map((h) => h.key),
      [hunks[0].key, hunks[2].key],
    );
    assert.deepEqual(shape(remaining), [
      [2, 1, 2, 1, 2],
      [27, 1, 27, 0, 27],
    ]);
  });

  test('keys of the other blocks are stable when one is reverted, whichever it is', () => {
    const hunks = reviewHunks(original, proposal);
    for (const rejected of hunks) {
      const remaining = reviewHunks(original, rejectHunk(original, proposal, rejected.key) as string);
      assert.deepEqual(
        remaining.map((h) => h.key),
        hunks.filter((h) => h !== rejected).map((h) => h.key),
      );
    }
  });

  test('the edit replaces exactly the block’s proposal lines by its original lines (UTF-16 offsets)', () => {
    const before = 'α🙂\nb\r\nc\n';
    const after = 'α🙂\nB🙂\r\nc\n';
    const [hunk] = reviewHunks(before, after);
    const edit = rejectHunkEdit(before, after, hunk.key);
    assert.deepEqual(edit, { start: 4, end: 9, text: 'b\r\n' });
    assert.equal(after.slice(4, 9), 'B🙂\r\n');
    const edits = reviewHunks(original, proposal).map((h) => rejectHunkEdit(original, proposal, h.key));
    assert.deepEqual(edits, [
      { start: original.indexOf('line 3\n'), end: original.indexOf('line 3\n') + 'line three\n'.length, text: 'line 3\n' },
      { start: proposal.indexOf('extra\n'), end: proposal.indexOf('extra\n') + 6, text: '' },
      { start: proposal.indexOf('line 29\n'), end: proposal.indexOf('line 29\n'), text: 'line 28\n' },
    ]);
  });

  test('pure insertions and deletions, at the start and the end, revert exactly', () => {
    const cases: [string, string][] = [
      ['a\nb\nc\n', 'a\nc\n'],
      ['a\nb\nc\n', 'a\nb\nc\nd\n'],
      ['a\nb\nc\n', 'Z\na\nb\nc\n'],
      ['a\nb\nc\n', 'b\nc\n'],
      ['a\nb\nc\n', 'a\n'],
      ['a\nb\nc\n', ''],
    ];
    for (const [before, after] of cases) {
      const [hunk] = reviewHunks(before, after);
      assert.equal(rejectHunk(before, after, hunk.key), before, JSON.stringify([before, after]));
    }
  });

  test('the last line without a line break and CRLF files keep their exact bytes', () => {
    assert.equal(rejectHunk('a\nb', 'a\nb\nc', reviewHunks('a\nb', 'a\nb\nc')[0].key), 'a\nb');
    assert.equal(rejectHunk('a\nb\n', 'a\nb', reviewHunks('a\nb\n', 'a\nb')[0].key), 'a\nb\n');
    assert.equal(rejectHunk('a\r\nb\r\nc', 'a\r\nB\r\nc\r\n', reviewHunks('a\r\nb\r\nc', 'a\r\nB\r\nc\r\n')[0].key), 'a\r\nb\r\nc');
    const crlf = 'one\r\ntwo\r\nthree\r\nfour\r\n';
    const crlfProposal = 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\n';
    const [first, second] = reviewHunks(crlf, crlfProposal);
    assert.equal(rejectHunk(crlf, crlfProposal, first.key), 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n');
    assert.equal(rejectHunk(crlf, crlfProposal, second.key), 'one\r\nTWO\r\nthree\r\nfour\r\n');
  });

  test('a new file: rejecting its only block empties it', () => {
    const [hunk] = reviewHunks('', 'hello\nworld');
    assert.deepEqual(rejectHunkEdit('', 'hello\nworld', hunk.key), { start: 0, end: 11, text: '' });
    assert.equal(rejectHunk('', 'hello\nworld', hunk.key), '');
  });

  test('an unknown key gives undefined', () => {
    assert.equal(rejectHunkEdit(original, proposal, 'nope-0'), undefined);
    assert.equal(rejectHunk(original, proposal, 'nope-0'), undefined);
    assert.equal(rejectHunk(original, original, 'nope-0'), undefined);
  });
});

describe('hunkAtLine', () => {
  const original = lines(30);
  const proposal = original.replace('line 3\n', 'line three\nline 3b\n').replace('line 15\n', 'line 15\nextra\n').replace('line 28\n', '');
  const hunks = reviewHunks(original, proposal);

  test('the block covering the line', () => {
    assert.deepEqual(shape(hunks), [
      [2, 1, 2, 2, 2],
      [15, 0, 16, 1, 16],
      [27, 1, 29, 0, 29],
    ]);
    assert.equal(hunkAtLine(hunks, 2), hunks[0]);
    assert.equal(hunkAtLine(hunks, 3), hunks[0]);
    assert.equal(hunkAtLine(hunks, 16), hunks[1]);
    assert.equal(hunkAtLine(hunks, 29), hunks[2], 'a deletion covers its anchor line');
  });

  test('else the nearest block after the line, else undefined', () => {
    assert.equal(hunkAtLine(hunks, 0), hunks[0]);
    assert.equal(hunkAtLine(hunks, 4), hunks[1]);
    assert.equal(hunkAtLine(hunks, 17), hunks[2]);
    assert.equal(hunkAtLine(hunks, 30), undefined);
    assert.equal(hunkAtLine([], 0), undefined);
  });

  test('works on blocks in any order', () => {
    assert.equal(hunkAtLine([...hunks].reverse(), 4), hunks[1]);
  });
});

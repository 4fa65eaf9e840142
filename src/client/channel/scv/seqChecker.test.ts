import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SeqChecker } from './seqChecker';

describe('SeqChecker', () => {
  test('the first seq sets the base; consecutive ones pass silently', () => {
    const c = new SeqChecker();
    for (const seq of [7, 8, 9]) assert.deepEqual(c.check(seq), { drop: false });
  });

  test('a gap is logged once and the event kept; the count goes on from it', () => {
    const c = new SeqChecker();
    c.check(1);
    assert.deepEqual(c.check(4), { drop: false, log: 'SCV events lost: expected seq 2, got 4' });
    assert.deepEqual(c.check(5), { drop: false });
  });

  test('a seq at or below the last is a duplicate: dropped and logged', () => {
    const c = new SeqChecker();
    c.check(1);
    c.check(2);
    assert.deepEqual(c.check(2), { drop: true, log: 'SCV duplicate event dropped: seq 2 after 2' });
    assert.equal(c.check(1).drop, true);
    assert.deepEqual(c.check(3), { drop: false }, 'a duplicate does not move the count');
  });

  test('each skipped unknown event excuses one missing number, no more', () => {
    const c = new SeqChecker();
    c.check(1);
    c.excuseOne();
    assert.deepEqual(c.check(3), { drop: false });
    c.excuseOne();
    assert.match(c.check(6).log ?? '', /expected seq 4, got 6/);
  });

  test('an excuse is used up by the next checked event even without a gap', () => {
    const c = new SeqChecker();
    c.check(1);
    c.excuseOne();
    assert.deepEqual(c.check(2), { drop: false });
    assert.match(c.check(4).log ?? '', /expected seq 3, got 4/);
  });
});

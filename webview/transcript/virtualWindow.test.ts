import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeightIndex, anchorAt, bottomScrollTop, scrollTopOf, visibleRange } from './virtualWindow';

function index(heights: number[]): HeightIndex {
  const h = new HeightIndex();
  h.resize(heights.length, (i) => heights[i]);
  return h;
}

test('offsets are prefix sums of heights; total is their sum', () => {
  const h = index([10, 20, 30]);
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => h.offsetOf(i)),
    [0, 10, 30, 60],
  );
  assert.equal(h.total(), 60);
});

test('indexAt finds the item containing a position, clamped at both ends', () => {
  const h = index([10, 20, 30]);
  assert.equal(h.indexAt(-5), 0);
  assert.equal(h.indexAt(0), 0);
  assert.equal(h.indexAt(9.9), 0);
  assert.equal(h.indexAt(10), 1);
  assert.equal(h.indexAt(29), 1);
  assert.equal(h.indexAt(30), 2);
  assert.equal(h.indexAt(1000), 2);
  assert.equal(new HeightIndex().indexAt(5), 0);
});

test('measuring updates later offsets and reports the delta', () => {
  const h = index([10, 10, 10, 10]);
  assert.equal(h.isMeasured(1), false);
  assert.equal(h.setMeasured(1, 25), 15);
  assert.equal(h.isMeasured(1), true);
  assert.equal(h.offsetOf(2), 35);
  assert.equal(h.total(), 55);
  assert.equal(h.setMeasured(1, 25), 0);
});

test('resize keeps measured heights, estimates new items, and shrinks', () => {
  const h = index([10, 10]);
  h.setMeasured(0, 50);
  h.resize(4, () => 7);
  assert.equal(h.total(), 50 + 10 + 7 + 7);
  h.resize(1, () => 0);
  assert.equal(h.count, 1);
  assert.equal(h.total(), 50);
  h.reestimate(0, 12);
  assert.equal(h.isMeasured(0), false);
  assert.equal(h.total(), 12);
});

test('the visible range covers the viewport plus overscan, and only that (2,000 items)', () => {
  const h = index(Array.from({ length: 2000 }, () => 100));
  assert.deepEqual(visibleRange(h, 0, 500, 0), { start: 0, end: 6 });
  assert.deepEqual(visibleRange(h, 100_000, 500, 200), { start: 998, end: 1008 });
  const bottom = bottomScrollTop(h, 500);
  assert.equal(bottom, 199_500);
  assert.deepEqual(visibleRange(h, bottom, 500, 300), { start: 1992, end: 2000 });
  assert.deepEqual(visibleRange(new HeightIndex(), 0, 500, 300), { start: 0, end: 0 });
});

test('an anchor keeps the same content in view when items above it change height', () => {
  const h = index([100, 100, 100, 100, 100]);
  const anchor = anchorAt(h, 250);
  assert.deepEqual(anchor, { index: 2, offset: 50 });
  h.setMeasured(0, 300);
  h.setMeasured(1, 40);
  assert.equal(scrollTopOf(h, anchor), 300 + 40 + 50);
  h.setMeasured(2, 20);
  assert.equal(scrollTopOf(h, anchor), 300 + 40 + 20, 'offset is clamped to the item height');
  h.resize(1, () => 1);
  assert.equal(scrollTopOf(h, anchor), 50, 'an anchor past the end clamps to the last item');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameCoalescer } from './frameScheduler';

function fakeFrames() {
  const queue: (() => void)[] = [];
  return {
    request: (cb: () => void) => queue.push(cb),
    runFrame: () => queue.splice(0).forEach((cb) => cb()),
    get scheduled() {
      return queue.length;
    },
  };
}

test('many marks before a frame produce one flush with the merged value', () => {
  const frames = fakeFrames();
  const flushed: number[][] = [];
  const c = new FrameCoalescer<number[]>(
    frames.request,
    (a, b) => [...a, ...b],
    (v) => flushed.push(v),
  );
  for (let i = 0; i < 1000; i++) c.mark([i]);
  assert.equal(frames.scheduled, 1, 'one frame requested for 1,000 marks');
  assert.equal(c.hasPending, true);
  frames.runFrame();
  assert.equal(flushed.length, 1);
  assert.equal(flushed[0].length, 1000);
  assert.equal(c.hasPending, false);
});

test('a mark after the flush schedules the next frame; no mark, no frame', () => {
  const frames = fakeFrames();
  const flushed: string[] = [];
  const c = new FrameCoalescer<string>(
    frames.request,
    (a, b) => a + b,
    (v) => flushed.push(v),
  );
  c.mark('a');
  frames.runFrame();
  assert.equal(frames.scheduled, 0);
  c.mark('b');
  c.mark('c');
  frames.runFrame();
  frames.runFrame();
  assert.deepEqual(flushed, ['a', 'bc']);
});

test('a mark made during the flush lands in the next frame', () => {
  const frames = fakeFrames();
  const flushed: string[] = [];
  const c: FrameCoalescer<string> = new FrameCoalescer<string>(
    frames.request,
    (a, b) => a + b,
    (v) => {
      flushed.push(v);
      if (v === 'first') c.mark('again');
    },
  );
  c.mark('first');
  frames.runFrame();
  assert.deepEqual(flushed, ['first']);
  frames.runFrame();
  assert.deepEqual(flushed, ['first', 'again']);
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import type { Patch } from '../../shared/statePatch';
import type { HostToWebview, ViewContext } from '../../shared/webviewMessages';
import { PatchStream } from './patchStream';

const VIEW: ViewContext = { placement: 'sidebar', slashCommands: [] };
const append = (text: string): Patch => ({ op: 'append', index: 0, field: 'text', text });

/** A stream with a manual clock: `tick()` runs the pending frame timer. */
function harness() {
  const posted: HostToWebview[] = [];
  const timers: (() => void)[] = [];
  const stream = new PatchStream({
    post: (m) => posted.push(m),
    setTimer: (fn) => timers.push(fn) - 1,
    clearTimer: (h) => {
      timers[h as number] = () => {};
    },
  });
  const tick = () => timers.splice(0).forEach((fn) => fn());
  return { posted, stream, tick, timers };
}

describe('PatchStream', () => {
  test('drops patches until the first snapshot', () => {
    const h = harness();
    h.stream.push([append('a')]);
    h.tick();
    assert.deepEqual(h.posted, []);
  });

  test('batches the patches of one frame into one message, compacted', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    h.stream.push([append('a')]);
    h.stream.push([append('b'), { op: 'set', key: 'model', value: 'm' }]);
    h.stream.push([append('c')]);
    assert.equal(h.timers.length, 1, 'one timer per frame');
    assert.equal(h.posted.length, 1, 'nothing sent before the frame ends');
    h.tick();
    assert.deepEqual(h.posted[1], {
      type: 'patches',
      seq: 2,
      patches: [append('abc'), { op: 'set', key: 'model', value: 'm' }],
    });
  });

  test('a patch after a quiet window goes out at once; what follows within the window waits for its end', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    h.tick();
    assert.equal(h.posted.length, 1, 'the window after the snapshot ends with nothing to send');
    h.stream.push([append('a')]);
    assert.deepEqual(h.posted[1], { type: 'patches', seq: 2, patches: [append('a')] }, 'the leading patch waits for no timer');
    h.stream.push([append('b')]);
    h.stream.push([append('c')]);
    assert.equal(h.posted.length, 2, 'the next patches wait for the window to end');
    h.tick();
    assert.deepEqual(h.posted[2], { type: 'patches', seq: 3, patches: [append('bc')] });
    h.stream.push([append('d')]);
    assert.equal(h.posted.length, 3, 'a message just went out: a new window is open');
    h.tick();
    h.tick();
    h.stream.push([append('e')]);
    assert.deepEqual(
      h.posted.map((m) => m.type === 'patches' && m.patches),
      [false, [append('a')], [append('bc')], [append('d')], [append('e')]],
    );
  });

  // Eight children finishing together: each one's last delta leaves with its end, none waits for the window.
  test('a reply that stops streaming goes out at once with what is pending, inside a window too', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    const other: Patch = { op: 'append', index: 1, field: 'text', text: 'x' };
    const ended: Patch = { op: 'field', index: 0, field: 'streaming', value: false };
    h.stream.push([other]);
    h.stream.push([append('last')]);
    assert.equal(h.posted.length, 1, 'inside the snapshot window: the deltas wait');
    h.stream.push([ended]);
    assert.deepEqual(h.posted[1], { type: 'patches', seq: 2, patches: [other, append('last'), ended] });
    h.stream.push([{ op: 'field', index: 0, field: 'streaming', value: true }]);
    h.stream.push([{ op: 'field', index: 2, field: 'status', value: 'success' }]);
    assert.equal(h.posted.length, 2, 'any other field change waits for the window');
    h.tick();
    assert.equal(h.posted.length, 3);
  });

  test('sequence numbers are consecutive from the snapshot', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    for (const t of ['x', 'y', 'z']) {
      h.stream.push([append(t)]);
      h.tick();
    }
    assert.deepEqual(
      h.posted.map((m) => ('seq' in m ? m.seq : -1)),
      [1, 2, 3, 4],
    );
    assert.equal(h.stream.lastSeq, 4);
  });

  test('a resync snapshot discards pending patches and continues the sequence', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    h.stream.push([append('lost')]);
    h.stream.snapshot(initialSessionState(), VIEW);
    h.tick();
    assert.deepEqual(
      h.posted.map((m) => m.type),
      ['snapshot', 'snapshot'],
    );
    h.stream.push([append('kept')]);
    h.tick();
    assert.deepEqual(h.posted[2], { type: 'patches', seq: 3, patches: [append('kept')] });
  });

  test('flush sends at once; empty pushes and empty flushes send nothing', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    h.stream.push([]);
    h.stream.flush();
    assert.equal(h.posted.length, 1);
    h.stream.push([append('now')]);
    h.stream.flush();
    assert.equal(h.posted.length, 2);
    h.tick();
    assert.equal(h.posted.length, 2, 'the cancelled timer sends nothing more');
  });

  test('pause stops sending until the next snapshot', () => {
    const h = harness();
    h.stream.snapshot(initialSessionState(), VIEW);
    h.stream.push([append('a')]);
    h.stream.pause();
    h.tick();
    h.stream.push([append('b')]);
    h.tick();
    assert.equal(h.posted.length, 1);
  });

  test('uses a real timer by default', { timeout: 10_000 }, async () => {
    const posted: HostToWebview[] = [];
    let patchesPosted!: () => void;
    const patches = new Promise<void>((r) => (patchesPosted = r));
    const stream = new PatchStream({ post: (m) => (posted.push(m), m.type === 'patches' && patchesPosted()), intervalMs: 1 });
    stream.snapshot(initialSessionState(), VIEW);
    stream.push([append('a')]);
    assert.equal(posted.length, 1, 'the patch waits for the timer');
    await patches;
    assert.deepEqual(
      posted.map((m) => m.type),
      ['snapshot', 'patches'],
    );
  });
});

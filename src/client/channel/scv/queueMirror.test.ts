import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueMirror } from './queueMirror';

const e = (id: string, revision = 1, prompt = `p-${id}`) => ({ id, revision, prompt });

function ids(m: QueueMirror): string[] {
  return m.all().map((x) => x.id);
}

describe('QueueMirror', () => {
  test('a snapshot replaces everything, paused included', () => {
    const m = new QueueMirror();
    m.insert(e('old'), undefined);
    m.replace([e('a'), e('b', 3)], true);
    assert.deepEqual(m.view(), { entries: [e('a'), e('b', 3)], paused: true });
  });

  test('inserts at the index given, at the end when it is missing or out of range', () => {
    const m = new QueueMirror();
    m.insert(e('a'), 0);
    m.insert(e('c'), undefined);
    m.insert(e('b'), 1);
    m.insert(e('d'), 99);
    m.insert(e('z'), -1);
    assert.deepEqual(ids(m), ['a', 'b', 'c', 'd', 'z']);
  });

  test('an update replaces text and revision in place; unknown ids are reported', () => {
    const m = new QueueMirror();
    m.replace([e('a'), e('b')], false);
    assert.equal(m.update(e('a', 2, 'new')), true);
    assert.deepEqual(m.get('a'), e('a', 2, 'new'));
    assert.deepEqual(ids(m), ['a', 'b']);
    assert.equal(m.update(e('x')), false);
  });

  test('a move goes to the new index with the new revision', () => {
    const m = new QueueMirror();
    m.replace([e('a'), e('b'), e('c')], false);
    assert.equal(m.move('c', 0, 5), true);
    assert.deepEqual(ids(m), ['c', 'a', 'b']);
    assert.equal(m.get('c')?.revision, 5);
    assert.equal(m.move('c', 2, undefined), true);
    assert.deepEqual(ids(m), ['a', 'b', 'c']);
    assert.equal(m.get('c')?.revision, 5);
    assert.equal(m.move('nope', 0, 1), false);
  });

  test('remove returns the entry; clear empties but keeps paused', () => {
    const m = new QueueMirror();
    m.replace([e('a'), e('b')], true);
    assert.deepEqual(m.remove('a'), e('a'));
    assert.equal(m.remove('a'), undefined);
    m.clear();
    assert.deepEqual(m.view(), { entries: [], paused: true });
  });

  test('the view is a copy: changing it does not touch the mirror', () => {
    const m = new QueueMirror();
    m.replace([e('a')], false);
    const view = m.view();
    view.entries[0].prompt = 'changed';
    assert.equal(m.get('a')?.prompt, 'p-a');
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckpointEntry } from './checkpointEvents';
import { CheckpointList } from './checkpointList';

const entry = (id: string, createdAt: number, over: Partial<CheckpointEntry> = {}): CheckpointEntry => ({
  id,
  label: id,
  createdAt,
  auto: false,
  paths: [],
  skipped: [],
  ...over,
});

describe('CheckpointList', () => {
  test('setList reports a change only when something visible changed, and keeps comparisons of listed checkpoints', () => {
    const list = new CheckpointList();
    assert.equal(list.setList([entry('b', 2), entry('a', 1)]), true);
    assert.equal(list.setList([entry('b', 2), entry('a', 1)]), false);
    assert.equal(list.setChanges('a', [{ path: 'x', status: 'modified' }]), true);
    assert.equal(list.setChanges('a', [{ path: 'x', status: 'modified' }]), false, 'the same comparison again');
    assert.equal(list.setList([entry('c', 3), entry('b', 2), entry('a', 1, { label: 'renamed' })]), true);
    assert.deepEqual(list.changesOf('a'), [{ path: 'x', status: 'modified' }]);
    list.setList([entry('c', 3)]);
    assert.equal(list.changesOf('a'), undefined, 'dropped with its checkpoint');
    assert.equal(list.newest()?.id, 'c');
  });

  test('upsert inserts by time and merges into a listed checkpoint without losing its fields', () => {
    const list = new CheckpointList();
    list.setList([entry('c', 30), entry('a', 10)]);
    assert.equal(list.upsert(entry('b', 20)), true);
    assert.deepEqual(
      list.all.map((e) => e.id),
      ['c', 'b', 'a'],
    );
    assert.equal(list.upsert(entry('d', 40)), true);
    assert.equal(list.upsert({ id: 'e', label: 'no time', auto: true, paths: [], skipped: [] }), true);
    assert.deepEqual(
      list.all.map((e) => e.id),
      ['e', 'd', 'c', 'b', 'a'],
      'a checkpoint without a time is the newest',
    );
    assert.equal(list.upsert({ id: 'b', label: '', auto: false, paths: [], skipped: [], runId: 'run-1' }), true);
    assert.deepEqual(list.get('b'), entry('b', 20, { runId: 'run-1' }));
    assert.equal(list.upsert(entry('b', 20)), false, 'nothing new');
  });

  test('setChanges ignores unknown checkpoints; remove and forget', () => {
    const list = new CheckpointList();
    list.setList([entry('a', 1)]);
    assert.equal(list.setChanges('zz', []), false);
    assert.equal(list.changesOf('zz'), undefined);
    list.setChanges('a', []);
    assert.deepEqual(list.changesOf('a'), []);
    assert.equal(list.forgetChanges(), true);
    assert.equal(list.changesOf('a'), undefined);
    assert.equal(list.remove('a'), true);
    assert.equal(list.remove('a'), false);
    assert.equal(list.size, 0);
    assert.equal(list.clear(), false);
  });

  test('newestIds', () => {
    const list = new CheckpointList();
    list.setList([entry('c', 3), entry('b', 2), entry('a', 1)]);
    assert.deepEqual(list.newestIds(2), ['c', 'b']);
    assert.deepEqual(list.newestIds(0), []);
    assert.deepEqual(list.newestIds(-1), []);
  });
});

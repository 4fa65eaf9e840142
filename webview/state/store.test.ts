import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../../src/shared/sessionState';
import type { ViewContext } from '../../src/shared/webviewMessages';
import { SessionStore, emptyChange, mergeChanges } from './store';

const view: ViewContext = { placement: 'sidebar', slashCommands: [] };

function stateWith(texts: string[]): SessionState {
  const s = initialSessionState();
  s.items = texts.map((text, i) => ({ kind: 'assistant', id: `a${i}`, text, thinking: '', streaming: false }));
  return s;
}

test('patches before the first snapshot are ignored', () => {
  const store = new SessionStore();
  assert.deepEqual(store.applyPatches(1, [{ op: 'set', key: 'model', value: 'm' }]), { kind: 'ignored' });
});

test('a streamed batch that also bumps `revision` changes no top-level key the view shows', () => {
  const store = new SessionStore();
  store.applySnapshot(1, stateWith(['a']), view);
  const out = store.applyPatches(2, [
    { op: 'append', index: 0, field: 'text', text: 'b' },
    { op: 'set', key: 'revision', value: 7 },
  ]);
  assert.equal(out.kind, 'applied');
  if (out.kind !== 'applied') return;
  assert.deepEqual([...out.change.keys], []);
  assert.deepEqual([...out.change.items], [0]);
  assert.equal(store.state!.revision, 7);
});

test('consecutive patches apply and report touched items, set keys and length changes', () => {
  const store = new SessionStore();
  const reset = store.applySnapshot(5, stateWith(['a', 'b']), view);
  assert.equal(reset.reset, true);
  const out = store.applyPatches(6, [
    { op: 'append', index: 1, field: 'text', text: '!' },
    { op: 'set', key: 'model', value: 'gpt' },
  ]);
  assert.equal(out.kind, 'applied');
  if (out.kind !== 'applied') return;
  assert.deepEqual([...out.change.items], [1]);
  assert.deepEqual([...out.change.keys], ['model']);
  assert.equal(out.change.length, false);
  assert.equal((store.state!.items[1] as { text: string }).text, 'b!');
  const grow = store.applyPatches(7, [{ op: 'item', index: 2, item: { kind: 'user', id: 'u', text: 'hi', images: 0 } }]);
  assert.ok(grow.kind === 'applied' && grow.change.length && grow.change.items.has(2));
});

test('a truncate drops touched indexes past the new end', () => {
  const store = new SessionStore();
  store.applySnapshot(0, stateWith(['a', 'b', 'c']), view);
  const out = store.applyPatches(1, [
    { op: 'append', index: 2, field: 'text', text: 'x' },
    { op: 'truncate', length: 1 },
  ]);
  assert.ok(out.kind === 'applied');
  if (out.kind !== 'applied') return;
  assert.deepEqual([...out.change.items], []);
  assert.equal(out.change.length, true);
  assert.equal(store.state!.items.length, 1);
});

test('duplicates are ignored; a gap asks for a resync and everything is ignored until the next snapshot', () => {
  const store = new SessionStore();
  store.applySnapshot(10, stateWith(['a']), view);
  assert.deepEqual(store.applyPatches(10, []), { kind: 'ignored' });
  assert.deepEqual(store.applyPatches(12, []), { kind: 'gap', lastSeq: 10 });
  assert.deepEqual(store.applyPatches(11, [{ op: 'append', index: 0, field: 'text', text: 'x' }]), { kind: 'ignored' });
  assert.equal((store.state!.items[0] as { text: string }).text, 'a');
  store.applySnapshot(20, stateWith(['fresh']), view);
  assert.equal(store.applyPatches(21, []).kind, 'applied');
});

test('mergeChanges unions everything', () => {
  const a = emptyChange();
  a.items.add(1);
  a.keys.add('run');
  const b = { reset: false, items: new Set([2]), keys: new Set(['model' as const]), length: true };
  const m = mergeChanges(a, b);
  assert.deepEqual([...m.items].sort(), [1, 2]);
  assert.deepEqual([...m.keys].sort(), ['model', 'run']);
  assert.equal(m.length, true);
  assert.equal(m.reset, false);
});

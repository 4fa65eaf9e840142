import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryEntries } from './memoryEntries';

test("our entries and upstream's file-backed ones both read as id, text, scope and tags", () => {
  assert.deepEqual(
    memoryEntries([
      { id: 'use-pnpm-1a2b3c', text: 'use pnpm', tags: ['tooling'], scope: 'workspace', created_at: 1 },
      { id: 'style', name: 'style', description: 'Code style', content: 'tabs, not spaces\n', scope: 'global', type: 'user' },
    ]),
    [
      { id: 'use-pnpm-1a2b3c', text: 'use pnpm', tags: ['tooling'], scope: 'workspace' },
      { id: 'style', text: 'tabs, not spaces', tags: [], scope: 'global' },
    ],
  );
});

test('entries without an id or any text, and a list that is not one, give nothing', () => {
  assert.deepEqual(memoryEntries([{ text: 'no id' }, { id: 'x' }, null, 'y', { id: 3, text: 't' }]), []);
  assert.deepEqual(memoryEntries(undefined), []);
  assert.deepEqual(memoryEntries({ id: 'a', text: 'b' }), []);
});

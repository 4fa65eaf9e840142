import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from './memoryStore';

test('memories are saved per scope, listed together and forgotten by id', () => {
  const root = mkdtempSync(join(tmpdir(), 'mem-'));
  try {
    const store = new MemoryStore({ workspace: join(root, 'ws'), global: join(root, 'home') });
    const a = store.save('User prefers async Rust patterns', ['rust']);
    const b = store.save('Always answer in English', [], 'global');
    assert.match(a.id, /^user-prefers-async-rust-patterns-[0-9a-f]{6}$/);
    assert.deepEqual(
      store.list().map((m) => [m.text, m.scope]),
      [
        ['User prefers async Rust patterns', 'workspace'],
        ['Always answer in English', 'global'],
      ],
    );
    assert.equal(store.forget(a.id, 'global'), false);
    assert.equal(store.forget(a.id), true);
    assert.equal(store.forget('../escape'), false);
    assert.deepEqual(
      store.list().map((m) => m.id),
      [b.id],
    );
    assert.throws(() => store.save('   '), /empty/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointManager } from './checkpointManager';
import { exists, read, writeTree } from './gitTestSupport';

let ws: string;
beforeEach(() => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cp-files-'));
});
afterEach(() => {
  fs.rmSync(ws, { recursive: true, force: true });
});

function manager(maxFileBytes?: number): CheckpointManager {
  const store = path.join(ws, '.catalyst-code', 'checkpoints');
  return new CheckpointManager({ workspace: ws, indexPath: path.join(store, 'index.jsonl'), filesStoreDir: store, maxFileBytes });
}

describe('CheckpointManager (files, no git)', () => {
  test('restore brings back contents and modes, removes new files, and skips tool directories', async () => {
    writeTree(ws, {
      'a.txt': 'alpha\n',
      'dir/b.txt': 'beta\n',
      'del.txt': 'to delete\n',
      'manifest.json': '{"name":"a workspace file that must not collide"}\n',
      'run.sh': '#!/bin/sh\n',
      'node_modules/pkg/index.js': 'dependency\n',
    });
    fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
    const cm = manager();
    const cp = await cm.create({ auto: true, label: 'auto-before-destructive', runId: 'run-7' });
    assert.equal(cp.kind, 'files');
    assert.equal(cp.dir, path.join(ws, '.catalyst-code', 'checkpoints', cp.id));
    assert.equal(cp.run_id, 'run-7');
    assert.equal(cp.head_sha, '');
    const manifest = JSON.parse(fs.readFileSync(path.join(cp.dir, 'manifest.json'), 'utf8'));
    assert.deepEqual(manifest.paths.sort(), ['a.txt', 'del.txt', 'dir/b.txt', 'manifest.json', 'run.sh']);

    writeTree(ws, {
      'a.txt': 'changed\n',
      'del.txt': null,
      'manifest.json': 'changed too\n',
      'new.txt': 'new\n',
      'dir/new/deep.txt': 'new\n',
      'node_modules/pkg/index.js': 'updated dependency\n',
      'node_modules/added.js': 'x\n',
    });
    fs.chmodSync(path.join(ws, 'run.sh'), 0o644);

    const result = await cm.restore(cp.id);
    assert.deepEqual(result.restored.sort(), ['a.txt', 'del.txt', 'manifest.json', 'run.sh']);
    assert.deepEqual(result.removed.sort(), ['dir/new/deep.txt', 'new.txt']);
    assert.equal(read(ws, 'a.txt'), 'alpha\n');
    assert.equal(read(ws, 'del.txt'), 'to delete\n');
    assert.equal(read(ws, 'manifest.json'), '{"name":"a workspace file that must not collide"}\n');
    assert.equal(fs.statSync(path.join(ws, 'run.sh')).mode & 0o777, 0o755);
    assert.equal(exists(ws, 'new.txt'), false);
    assert.equal(exists(ws, 'dir/new'), false, 'directories left empty are removed');
    assert.equal(read(ws, 'dir/b.txt'), 'beta\n');
    assert.equal(read(ws, 'node_modules/pkg/index.js'), 'updated dependency\n', 'skipped directories are not touched');
    assert.equal(exists(ws, 'node_modules/added.js'), true);
    assert.deepEqual(cm.list().map((r) => r.id), [cp.id]);
    assert.deepEqual(fs.readdirSync(path.join(ws, '.catalyst-code', 'checkpoints')).sort(), ['.gitignore', cp.id, 'index.jsonl'], 'no scratch left; the store ignores itself in git');

    assert.deepEqual(await cm.restore(cp.id), { restored: [], removed: [] }, 'restorable again; nothing to do now');
  });

  test('changedFiles and readFileAt', async () => {
    writeTree(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const cm = manager();
    const cp = await cm.create({ auto: false });
    writeTree(ws, { 'a.txt': 'a2\n', 'b.txt': null, 'd.txt': 'd\n' });
    assert.deepEqual(await cm.changedFiles(cp.id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'b.txt', status: 'deleted' },
      { path: 'd.txt', status: 'added' },
    ]);
    assert.equal((await cm.readFileAt(cp.id, 'a.txt'))?.toString(), 'a\n');
    assert.equal(await cm.readFileAt(cp.id, 'd.txt'), null);
    await cm.restoreFile(cp.id, 'b.txt');
    await cm.restoreFile(cp.id, 'd.txt');
    assert.equal(read(ws, 'b.txt'), 'b\n');
    assert.equal(exists(ws, 'd.txt'), false);
    assert.equal(read(ws, 'a.txt'), 'a2\n');
  });

  test('a paths-only snapshot restores just those paths and removes ones that did not exist', async () => {
    writeTree(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'src/x.ts': 'x\n' });
    const cm = manager();
    const cp = await cm.create({ auto: true, paths: ['a.txt', path.join(ws, 'src'), 'later.txt'] });
    assert.deepEqual(cp.paths, ['a.txt', 'src', 'later.txt']);
    const manifest = JSON.parse(fs.readFileSync(path.join(cp.dir, 'manifest.json'), 'utf8'));
    assert.deepEqual(manifest.paths, ['a.txt', 'src/x.ts']);
    writeTree(ws, { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'src/x.ts': 'x2\n', 'src/y.ts': 'y\n', 'later.txt': 'l\n' });
    const result = await cm.restore(cp.id);
    assert.deepEqual(result, { restored: ['a.txt', 'src/x.ts'], removed: ['later.txt', 'src/y.ts'] });
    assert.equal(read(ws, 'b.txt'), 'b2\n');
    await assert.rejects(cm.create({ auto: false, paths: ['../outside.txt'] }), /outside the workspace/);
  });

  test('files above the size limit are skipped and never deleted', async () => {
    writeTree(ws, { 'small.txt': 's\n', 'big.bin': 'x'.repeat(2000) });
    const cm = manager(1000);
    const cp = await cm.create({ auto: false });
    assert.equal(exists(cp.dir, 'files/big.bin'), false);
    assert.equal(await cm.readFileAt(cp.id, 'big.bin'), null);
    writeTree(ws, { 'big.bin': 'y'.repeat(3000), 'small.txt': 's2\n' });
    assert.deepEqual(await cm.restore(cp.id), { restored: ['small.txt'], removed: [] });
    assert.equal(read(ws, 'big.bin'), 'y'.repeat(3000));
  });

  test('delete removes the snapshot directory and the record', async () => {
    writeTree(ws, { 'a.txt': 'a\n' });
    const cm = manager();
    const cp = await cm.create({ auto: false });
    await cm.delete(cp.id);
    assert.equal(fs.existsSync(cp.dir), false);
    assert.deepEqual(cm.list(), []);
    await assert.rejects(cm.readFileAt(cp.id, 'a.txt'), /not found/);
  });

  test('operations run one at a time', async () => {
    writeTree(ws, { 'a.txt': 'a\n' });
    const cm = manager();
    const [one, two] = await Promise.all([cm.create({ auto: false, label: 'one' }), cm.create({ auto: false, label: 'two' })]);
    writeTree(ws, { 'a.txt': 'changed\n' });
    const [r1, r2] = await Promise.all([cm.restore(one.id), cm.restore(two.id)]);
    assert.deepEqual(r1.restored, ['a.txt']);
    assert.deepEqual(r2.restored, [], 'the second restore sees the first one done');
    assert.deepEqual(cm.list().map((r) => r.label), ['one', 'two']);
  });
});

import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointIndex } from './checkpointIndex';
import { CheckpointManager } from './checkpointManager';
import { createFilesSnapshot } from './filesBackend';
import { exists, isolateGitConfig, read, writeTree } from '../../../test/support/gitTestSupport';

let restoreGitConfig: () => void;
before(() => {
  restoreGitConfig = isolateGitConfig();
});
after(() => restoreGitConfig());

let tmp: string;
let ws: string;
let dataDir: string;
let managers: CheckpointManager[];
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cp-files-'));
  ws = path.join(tmp, 'ws');
  dataDir = path.join(tmp, 'data');
  fs.mkdirSync(ws);
  managers = [];
});
afterEach(async () => {
  // A create or deleteAll leaves a `git gc` running in the shadow store: removing the store under it fails (ENOTEMPTY).
  await Promise.all(managers.map((m) => m.idle()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const storeDir = () => path.join(ws, '.catalyst-code', 'checkpoints');
const shadowGit = (...args: string[]) =>
  execFileSync('git', args, { env: { ...process.env, GIT_DIR: path.join(dataDir, 'shadow.git') }, encoding: 'utf8' });

function manager(maxFileBytes?: number): CheckpointManager {
  const cm = new CheckpointManager({
    workspace: ws,
    indexPath: path.join(tmp, 'session.checkpoints.jsonl'),
    filesStoreDir: storeDir(),
    dataDir,
    maxFileBytes,
  });
  managers.push(cm);
  return cm;
}

/** Sizes of every file of the shadow repository's object store. */
function objectBytes(): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else total += fs.statSync(p).size;
    }
  };
  walk(path.join(dataDir, 'shadow.git', 'objects'));
  return total;
}

describe('CheckpointManager (no git: the shadow repository)', () => {
  test('restore brings back contents and modes, removes new files, and leaves build outputs and ignored files alone', async () => {
    writeTree(ws, {
      'a.txt': 'alpha\n',
      'dir/b.txt': 'beta\n',
      'del.txt': 'to delete\n',
      'manifest.json': '{"name":"a workspace file that must not collide"}\n',
      'run.sh': '#!/bin/sh\n',
      '.gitignore': '*.log\n',
      'keep.log': 'ignored\n',
      'node_modules/pkg/index.js': 'dependency\n',
      'dist/out.js': 'build output\n',
    });
    fs.chmodSync(path.join(ws, 'run.sh'), 0o755);
    const cm = manager();
    const cp = await cm.create({ auto: true, label: 'auto-before-destructive', runId: 'run-7' });
    assert.equal(cp.kind, 'files');
    assert.equal(cp.store, 'shadow');
    assert.equal(cp.dir, path.join(dataDir, 'shadow.git'));
    assert.equal(cp.run_id, 'run-7');
    assert.equal(cp.head_sha, '');
    assert.match(cp.stash_sha, /^[0-9a-f]{40}$/);
    assert.equal(shadowGit('rev-parse', `refs/catcode/checkpoints/${cp.id}`).trim(), cp.stash_sha);
    assert.deepEqual(shadowGit('ls-tree', '-r', '--name-only', cp.stash_sha).trim().split('\n').sort(), [
      '.gitignore',
      'a.txt',
      'del.txt',
      'dir/b.txt',
      'manifest.json',
      'run.sh',
    ]);
    assert.equal(exists(ws, '.git'), false, 'nothing git-like appears in the workspace');
    assert.throws(
      () =>
        execFileSync('git', ['rev-parse', '--git-dir'], { cwd: ws, stdio: 'pipe', env: { ...process.env, GIT_CEILING_DIRECTORIES: tmp } }),
      'the workspace is still not a repository',
    );

    writeTree(ws, {
      'a.txt': 'changed\n',
      'del.txt': null,
      'manifest.json': 'changed too\n',
      'new.txt': 'new\n',
      'dir/new/deep.txt': 'new\n',
      'keep.log': 'ignored, changed\n',
      'new.log': 'ignored, new\n',
      'node_modules/pkg/index.js': 'updated dependency\n',
      'node_modules/added.js': 'x\n',
      'dist/more.js': 'y\n',
    });
    fs.chmodSync(path.join(ws, 'run.sh'), 0o644);

    const result = await cm.restore(cp.id);
    assert.deepEqual(result.restored.sort(), ['a.txt', 'del.txt', 'manifest.json', 'run.sh']);
    assert.deepEqual(result.removed.sort(), ['dir/new/deep.txt', 'new.txt']);
    assert.equal(read(ws, 'a.txt'), 'alpha\n');
    assert.equal(read(ws, 'del.txt'), 'to delete\n');
    assert.equal(read(ws, 'manifest.json'), '{"name":"a workspace file that must not collide"}\n');
    assert.equal(fs.statSync(path.join(ws, 'run.sh')).mode & 0o111, 0o111);
    assert.equal(exists(ws, 'new.txt'), false);
    assert.equal(exists(ws, 'dir/new'), false, 'directories left empty are removed');
    assert.equal(read(ws, 'dir/b.txt'), 'beta\n');
    assert.equal(read(ws, 'keep.log'), 'ignored, changed\n', 'ignored files are never touched');
    assert.equal(read(ws, 'new.log'), 'ignored, new\n');
    assert.equal(read(ws, 'node_modules/pkg/index.js'), 'updated dependency\n', 'build outputs are never touched');
    assert.equal(exists(ws, 'node_modules/added.js'), true);
    assert.equal(exists(ws, 'dist/more.js'), true);
    assert.equal(exists(ws, '.catalyst-code'), false, 'nothing is written into the workspace');
    assert.deepEqual(
      cm.list().map((r) => r.id),
      [cp.id],
    );

    assert.deepEqual(await cm.restore(cp.id), { restored: [], removed: [] }, 'restorable again; nothing to do now');
  });

  test('changedFiles, readFileAt and restoring single paths', async () => {
    writeTree(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const cm = manager();
    const cp = await cm.create({ auto: false });
    assert.deepEqual(await cm.changedFiles(cp.id), []);
    writeTree(ws, { 'a.txt': 'a2\n', 'b.txt': null, 'd.txt': 'd\n' });
    assert.deepEqual(await cm.changedFiles(cp.id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'b.txt', status: 'deleted' },
      { path: 'd.txt', status: 'added' },
    ]);
    assert.equal((await cm.readFileAt(cp.id, 'a.txt'))?.toString(), 'a\n');
    assert.equal(await cm.readFileAt(cp.id, 'd.txt'), null);
    assert.deepEqual(await cm.restore(cp.id, ['b.txt', 'd.txt']), { restored: ['b.txt'], removed: ['d.txt'] });
    assert.equal(read(ws, 'b.txt'), 'b\n');
    assert.equal(exists(ws, 'd.txt'), false);
    assert.equal(read(ws, 'a.txt'), 'a2\n');
  });

  test('changedFiles answers a burst of requests, and a later request sees edits made before it', async () => {
    writeTree(ws, { 'a.txt': 'a\n' });
    const cm = manager();
    const one = await cm.create({ auto: false, label: 'one' });
    const two = await cm.create({ auto: false, label: 'two' });
    assert.deepEqual(await Promise.all([cm.changedFiles(one.id), cm.changedFiles(two.id)]), [[], []]);
    writeTree(ws, { 'a.txt': 'edited\n' });
    assert.deepEqual(await cm.changedFiles(two.id), [{ path: 'a.txt', status: 'modified' }]);
  });

  test('a paths-only snapshot restores just those paths and removes ones that did not exist', async () => {
    writeTree(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'src/x.ts': 'x\n' });
    const cm = manager();
    const cp = await cm.create({ auto: true, paths: ['a.txt', path.join(ws, 'src'), 'later.txt'] });
    assert.deepEqual(cp.paths, ['a.txt', 'src', 'later.txt']);
    assert.deepEqual(shadowGit('ls-tree', '-r', '--name-only', cp.stash_sha).trim().split('\n'), ['a.txt', 'src/x.ts']);
    writeTree(ws, { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'src/x.ts': 'x2\n', 'src/y.ts': 'y\n', 'later.txt': 'l\n' });
    const result = await cm.restore(cp.id);
    assert.deepEqual(result, { restored: ['a.txt', 'src/x.ts'], removed: ['later.txt', 'src/y.ts'] });
    assert.equal(read(ws, 'b.txt'), 'b2\n');
    await assert.rejects(cm.create({ auto: false, paths: ['../outside.txt'] }), /outside the workspace/);
  });

  test('files above the size limit are skipped, recorded, and never overwritten or deleted', async () => {
    writeTree(ws, { 'small.txt': 's\n', 'big.bin': 'x'.repeat(2000) });
    const cm = manager(1000);
    const cp = await cm.create({ auto: false });
    assert.deepEqual(cp.skipped, ['big.bin']);
    assert.equal(cp.max_file_bytes, 1000);
    assert.equal(await cm.readFileAt(cp.id, 'big.bin'), null);
    writeTree(ws, { 'big.bin': 'y'.repeat(3000), 'small.txt': 's2\n' });
    assert.deepEqual(await cm.restore(cp.id), { restored: ['small.txt'], removed: [] });
    assert.equal(read(ws, 'big.bin'), 'y'.repeat(3000));
    writeTree(ws, { 'big.bin': 'now small\n' });
    assert.deepEqual(await cm.changedFiles(cp.id), [], 'a file skipped for its size is not "added" once it shrinks');
    assert.deepEqual(await cm.restore(cp.id), { restored: [], removed: [] });
    assert.equal(read(ws, 'big.bin'), 'now small\n');
  });

  test('a file older than the checkpoint that it did not capture is never removed', async () => {
    writeTree(ws, { '.gitignore': 'secret.txt\n', 'secret.txt': 'ignored at checkpoint time\n', 'a.txt': 'a\n' });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(ws, 'secret.txt'), old, old);
    const cm = manager();
    const cp = await cm.create({ auto: false });
    writeTree(ws, { '.gitignore': '' }); // the rule goes away: secret.txt is now snapshot material
    assert.deepEqual(await cm.changedFiles(cp.id), [{ path: '.gitignore', status: 'modified' }]);
    await cm.restore(cp.id);
    assert.equal(read(ws, 'secret.txt'), 'ignored at checkpoint time\n');
    assert.equal(read(ws, '.gitignore'), 'secret.txt\n');
  });

  test('a second checkpoint of an unchanged tree stores only a commit; delete removes the ref and the record', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`src/m${i % 10}/f${i}.txt`] = `file ${i}\n`.repeat(20);
    writeTree(ws, files);
    const cm = manager();
    const first = await cm.create({ auto: false, label: 'one' });
    await cm.idle();
    const before = objectBytes();
    const second = await cm.create({ auto: false, label: 'two' });
    await cm.idle();
    assert.equal(shadowGit('rev-parse', `${first.stash_sha}^{tree}`), shadowGit('rev-parse', `${second.stash_sha}^{tree}`));
    assert.ok(objectBytes() - before < 2048, `grew by ${objectBytes() - before} bytes`);

    await cm.delete(first.id);
    assert.equal(
      shadowGit('for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/').trim(),
      `refs/catcode/checkpoints/${second.id}`,
    );
    assert.deepEqual(
      cm.list().map((r) => r.label),
      ['two'],
    );
    await assert.rejects(cm.readFileAt(first.id, 'a.txt'), /not found/);
    assert.equal(await cm.deleteAll(), 1);
    assert.equal(shadowGit('for-each-ref', 'refs/catcode/checkpoints/').trim(), '');
  });

  test('the stat cache sees an edit that keeps the size and puts the old mtime back', async () => {
    writeTree(ws, { 'a.txt': 'aaaa\n', 'b.txt': 'b\n' });
    const old = new Date(Date.now() - 60_000);
    for (const f of ['a.txt', 'b.txt']) fs.utimesSync(path.join(ws, f), old, old);
    const cm = manager();
    const first = await cm.create({ auto: false });
    await cm.create({ auto: false }); // a second whole snapshot: the stat cache now trusts both files
    await new Promise((r) => setTimeout(r, 1100 - (Date.now() % 1000))); // git compares ctime to the second
    writeTree(ws, { 'a.txt': 'bbbb\n' });
    fs.utimesSync(path.join(ws, 'a.txt'), old, old); // same size and mtime; only ctime tells
    const third = await cm.create({ auto: false });
    assert.equal(shadowGit('show', `${third.stash_sha}:a.txt`), 'bbbb\n');
    assert.deepEqual(await cm.changedFiles(first.id), [{ path: 'a.txt', status: 'modified' }]);
  });

  test('operations run one at a time', async () => {
    writeTree(ws, { 'a.txt': 'a\n' });
    const cm = manager();
    const [one, two] = await Promise.all([cm.create({ auto: false, label: 'one' }), cm.create({ auto: false, label: 'two' })]);
    writeTree(ws, { 'a.txt': 'changed\n' });
    const [r1, r2] = await Promise.all([cm.restore(one.id), cm.restore(two.id)]);
    assert.deepEqual(r1.restored, ['a.txt']);
    assert.deepEqual(r2.restored, [], 'the second restore sees the first one done');
    assert.deepEqual(
      cm.list().map((r) => r.label),
      ['one', 'two'],
    );
  });

  test('an aborted create records nothing', async () => {
    writeTree(ws, { 'a.txt': 'a\n' });
    const cm = manager();
    const controller = new AbortController();
    controller.abort(new Error('budget'));
    await assert.rejects(cm.create({ auto: true, signal: controller.signal }), /budget/);
    assert.deepEqual(cm.list(), []);
  });

  test('checkpoints of the earlier files backend (file copies) are still listed, read, restored and deleted', async () => {
    writeTree(ws, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const id = 'cp-1700000000-00000000000000aa';
    const dir = path.join(storeDir(), id);
    createFilesSnapshot({ workspace: ws, scopes: [], excluded: ['.catalyst-code'], maxFileBytes: 1000 }, dir);
    new CheckpointIndex(path.join(tmp, 'session.checkpoints.jsonl')).append({
      id,
      label: 'old',
      created_at: 1_700_000_000,
      kind: 'files',
      head_sha: '',
      stash_sha: '',
      paths: [],
      dir,
      auto: true,
    });
    const cm = manager();
    assert.deepEqual(
      cm.list().map((r) => r.id),
      [id],
    );
    writeTree(ws, { 'a.txt': 'a2\n', 'n.txt': 'n\n' });
    assert.equal((await cm.readFileAt(id, 'a.txt'))?.toString(), 'a\n');
    assert.deepEqual(await cm.changedFiles(id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'n.txt', status: 'added' },
    ]);
    assert.deepEqual(await cm.restore(id), { restored: ['a.txt'], removed: ['n.txt'] });
    await cm.delete(id);
    assert.equal(fs.existsSync(dir), false);
  });
});

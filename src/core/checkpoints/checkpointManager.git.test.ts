import { after, before, beforeEach, afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointManager } from './checkpointManager';
import { exists, git, initRepo, isolateGitConfig, read, writeTree } from '../../../test/support/gitTestSupport';

let restoreGitConfig: () => void;
before(() => {
  restoreGitConfig = isolateGitConfig();
});
after(() => restoreGitConfig());

let tmp: string;
let repo: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cp-git-'));
  repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  initRepo(repo);
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** By default the index sits beside a session file, outside the repository, as in normal use. */
function manager(workspace = repo, opts: { maxFileBytes?: number; indexInWorkspace?: boolean } = {}): CheckpointManager {
  const store = path.join(workspace, '.catalyst-code', 'checkpoints');
  return new CheckpointManager({
    workspace,
    indexPath: opts.indexInWorkspace ? path.join(store, 'index.jsonl') : path.join(tmp, 'session.checkpoints.jsonl'),
    filesStoreDir: store,
    dataDir: path.join(tmp, 'data'),
    maxFileBytes: opts.maxFileBytes,
  });
}

function commitAll(message = 'init'): void {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** Everything about the repository's state that a checkpoint must leave alone. */
function repoState() {
  return {
    index: fs.readFileSync(path.join(repo, '.git', 'index')),
    status: git(repo, 'status', '--porcelain', '--untracked-files=all'),
    stash: git(repo, 'stash', 'list'),
    branches: git(repo, 'branch', '-a', '-v'),
    head: git(repo, 'rev-parse', 'HEAD'),
    symbolicHead: git(repo, 'symbolic-ref', 'HEAD'),
  };
}

/** Reads the index bytes before `git status` can refresh it. */
function indexBytes(): Buffer {
  return fs.readFileSync(path.join(repo, '.git', 'index'));
}

function setUpProject(): void {
  writeTree(repo, {
    '.gitignore': '*.log\nbuild/\n',
    'a.txt': 'alpha\n',
    'dir/b.txt': 'beta\n',
    'del.txt': 'to be deleted\n',
    'run.sh': '#!/bin/sh\necho hi\n',
  });
  fs.chmodSync(path.join(repo, 'run.sh'), 0o755);
  commitAll();
  writeTree(repo, {
    'a.txt': 'alpha, edited but uncommitted\n',
    'untracked.txt': 'untracked before the checkpoint\n',
    'keep.log': 'ignored before\n',
    'build/out.js': 'ignored build output\n',
  });
  git(repo, 'add', 'a.txt'); // a staged change: the user's index differs from HEAD
  git(repo, 'status', '--porcelain'); // let git refresh its index once, so later reads are stable
}

describe('CheckpointManager (git)', () => {
  test('restore brings back exact contents, removes new files, and leaves ignored files and git state alone', async () => {
    setUpProject();
    const before = repoState();
    const cm = manager();
    const cp = await cm.create({ label: 'before edits', auto: true, runId: 'run-1' });

    assert.equal(cp.kind, 'git');
    assert.match(cp.id, /^cp-\d+-[0-9a-f]{16}$/);
    assert.equal(cp.head_sha, before.head.trim());
    assert.equal(git(repo, 'rev-parse', `refs/catcode/checkpoints/${cp.id}`).trim(), cp.stash_sha);
    assert.equal(git(repo, 'log', '-1', '--format=%s|%an|%P', cp.stash_sha).trim(), `before edits|Catalyst Code|${cp.head_sha}`);
    assert.deepEqual(indexBytes(), before.index, 'create must not touch the index');
    assert.deepEqual(repoState(), before, 'create must not change status, stash, branches or HEAD');

    writeTree(repo, {
      'a.txt': 'model rewrote this\n',
      'dir/b.txt': null,
      'del.txt': null,
      'untracked.txt': 'changed too\n',
      'new.txt': 'created after\n',
      'newdir/deep/x.txt': 'created after\n',
      'keep.log': 'ignored, changed after\n',
      'new.log': 'ignored, created after\n',
    });
    fs.chmodSync(path.join(repo, 'run.sh'), 0o644);

    const result = await cm.restore(cp.id);
    assert.deepEqual(result.restored.sort(), ['a.txt', 'del.txt', 'dir/b.txt', 'run.sh', 'untracked.txt']);
    assert.deepEqual(result.removed.sort(), ['new.txt', 'newdir/deep/x.txt']);

    assert.equal(read(repo, 'a.txt'), 'alpha, edited but uncommitted\n');
    assert.equal(read(repo, 'dir/b.txt'), 'beta\n');
    assert.equal(read(repo, 'del.txt'), 'to be deleted\n');
    assert.equal(read(repo, 'untracked.txt'), 'untracked before the checkpoint\n');
    assert.equal(fs.statSync(path.join(repo, 'run.sh')).mode & 0o111, 0o111, 'exec bit restored');
    assert.equal(exists(repo, 'new.txt'), false);
    assert.equal(exists(repo, 'newdir'), false, 'directories left empty are removed');
    assert.equal(read(repo, 'keep.log'), 'ignored, changed after\n', 'ignored files are never touched');
    assert.equal(read(repo, 'new.log'), 'ignored, created after\n');
    assert.equal(read(repo, 'build/out.js'), 'ignored build output\n');

    assert.deepEqual(indexBytes(), before.index, 'restore must not touch the index');
    assert.deepEqual(repoState(), before);
    await cm.restore(cp.id); // restorable more than once
    assert.equal(read(repo, 'a.txt'), 'alpha, edited but uncommitted\n');
  });

  test('restoring an unchanged tree rewrites nothing', async () => {
    setUpProject();
    const before = repoState();
    const mtime = fs.statSync(path.join(repo, 'dir', 'b.txt')).mtimeMs;
    const cm = manager();
    const cp = await cm.create({ auto: false });
    assert.equal(cp.label, 'checkpoint');
    assert.deepEqual(await cm.restore(cp.id), { restored: [], removed: [] });
    assert.equal(fs.statSync(path.join(repo, 'dir', 'b.txt')).mtimeMs, mtime);
    assert.deepEqual(indexBytes(), before.index);
    assert.deepEqual(repoState(), before);
  });

  test('works in a repository without commits', async () => {
    writeTree(repo, { 'a.txt': 'first\n', 'staged.txt': 'staged\n' });
    git(repo, 'add', 'staged.txt');
    const indexBefore = indexBytes();
    const cm = manager();
    const cp = await cm.create({ auto: false, label: 'empty repo' });
    assert.equal(cp.head_sha, '');
    assert.match(cp.stash_sha, /^[0-9a-f]{40}$/);
    assert.equal(git(repo, 'rev-list', '--count', cp.stash_sha).trim(), '1', 'a root commit');

    writeTree(repo, { 'a.txt': 'changed\n', 'staged.txt': null, 'b.txt': 'new\n' });
    const result = await cm.restore(cp.id);
    assert.deepEqual(result, { restored: ['a.txt', 'staged.txt'], removed: ['b.txt'] });
    assert.equal(read(repo, 'a.txt'), 'first\n');
    assert.equal(read(repo, 'staged.txt'), 'staged\n');
    assert.deepEqual(indexBytes(), indexBefore);
    assert.throws(() => git(repo, 'rev-parse', '--verify', '-q', 'HEAD'), 'still no commits');
  });

  test('a workspace in a subdirectory snapshots and restores only its subtree', async () => {
    writeTree(repo, { 'top.txt': 'top\n', 'sub/s.txt': 'sub\n', 'sub/inner/t.txt': 'inner\n' });
    commitAll();
    const ws = path.join(repo, 'sub');
    const cm = manager(ws, { indexInWorkspace: true });
    const cp = await cm.create({ auto: true });
    assert.equal(cp.kind, 'git');

    writeTree(repo, {
      'top.txt': 'top changed\n',
      'top-new.txt': 'outside\n',
      'sub/s.txt': 'sub changed\n',
      'sub/inner/t.txt': null,
      'sub/new.txt': 'inside\n',
    });
    assert.deepEqual(await cm.changedFiles(cp.id), [
      { path: 'inner/t.txt', status: 'deleted' },
      { path: 'new.txt', status: 'added' },
      { path: 's.txt', status: 'modified' },
    ]);
    const result = await cm.restore(cp.id);
    assert.deepEqual(result, { restored: ['s.txt', 'inner/t.txt'], removed: ['new.txt'] });
    assert.equal(read(repo, 'sub/s.txt'), 'sub\n');
    assert.equal(read(repo, 'sub/inner/t.txt'), 'inner\n');
    assert.equal(exists(repo, 'sub/new.txt'), false);
    assert.equal(read(repo, 'top.txt'), 'top changed\n', 'outside the workspace: untouched');
    assert.equal(read(repo, 'top-new.txt'), 'outside\n');
    assert.deepEqual(
      cm.list().map((r) => r.id),
      [cp.id],
      'our index inside the workspace is neither captured nor restored',
    );
    assert.equal((await cm.readFileAt(cp.id, 's.txt'))?.toString(), 'sub\n');
    assert.equal(await cm.readFileAt(cp.id, '../top.txt').catch((e: Error) => e.message), 'path "../top.txt" is outside the workspace');
  });

  test('changedFiles and readFileAt describe the working tree against the checkpoint', async () => {
    writeTree(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    commitAll();
    const cm = manager();
    const cp = await cm.create({ auto: false });
    assert.deepEqual(await cm.changedFiles(cp.id), []);

    writeTree(repo, { 'a.txt': 'a2\n', 'b.txt': null, 'd.txt': 'd\n' });
    fs.utimesSync(path.join(repo, 'c.txt'), new Date(), new Date(Date.now() + 5000)); // stat-only change
    assert.deepEqual(await cm.changedFiles(cp.id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'b.txt', status: 'deleted' },
      { path: 'd.txt', status: 'added' },
    ]);
    assert.equal((await cm.readFileAt(cp.id, 'a.txt'))?.toString(), 'a\n');
    assert.equal((await cm.readFileAt(cp.id, 'b.txt'))?.toString(), 'b\n');
    assert.equal(await cm.readFileAt(cp.id, 'd.txt'), null);
    assert.equal(await cm.readFileAt(cp.id, 'no/such file.txt'), null);
  });

  test('restoreFile restores one file, or removes it if it did not exist', async () => {
    writeTree(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    commitAll();
    const cm = manager();
    const cp = await cm.create({ auto: false });
    writeTree(repo, { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'n.txt': 'n\n' });
    await cm.restoreFile(cp.id, 'a.txt');
    await cm.restoreFile(cp.id, path.join(repo, 'n.txt'));
    assert.equal(read(repo, 'a.txt'), 'a\n');
    assert.equal(read(repo, 'b.txt'), 'b2\n');
    assert.equal(exists(repo, 'n.txt'), false);
  });

  test('a paths-only checkpoint covers just those paths', async () => {
    writeTree(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    commitAll();
    writeTree(repo, { 'a.txt': 'a, dirty\n' });
    const cm = manager();
    const cp = await cm.create({ auto: true, paths: ['a.txt', 'later.txt'] });
    assert.deepEqual(cp.paths, ['a.txt', 'later.txt']);
    writeTree(repo, { 'a.txt': 'a3\n', 'b.txt': 'b3\n', 'later.txt': 'created by a tool\n', 'other.txt': 'x\n' });
    assert.deepEqual(await cm.changedFiles(cp.id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'later.txt', status: 'added' },
    ]);
    assert.deepEqual(await cm.restore(cp.id), { restored: ['a.txt'], removed: ['later.txt'] });
    assert.equal(read(repo, 'a.txt'), 'a, dirty\n');
    assert.equal(read(repo, 'b.txt'), 'b3\n');
    assert.equal(read(repo, 'other.txt'), 'x\n');
    await assert.rejects(cm.restoreFile(cp.id, 'b.txt'), /not covered/);
  });

  test('untracked files above the size limit are not stored and not deleted', async () => {
    writeTree(repo, { 'a.txt': 'a\n' });
    commitAll();
    writeTree(repo, { 'big.bin': 'x'.repeat(2000), 'small.txt': 'small\n' });
    const cm = manager(repo, { maxFileBytes: 1000 });
    const cp = await cm.create({ auto: false });
    const tree = git(repo, 'ls-tree', '-r', '--name-only', cp.stash_sha).split('\n');
    assert.ok(tree.includes('small.txt'));
    assert.ok(!tree.includes('big.bin'));
    const bigBlob = git(repo, 'hash-object', 'big.bin').trim();
    assert.throws(() => git(repo, 'cat-file', '-e', bigBlob), 'the large blob never entered the object store');
    writeTree(repo, { 'big.bin': 'y'.repeat(3000) });
    await cm.restore(cp.id);
    assert.equal(read(repo, 'big.bin'), 'y'.repeat(3000));
  });

  test('delete removes the ref and the record', async () => {
    writeTree(repo, { 'a.txt': 'a\n' });
    commitAll();
    const cm = manager();
    const keep = await cm.create({ auto: false, label: 'keep' });
    const drop = await cm.create({ auto: true, label: 'drop' });
    await cm.delete(drop.id);
    const refs = git(repo, 'for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/');
    assert.equal(refs.trim(), `refs/catcode/checkpoints/${keep.id}`);
    assert.deepEqual(
      cm.list().map((r) => r.label),
      ['keep'],
    );
    await assert.rejects(cm.restore(drop.id), /not found/);
  });

  test('two checkpoints of an unchanged tree share the tree object', async () => {
    writeTree(repo, { 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
    commitAll();
    writeTree(repo, { 'a.txt': 'dirty\n', 'u.txt': 'u\n' });
    const cm = manager();
    const first = await cm.create({ auto: false, label: 'one' });
    const second = await cm.create({ auto: false, label: 'two' });
    assert.notEqual(first.stash_sha, second.stash_sha);
    assert.equal(git(repo, 'rev-parse', `${first.stash_sha}^{tree}`), git(repo, 'rev-parse', `${second.stash_sha}^{tree}`));
    assert.deepEqual(
      cm.list().map((r) => r.label),
      ['one', 'two'],
    );
  });

  test('nested repositories (embedded and submodule-like gitlinks) are snapshotted file by file and restored', async () => {
    writeTree(repo, { 'top.txt': 'top\n' });
    const embedded = path.join(repo, 'libs', 'embedded');
    const linked = path.join(repo, 'linked');
    for (const dir of [embedded, linked]) {
      fs.mkdirSync(dir, { recursive: true });
      initRepo(dir);
    }
    writeTree(embedded, { '.gitignore': 'cache/\n', 'e.txt': 'embedded\n', 'cache/c.bin': 'ignored by the nested repo\n' });
    git(embedded, 'add', '-A');
    git(embedded, 'commit', '-q', '-m', 'e');
    writeTree(linked, { 'l.txt': 'linked\n', 'deep/d.txt': 'deep\n' });
    git(linked, 'add', '-A');
    git(linked, 'commit', '-q', '-m', 'l');
    git(repo, 'add', 'top.txt', 'linked'); // records a gitlink, as a submodule would
    git(repo, 'commit', '-q', '-m', 'init');
    writeTree(embedded, { 'untracked-in-nested.txt': 'u\n' });
    const nestedState = () =>
      [embedded, linked].map((d) => [
        fs.readFileSync(path.join(d, '.git', 'index')),
        git(d, 'status', '--porcelain'),
        git(d, 'rev-parse', 'HEAD'),
      ]);
    const before = repoState();
    const nestedBefore = nestedState();

    const cm = manager();
    const cp = await cm.create({ auto: true });
    const tree = git(repo, 'ls-tree', '-r', cp.stash_sha);
    assert.doesNotMatch(tree, /^160000/m, 'no gitlinks: nested files are stored as files');
    assert.deepEqual(git(repo, 'ls-tree', '-r', '--name-only', cp.stash_sha).trim().split('\n').sort(), [
      'libs/embedded/.gitignore',
      'libs/embedded/e.txt',
      'libs/embedded/untracked-in-nested.txt',
      'linked/deep/d.txt',
      'linked/l.txt',
      'top.txt',
    ]);

    writeTree(repo, {
      'libs/embedded/e.txt': 'changed\n',
      'libs/embedded/new.txt': 'created after\n',
      'libs/embedded/cache/c.bin': 'ignored, changed\n',
      'linked/deep/d.txt': null,
      'linked/l.txt': 'changed\n',
    });
    assert.deepEqual(await cm.changedFiles(cp.id), [
      { path: 'libs/embedded/e.txt', status: 'modified' },
      { path: 'libs/embedded/new.txt', status: 'added' },
      { path: 'linked/deep/d.txt', status: 'deleted' },
      { path: 'linked/l.txt', status: 'modified' },
    ]);
    assert.equal((await cm.readFileAt(cp.id, 'linked/deep/d.txt'))?.toString(), 'deep\n');
    const result = await cm.restore(cp.id);
    assert.deepEqual(result.restored.sort(), ['libs/embedded/e.txt', 'linked/deep/d.txt', 'linked/l.txt']);
    assert.deepEqual(result.removed, ['libs/embedded/new.txt']);
    assert.equal(read(embedded, 'e.txt'), 'embedded\n');
    assert.equal(read(linked, 'deep/d.txt'), 'deep\n');
    assert.equal(read(embedded, 'cache/c.bin'), 'ignored, changed\n', "the nested repo's ignore rules apply");
    assert.deepEqual(nestedState(), nestedBefore, "the nested repositories' index, status and HEAD are unchanged");
    assert.deepEqual(repoState(), before);
  });

  test('untracked build outputs are neither captured nor removed; tracked ones are restored', async () => {
    writeTree(repo, { 'a.txt': 'a\n', 'dist/app.js': 'committed build\n' });
    commitAll();
    writeTree(repo, { 'node_modules/dep/index.js': 'dep\n', 'target/debug/bin': 'bin\n', 'src/.venv/lib.py': 'venv\n' });
    const cm = manager();
    const cp = await cm.create({ auto: false });
    const tree = git(repo, 'ls-tree', '-r', '--name-only', cp.stash_sha).trim().split('\n').sort();
    assert.deepEqual(tree, ['a.txt', 'dist/app.js']);
    writeTree(repo, {
      'dist/app.js': 'rebuilt\n',
      'dist/new.js': 'new output\n',
      'node_modules/dep/index.js': 'dep2\n',
      'node_modules/new.js': 'n\n',
    });
    assert.deepEqual(await cm.changedFiles(cp.id), [{ path: 'dist/app.js', status: 'modified' }]);
    assert.deepEqual(await cm.restore(cp.id), { restored: ['dist/app.js'], removed: [] });
    assert.equal(read(repo, 'dist/new.js'), 'new output\n');
    assert.equal(read(repo, 'node_modules/dep/index.js'), 'dep2\n');
  });

  test('the stat cache never hides an edit, even one that keeps the size', async () => {
    writeTree(repo, { 'a.txt': 'aaaa\n', 'b.txt': 'b\n' });
    commitAll();
    const cm = manager();
    const first = await cm.create({ auto: false });
    writeTree(repo, { 'a.txt': 'bbbb\n' }); // same size, same second
    const second = await cm.create({ auto: false });
    assert.equal(git(repo, 'show', `${second.stash_sha}:a.txt`), 'bbbb\n');
    assert.equal(git(repo, 'show', `${first.stash_sha}:a.txt`), 'aaaa\n');
    assert.deepEqual(await cm.changedFiles(first.id), [{ path: 'a.txt', status: 'modified' }]);
    assert.deepEqual(await cm.changedFiles(second.id), []);
  });

  test('deleteAll removes every checkpoint ref of the index', async () => {
    writeTree(repo, { 'a.txt': 'a\n' });
    commitAll();
    const cm = manager();
    await cm.create({ auto: false });
    await cm.create({ auto: true });
    assert.equal(await cm.deleteAll(), 2);
    assert.equal(git(repo, 'for-each-ref', 'refs/catcode/checkpoints/').trim(), '');
    assert.deepEqual(cm.list(), []);
  });

  test('two workspace folders of one repository (multi-root) keep separate checkpoints and caches', async () => {
    writeTree(repo, { 'one/a.txt': 'one\n', 'two/b.txt': 'two\n' });
    commitAll();
    const make = (name: string) =>
      new CheckpointManager({
        workspace: path.join(repo, name),
        indexPath: path.join(tmp, `${name}.checkpoints.jsonl`),
        filesStoreDir: path.join(repo, name, '.catalyst-code', 'checkpoints'),
        dataDir: path.join(tmp, 'data', `hash-${name}`),
      });
    const [one, two] = [make('one'), make('two')];
    const cpOne = await one.create({ auto: false });
    const cpTwo = await two.create({ auto: false });
    assert.deepEqual(git(repo, 'for-each-ref', '--format=%(refname)', 'refs/catcode/cache/').trim().split('\n'), [
      'refs/catcode/cache/hash-one',
      'refs/catcode/cache/hash-two',
    ]);
    writeTree(repo, { 'one/a.txt': 'one changed\n', 'two/b.txt': 'two changed\n', 'two/new.txt': 'new\n' });
    assert.deepEqual(await one.changedFiles(cpOne.id), [{ path: 'a.txt', status: 'modified' }]);
    assert.deepEqual(await two.restore(cpTwo.id), { restored: ['b.txt'], removed: ['new.txt'] });
    assert.equal(read(repo, 'one/a.txt'), 'one changed\n', "the other folder's files are untouched");
    assert.deepEqual(
      one.list().map((r) => r.id),
      [cpOne.id],
    );
  });
});

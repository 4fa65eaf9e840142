import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitignoreRules } from '../tools/gitignoreRules';
import { PathError, resolveWorkspacePath } from '../platform/workspace';
import { proposeWorktreeChanges } from './promote';
import { exists, git, initRepo, isolateGitConfig, read, writeTree } from '../../../test/support/gitTestSupport';
import {
  baseState,
  createWorktree,
  createWorktrees,
  removeWorktree,
  safeWorktreeId,
  sweepWorktrees,
  worktreeName,
  ownerTag,
  type WorktreeEvent,
  WORKTREE_REQUIRES_GIT,
} from './worktree';

let restoreGit: () => void;
before(() => (restoreGit = isolateGitConfig()));
after(() => restoreGit());

function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-wt-test-')));
}

/** A repository with one commit (a.txt, b.txt, .gitignore ignoring build/) and uncommitted changes on top. */
function makeRepo(): string {
  const ws = tempDir();
  initRepo(ws);
  writeTree(ws, { 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'gone.txt': 'g\n', '.gitignore': 'build/\n' });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
  writeTree(ws, { 'a.txt': 'a2 uncommitted\n', 'new/untracked.txt': 'u\n', 'build/out.bin': 'ignored', 'gone.txt': null });
  writeTree(ws, { '.catalyst-code/memory/x.md': 'ours' });
  return ws;
}

function branches(ws: string): string[] {
  return git(ws, 'branch', '--list', 'catcode/wt/*', '--format=%(refname:short)').split('\n').filter(Boolean);
}

test('the safe id keeps [A-Za-z0-9_-] and turns the rest into -; a worktree name adds the core’s pid and start time', () => {
  assert.equal(safeWorktreeId('run-3-0'), 'run-3-0');
  assert.equal(safeWorktreeId('run/a.b c'), 'run-a-b-c');
  assert.equal(worktreeName('run/1'), `run-1-${ownerTag()}`);
  assert.match(ownerTag(), new RegExp(`^${process.pid}(-\\d+)?$`));
});

test('a worktree is added from HEAD on its branch, seeded honouring .gitignore, then removed with its branch', async () => {
  const ws = makeRepo();
  const events: WorktreeEvent[] = [];
  try {
    const wt = await createWorktree(ws, 'run-1', (e) => events.push(e));
    const name = worktreeName('run-1');
    const wtPath = path.join(ws, '.catalyst-code', 'worktrees', name);
    assert.equal(wt.path, wtPath);
    assert.equal(wt.root, wtPath);
    assert.equal(wt.branch, `catcode/wt/${name}`);
    assert.deepEqual(events, [
      { type: 'worktree_ready', run_id: 'run-1', path: wtPath, branch: `catcode/wt/${name}` },
      { type: 'worktree_seeded', run_id: 'run-1', paths: ['a.txt', 'new/untracked.txt', 'deleted:gone.txt'] },
    ]);
    assert.equal(read(wt.root, 'a.txt'), 'a2 uncommitted\n');
    assert.equal(read(wt.root, 'new/untracked.txt'), 'u\n');
    assert.equal(read(wt.root, 'b.txt'), 'b1\n');
    assert.equal(exists(wt.root, 'gone.txt'), false);
    assert.equal(exists(wt.root, 'build/out.bin'), false, 'ignored files are not mirrored');
    assert.equal(exists(wt.root, '.catalyst-code'), false, 'our own data is not mirrored');
    assert.deepEqual(branches(ws), [`catcode/wt/${name}`]);
    assert.equal(git(wt.root, 'rev-parse', 'HEAD').trim(), git(ws, 'rev-parse', 'HEAD').trim());
    assert.doesNotMatch(
      git(ws, 'status', '--porcelain', '--untracked-files=all'),
      /worktrees/,
      "the main tree's git ignores the worktrees",
    );
    assert.equal(await new GitignoreRules(ws).ignores(`.catalyst-code/worktrees/${name}/a.txt`, false), true, 'so do grep and glob');

    // The base of a seeded file is its copy, the base of an unseeded one HEAD's version, of a missing one nothing.
    fs.writeFileSync(path.join(wt.root, 'a.txt'), 'child\n');
    fs.writeFileSync(path.join(wt.root, 'b.txt'), 'child\n');
    const a = await baseState(wt, 'a.txt');
    assert.equal(a.kind === 'file' ? a.bytes.toString() : a.kind, 'a2 uncommitted\n');
    const b = await baseState(wt, 'b.txt');
    assert.equal(b.kind === 'file' ? b.bytes.toString() : b.kind, 'b1\n');
    assert.equal((await baseState(wt, 'nothing.txt')).kind, 'missing');

    await removeWorktree(wt, (e) => events.push(e));
    assert.deepEqual(events.at(-1), { type: 'worktree_cleaned', path: wtPath });
    assert.equal(fs.existsSync(wtPath), false);
    assert.deepEqual(branches(ws), [], 'the branch is deleted');
    assert.equal(fs.existsSync(wt.baseline.copiesDir), false);
    assert.deepEqual(fs.readdirSync(path.join(ws, '.catalyst-code', 'worktrees')), ['.gitignore'], 'no owner marker is left');
    assert.doesNotMatch(git(ws, 'worktree', 'list'), /run-1/);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a clean tree seeds nothing and emits no worktree_seeded', async () => {
  const ws = tempDir();
  initRepo(ws);
  writeTree(ws, { 'a.txt': 'a\n' });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
  const events: WorktreeEvent[] = [];
  try {
    const wt = await createWorktree(ws, 'run-2', (e) => events.push(e));
    await removeWorktree(wt, (e) => events.push(e));
    assert.deepEqual(
      events.map((e) => e.type),
      ['worktree_ready', 'worktree_cleaned'],
    );
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a workspace below the repository top gets the matching directory of the worktree', async () => {
  const top = tempDir();
  initRepo(top);
  writeTree(top, { 'pkg/a.txt': 'a\n', 'other.txt': 'o\n' });
  git(top, 'add', '-A');
  git(top, 'commit', '-q', '-m', 'base');
  writeTree(top, { 'pkg/a.txt': 'a dirty\n' });
  const ws = path.join(top, 'pkg');
  const events: WorktreeEvent[] = [];
  try {
    const wt = await createWorktree(ws, 'run-3', (e) => events.push(e));
    assert.equal(wt.root, path.join(ws, '.catalyst-code', 'worktrees', worktreeName('run-3'), 'pkg'));
    assert.equal(read(wt.root, 'a.txt'), 'a dirty\n');
    assert.deepEqual(events[1], { type: 'worktree_seeded', run_id: 'run-3', paths: ['a.txt'] });
    await removeWorktree(wt, () => undefined);
    assert.deepEqual(branches(top), []);
  } finally {
    fs.rmSync(top, { recursive: true, force: true });
  }
});

test('outside git the worktree is refused with upstream words, and nothing is made', async () => {
  const ws = tempDir();
  const events: WorktreeEvent[] = [];
  try {
    await assert.rejects(
      createWorktree(ws, 'run-4', (e) => events.push(e)),
      { message: WORKTREE_REQUIRES_GIT },
    );
    assert.equal(WORKTREE_REQUIRES_GIT, 'worktree:true requires a git repository; use hybrid checkpoints for non-git workspaces');
    assert.deepEqual(events, []);
    assert.equal(fs.existsSync(path.join(ws, '.catalyst-code')), false);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a repository without a commit fails the setup and leaves nothing', async () => {
  const ws = tempDir();
  initRepo(ws);
  try {
    await assert.rejects(
      createWorktree(ws, 'run-5', () => undefined),
      (e: Error) => e.message.startsWith('worktree setup failed: '),
    );
    assert.equal(fs.existsSync(path.join(ws, '.catalyst-code')), false);
    assert.deepEqual(branches(ws), []);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('parallel worktrees are all made up front, and removing them leaves no branch', async () => {
  const ws = makeRepo();
  const events: WorktreeEvent[] = [];
  try {
    const made = await createWorktrees(ws, ['run-6-0', 'run-6-1'], (e) => events.push(e));
    assert.deepEqual(branches(ws), [`catcode/wt/${worktreeName('run-6-0')}`, `catcode/wt/${worktreeName('run-6-1')}`]);
    for (const wt of made) assert.equal(read(wt.root, 'a.txt'), 'a2 uncommitted\n');
    for (const wt of made) await removeWorktree(wt, (e) => events.push(e));
    assert.deepEqual(branches(ws), []);
    assert.deepEqual(
      events.filter((e) => e.type === 'worktree_cleaned').map((e) => e.path),
      made.map((w) => w.path),
    );
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('the start-up sweep removes a dead core’s worktree and branch, and keeps a live one’s', async () => {
  const ws = makeRepo();
  try {
    const live = await createWorktree(ws, 'run-7', () => undefined);
    // A core killed half-way: its worktree, branch and owner marker (a pid that cannot be running) remain.
    const parent = path.join(ws, '.catalyst-code', 'worktrees');
    git(ws, 'worktree', 'add', '--quiet', '-B', 'catcode/wt/run-dead', path.join(parent, 'run-dead'), 'HEAD');
    fs.mkdirSync(path.join(parent, '.owner-run-dead.999999999-abcdef'));
    // And one with only its branch and marker left (killed between the removal and the branch deletion).
    git(ws, 'branch', 'catcode/wt/run-half', 'HEAD');
    fs.mkdirSync(path.join(parent, '.owner-run-half.999999999-abcdef'));

    await sweepWorktrees(ws);
    assert.deepEqual(branches(ws), [`catcode/wt/${worktreeName('run-7')}`]);
    assert.equal(fs.existsSync(path.join(parent, 'run-dead')), false);
    assert.equal(fs.existsSync(live.path), true, 'the live worktree is kept');
    assert.deepEqual(
      fs.readdirSync(parent).filter((n) => !n.startsWith(`.owner-${worktreeName('run-7')}.`)),
      ['.gitignore', worktreeName('run-7')],
    );
    await removeWorktree(live, () => undefined);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('the sweep keeps a worktree whose owner it cannot name, and a live core’s however old its marker', async () => {
  const ws = makeRepo();
  try {
    const parent = path.join(ws, '.catalyst-code', 'worktrees');
    // Upstream's core (or a tool of the user's) marks nothing: its worktree's owner is unknown, so it stays.
    fs.mkdirSync(parent, { recursive: true });
    git(ws, 'worktree', 'add', '--quiet', '-B', 'catcode/wt/run-1', path.join(parent, 'run-1'), 'HEAD');
    // A live core's worktree whose marker is a day old: a long child, still running.
    const old = await createWorktree(ws, 'run-11', () => undefined);
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000);
    fs.utimesSync(old.ownerMarker, dayAgo, dayAgo);

    await sweepWorktrees(ws);
    assert.equal(fs.existsSync(path.join(parent, 'run-1')), true, 'the unmarked worktree is kept');
    assert.equal(fs.existsSync(old.path), true, 'the old one of a live core is kept');
    assert.deepEqual(branches(ws), ['catcode/wt/run-1', `catcode/wt/${worktreeName('run-11')}`]);
    await removeWorktree(old, () => undefined);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a batch whose second worktree cannot be made removes the first and names the task', async () => {
  const ws = makeRepo();
  const events: WorktreeEvent[] = [];
  try {
    // run-8-1's path is held by a live run (this process's marker): its setup fails.
    const held = await createWorktree(ws, 'run-8-1', () => undefined);
    await assert.rejects(
      createWorktrees(ws, ['run-8-0', 'run-8-1'], (e) => events.push(e)),
      (e: Error) => e.message.startsWith('worktree setup failed for task 1: '),
    );
    assert.deepEqual(
      events.map((e) => [e.type, 'run_id' in e ? e.run_id : e.path]),
      [
        ['worktree_ready', 'run-8-0'],
        ['worktree_seeded', 'run-8-0'],
        ['worktree_cleaned', path.join(ws, '.catalyst-code', 'worktrees', worktreeName('run-8-0'))],
      ],
    );
    assert.deepEqual(branches(ws), [`catcode/wt/${worktreeName('run-8-1')}`], 'only the live run keeps its branch');
    await removeWorktree(held, () => undefined);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test("adding a worktree runs none of the repository's hooks", async () => {
  const ws = makeRepo();
  const marker = path.join(os.tmpdir(), `catcode-hook-ran-${process.pid}`);
  fs.writeFileSync(path.join(ws, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
  try {
    git(ws, 'checkout', '-q', '-b', 'probe');
    assert.equal(fs.existsSync(marker), true, 'the hook runs on an ordinary checkout');
    fs.rmSync(marker);
    const wt = await createWorktree(ws, 'run-10', () => undefined);
    assert.equal(fs.existsSync(marker), false);
    await removeWorktree(wt, () => undefined);
  } finally {
    fs.rmSync(marker, { force: true });
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test("ignored dependency folders at the top are linked, not copied; never proposed back; the user's survive the cleanup", async () => {
  const ws = tempDir();
  initRepo(ws);
  writeTree(ws, { 'a.txt': 'a\n', 'vendor/lib.txt': 'tracked\n', '.gitignore': 'node_modules/\nbuild/\n.venv\n' });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
  writeTree(ws, {
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    '.venv/bin/python': '#!/bin/sh\n',
    'build/out.bin': 'built',
    'pkg/node_modules/nested.js': 'x',
  });
  const events: WorktreeEvent[] = [];
  try {
    const wt = await createWorktree(ws, 'run-links', (e) => events.push(e));
    assert.deepEqual(wt.linked, ['node_modules', '.venv'], 'ignored and at the top: linked; tracked vendor/ is checked out');
    assert.equal(fs.readlinkSync(path.join(wt.root, 'node_modules')), path.join(ws, 'node_modules'));
    assert.equal(read(wt.root, 'node_modules/dep/index.js'), 'module.exports = 1;\n', 'a command in the worktree finds it');
    assert.equal(fs.lstatSync(path.join(wt.root, 'vendor')).isDirectory(), true);
    assert.equal(exists(wt.root, 'build/out.bin'), false, 'build outputs are not linked');
    assert.equal(exists(wt.root, 'pkg/node_modules/nested.js'), false, 'only the top level');
    assert.deepEqual(
      events.map((e) => e.type),
      ['worktree_ready'],
    );
    assert.throws(
      () => resolveWorkspacePath(wt.root, 'node_modules/dep/index.js'),
      PathError,
      "the child's file tools stay out of the link",
    );

    fs.writeFileSync(path.join(wt.root, 'a.txt'), 'child\n');
    const proposed: string[] = [];
    const report = await proposeWorktreeChanges(wt, {
      runInner: async (name, args) => {
        proposed.push(`${name} ${String(args.path)}`);
        return { ok: false, output: 'declined', status: 'denied', fileChanges: [] };
      },
      info: () => undefined,
      emit: (e) => events.push(e),
    });
    assert.deepEqual(proposed, ['write_file a.txt'], 'the links are not proposed back');
    assert.deepEqual(report.flagged, []);

    await removeWorktree(wt, (e) => events.push(e));
    assert.equal(fs.existsSync(wt.path), false);
    assert.equal(read(ws, 'node_modules/dep/index.js'), 'module.exports = 1;\n', "the user's folder is untouched");
    assert.equal(read(ws, '.venv/bin/python'), '#!/bin/sh\n');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

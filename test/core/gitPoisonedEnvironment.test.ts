/**
 * Every git the core runs ignores inherited variables that point git elsewhere or change how it reads pathspecs and
 * configuration (the core started from a git hook or alias, or a shell that exported them): checkpoints, the git_*
 * tools and the worktrees give the same results with a poisoned environment, and the repository it names is untouched.
 */
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointManager } from '../../src/core/checkpoints/checkpointManager';
import { gitAddTool } from '../../src/core/tools/gitAddTool';
import { gitStatusTool } from '../../src/core/tools/gitStatusTool';
import { isGitWorkTree } from '../../src/core/worktrees/worktree';
import { listFiles } from '../../src/core/worktrees/worktreeGit';
import { git, initRepo, isolateGitConfig, read, writeTree } from '../support/gitTestSupport';
import { makeTestWorkspace, type TestWorkspace } from '../support/testWorkspace';

let restoreGitConfig: () => void;
before(() => (restoreGitConfig = isolateGitConfig()));
after(() => restoreGitConfig());

let ws: TestWorkspace;
let elsewhere: string;
beforeEach(() => {
  ws = makeTestWorkspace();
  initRepo(ws.root);
  writeTree(ws.root, { 'a.txt': 'alpha\n', 'src/b.txt': 'beta\n' });
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-q', '-m', 'first');
  writeTree(ws.root, { 'notes.txt': 'untracked notes\n' });
  elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-git-elsewhere-'));
  initRepo(elsewhere);
  writeTree(elsewhere, { 'other.txt': 'another repository\n', 'ignore-txt': '*.txt\n' });
  git(elsewhere, 'add', 'other.txt');
  git(elsewhere, 'commit', '-q', '-m', 'elsewhere');
});
afterEach(() => {
  ws.cleanup();
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

/** What a hook's or a careless shell's environment may hold: another repository, index, object store, namespace, config. */
function poison(): Record<string, string> {
  return {
    GIT_DIR: path.join(elsewhere, '.git'),
    GIT_WORK_TREE: elsewhere,
    GIT_INDEX_FILE: path.join(elsewhere, 'poisoned-index'),
    GIT_OBJECT_DIRECTORY: path.join(elsewhere, 'poisoned-objects'),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(elsewhere, '.git', 'objects'),
    GIT_NAMESPACE: 'poisoned',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_ICASE_PATHSPECS: '1',
    GIT_CONFIG_PARAMETERS: `'core.excludesfile'='${path.join(elsewhere, 'ignore-txt')}'`,
  };
}

/** Runs `work` with `vars` in process.env (where the core's git children inherit from), then puts the old values back. */
async function withEnv<T>(vars: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await work();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

function elsewhereState() {
  return {
    status: git(elsewhere, 'status', '--porcelain', '--untracked-files=all'),
    refs: git(elsewhere, 'for-each-ref', '--format=%(refname)'),
    index: fs.readFileSync(path.join(elsewhere, '.git', 'index')),
    files: fs.readdirSync(elsewhere).sort(),
  };
}

describe('a poisoned GIT_* environment changes nothing', () => {
  test('checkpoints capture and restore the workspace, untracked files included', async () => {
    const before = elsewhereState();
    const store = path.join(ws.root, '.catalyst-code', 'checkpoints');
    const cm = new CheckpointManager({
      workspace: ws.root,
      indexPath: path.join(elsewhere, '..', `${path.basename(elsewhere)}.checkpoints.jsonl`),
      filesStoreDir: store,
      dataDir: path.join(ws.root, '.catalyst-code', 'data'),
    });
    try {
      const cp = await withEnv(poison(), () => cm.create({ label: 'poisoned', auto: true, runId: 'run-1' }));
      assert.equal(cp.kind, 'git');
      writeTree(ws.root, { 'a.txt': 'changed\n', 'notes.txt': 'changed notes\n', 'new.txt': 'created after\n' });
      const result = await withEnv(poison(), () => cm.restore(cp.id));
      assert.deepEqual(result.restored.sort(), ['a.txt', 'notes.txt']);
      assert.deepEqual(result.removed, ['new.txt']);
      assert.equal(read(ws.root, 'notes.txt'), 'untracked notes\n');
      assert.equal(git(ws.root, 'rev-parse', `refs/catcode/checkpoints/${cp.id}`).trim(), cp.stash_sha);
      assert.deepEqual(elsewhereState(), before, 'the repository the environment names is untouched');
    } finally {
      await cm.finishBackgroundWork(5000);
      fs.rmSync(path.join(elsewhere, '..', `${path.basename(elsewhere)}.checkpoints.jsonl`), { force: true });
    }
  });

  test('git_add and git_status act on the workspace, reading a glob pathspec as a glob', async () => {
    const before = elsewhereState();
    writeTree(ws.root, { 'a.txt': 'changed\n', 'src/b.txt': 'changed beta\n' });
    const added = await withEnv(poison(), () => gitAddTool.execute({ paths: ['*.txt'] }, ws.context()));
    assert.equal(added.ok, true, added.output);
    const status = await withEnv(poison(), () => gitStatusTool.execute({}, ws.context()));
    assert.equal(status.output, '## main\nM  a.txt\nA  notes.txt\nM  src/b.txt');
    assert.deepEqual(elsewhereState(), before, 'the repository the environment names is untouched');
  });

  test('worktrees see the workspace repository and list its files, untracked ones included', async () => {
    const before = elsewhereState();
    const nonRepo = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-not-a-repo-'));
    try {
      assert.equal(await withEnv(poison(), () => isGitWorkTree(ws.root)), true);
      assert.equal(
        await withEnv({ ...poison(), GIT_CEILING_DIRECTORIES: os.tmpdir() }, () => isGitWorkTree(nonRepo)),
        false,
        'GIT_DIR does not make another folder a repository',
      );
      assert.deepEqual(await withEnv(poison(), () => listFiles(ws.root)), ['a.txt', 'notes.txt', 'src/b.txt']);
    } finally {
      fs.rmSync(nonRepo, { recursive: true, force: true });
    }
    assert.deepEqual(elsewhereState(), before, 'the repository the environment names is untouched');
  });
});

import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { git, initRepo, isolateGitConfig } from '../../../test/support/gitTestSupport';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { gitAddTool } from './gitAddTool';
import { gitCommitTool } from './gitCommitTool';
import { gitDiffTool } from './gitDiffTool';
import { gitLogTool } from './gitLogTool';
import { gitStatusTool } from './gitStatusTool';

describe('git tools', () => {
  let restoreGitConfig: () => void;
  let ws: TestWorkspace;
  before(() => (restoreGitConfig = isolateGitConfig()));
  after(() => restoreGitConfig());
  beforeEach(() => {
    ws = makeTestWorkspace();
    initRepo(ws.root);
    ws.write('a.txt', 'one\n');
    ws.write('sub/b.txt', 'bee\n');
    git(ws.root, 'add', '-A');
    git(ws.root, 'commit', '-q', '-m', 'first');
  });
  afterEach(() => ws.cleanup());

  test('git_status shows the branch and changes, scoped to a path when given', async () => {
    ws.write('a.txt', 'two\n');
    ws.write('sub/new.txt', 'x');
    assert.equal((await gitStatusTool.execute({}, ws.context())).output, '## main\n M a.txt\n?? sub/new.txt');
    assert.equal((await gitStatusTool.execute({ path: 'sub' }, ws.context())).output, '## main\n?? sub/new.txt');
  });

  test('git_diff shows unstaged changes, or staged ones with staged:true', async () => {
    ws.write('a.txt', 'two\n');
    assert.match((await gitDiffTool.execute({}, ws.context())).output, /^-one\n\+two$/m);
    assert.equal((await gitDiffTool.execute({ staged: true }, ws.context())).output, '(no output)');
    git(ws.root, 'add', 'a.txt');
    assert.match((await gitDiffTool.execute({ staged: true, path: 'a.txt' }, ws.context())).output, /^\+two$/m);
  });

  test('git_log lists commits one a line, limited, and of one path', async () => {
    ws.write('sub/b.txt', 'bee2\n');
    git(ws.root, 'commit', '-q', '-am', 'second');
    const lines = (await gitLogTool.execute({}, ws.context())).output.split('\n');
    assert.deepEqual(
      lines.map((l) => l.replace(/^\w+ /, '')),
      ['second', 'first'],
    );
    assert.equal((await gitLogTool.execute({ limit: 1 }, ws.context())).output.replace(/^\w+ /, ''), 'second');
    assert.equal((await gitLogTool.execute({ path: 'a.txt' }, ws.context())).output.replace(/^\w+ /, ''), 'first');
  });

  test('git_add stages the given paths and git_commit commits them', async () => {
    ws.write('a.txt', 'two\n');
    ws.write('c.txt', 'sea\n');
    assert.ok((await gitAddTool.execute({ paths: ['c.txt'] }, ws.context())).ok);
    assert.equal(git(ws.root, 'diff', '--cached', '--name-only'), 'c.txt\n');
    const commit = await gitCommitTool.execute({ message: 'add c' }, ws.context());
    assert.ok(commit.ok, commit.output);
    assert.equal(git(ws.root, 'log', '-1', '--format=%s%n%H', '--name-only').split('\n')[0], 'add c');
    assert.equal(git(ws.root, 'show', '--name-only', '--format=', 'HEAD'), 'c.txt\n');
    assert.ok((await gitCommitTool.execute({ message: 'all tracked', all: true }, ws.context())).ok);
    assert.equal(git(ws.root, 'show', '--name-only', '--format=', 'HEAD'), 'a.txt\n');
  });

  test("bad arguments, escaping paths and git failures are failed outcomes with git's own words", async () => {
    assert.match((await gitAddTool.execute({}, ws.context())).output, /'paths' is required/);
    assert.match((await gitAddTool.execute({ paths: ['../x'] }, ws.context())).output, /'\.\.'/);
    assert.match((await gitStatusTool.execute({ path: '/etc' }, ws.context())).output, /absolute/);
    assert.match((await gitCommitTool.execute({ message: '  ' }, ws.context())).output, /'message' must not be empty/);
    const nothing = await gitCommitTool.execute({ message: 'nothing staged' }, ws.context());
    assert.equal(nothing.ok, false);
    assert.match(nothing.output, /nothing to commit/);
    const notRepo = makeTestWorkspace();
    try {
      const status = await gitStatusTool.execute({}, notRepo.context());
      assert.equal(status.ok, false);
      assert.match(status.output, /not a git repository/);
    } finally {
      notRepo.cleanup();
    }
  });

  test('targets are the path arguments, for confinement and approval', () => {
    assert.deepEqual(gitStatusTool.targets({}), { paths: [] });
    assert.deepEqual(gitDiffTool.targets({ path: 'src' }), { paths: ['src'] });
    assert.deepEqual(gitLogTool.targets({ path: 'a.txt' }), { paths: ['a.txt'] });
    assert.deepEqual(gitAddTool.targets({ paths: ['a', 3, '', 'b'] }), { paths: ['a', 'b'] });
    assert.deepEqual(gitCommitTool.targets({ message: 'm' }), { paths: [] });
  });
});

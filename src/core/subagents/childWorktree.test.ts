import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, initRepo, isolateGitConfig, read, writeTree } from '../../../test/support/gitTestSupport';
import type { ToolOutcome } from '../tools/types';
import { openBatchWorktrees, runChildInWorktree, type WorktreeDeps, worktreeRefusal } from './childWorktree';
import { WORKTREE_REQUIRES_GIT, type WorktreeEvent, worktreeName } from '../worktrees/worktree';

let restoreGit: () => void;
before(() => (restoreGit = isolateGitConfig()));
after(() => restoreGit());

function makeRepo(): string {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-childwt-')));
  initRepo(ws);
  writeTree(ws, { 'a.txt': 'a\n' });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
  return ws;
}

type Logged =
  WorktreeEvent | { type: 'inner'; name: string; path: unknown } | { type: 'child'; workspace: string } | { type: 'info'; message: string };

function deps(ws: string, log: Logged[], signal = new AbortController().signal): WorktreeDeps {
  return {
    workspace: ws,
    emit: (e) => log.push(e),
    info: (message) => log.push({ type: 'info', message }),
    runInner: async (name, args): Promise<ToolOutcome> => {
      log.push({ type: 'inner', name, path: args.path });
      fs.writeFileSync(path.join(ws, String(args.path)), String(args.content));
      return { ok: true, output: 'written', status: 'success', fileChanges: [] };
    },
    signal,
  };
}

const worktreeOf = (ws: string, runId: string): string => path.join(ws, '.catalyst-code', 'worktrees', worktreeName(runId));

test('a completed child: ready, the child in its worktree, its change proposed, promoted, cleaned — in that order', async () => {
  const ws = makeRepo();
  const log: Logged[] = [];
  try {
    const result = await runChildInWorktree(deps(ws, log), 'run-1', async (workspace) => {
      log.push({ type: 'child', workspace });
      fs.writeFileSync(path.join(workspace, 'a.txt'), 'child\n');
      return { ok: true, output: 'done', state: 'completed' };
    });
    const wt = worktreeOf(ws, 'run-1');
    assert.deepEqual(log, [
      { type: 'worktree_ready', run_id: 'run-1', path: wt, branch: `catcode/wt/${worktreeName('run-1')}` },
      { type: 'child', workspace: wt },
      { type: 'inner', name: 'write_file', path: 'a.txt' },
      { type: 'worktree_promoted', run_id: 'run-1', paths: ['a.txt'] },
      { type: 'worktree_cleaned', path: wt },
    ]);
    assert.deepEqual(result, { ok: true, output: 'done\n\nWorktree changes applied: a.txt', state: 'completed' });
    assert.equal(read(ws, 'a.txt'), 'child\n');
    assert.equal(fs.existsSync(wt), false);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a failed child and a cancelled call get only the cleanup', async () => {
  const ws = makeRepo();
  try {
    for (const [runId, state, aborted] of [
      ['run-2', 'failed', false],
      ['run-3', 'completed', true],
    ] as const) {
      const log: Logged[] = [];
      const controller = new AbortController();
      const result = await runChildInWorktree(deps(ws, log, controller.signal), runId, async (workspace) => {
        fs.writeFileSync(path.join(workspace, 'a.txt'), 'child\n');
        if (aborted) controller.abort();
        return { ok: state === 'completed', output: 'out', state };
      });
      assert.equal(result.output, 'out');
      assert.deepEqual(
        log.map((e) => e.type),
        ['worktree_ready', 'worktree_cleaned'],
        runId,
      );
      assert.equal(read(ws, 'a.txt'), 'a\n');
    }
    assert.equal(git(ws, 'branch', '--list', 'catcode/wt/*'), '');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('outside git: the refusal is known before anything runs, and a child asked anyway fails without running', async () => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-childwt-nogit-')));
  const repo = makeRepo();
  const log: Logged[] = [];
  try {
    assert.equal(await worktreeRefusal(ws), WORKTREE_REQUIRES_GIT);
    assert.equal(await worktreeRefusal(repo), undefined);
    let ran = false;
    const result = await runChildInWorktree(deps(ws, log), 'run-4', async () => {
      ran = true;
      return { ok: true, output: '', state: 'completed' };
    });
    assert.deepEqual([result, ran, log], [{ ok: false, output: WORKTREE_REQUIRES_GIT, state: 'failed' }, false, []]);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  }
});

test('a batch makes every worktree first, then promotes the completed children in input order and removes all', async () => {
  const ws = makeRepo();
  const log: Logged[] = [];
  try {
    const batch = await openBatchWorktrees(deps(ws, log), ['run-5-0', 'run-5-1']);
    assert.deepEqual(
      log.map((e) => e.type),
      ['worktree_ready', 'worktree_ready'],
    );
    fs.writeFileSync(path.join(batch.workspaces[0], 'zero.txt'), '0\n');
    fs.writeFileSync(path.join(batch.workspaces[1], 'one.txt'), '1\n');
    const results = await batch.close([
      { ok: true, output: 'zero', state: 'completed' },
      { ok: false, output: 'one failed', state: 'failed' },
    ]);
    assert.deepEqual(
      results.map((r) => r.output),
      ['zero\n\nWorktree changes applied: zero.txt', 'one failed'],
    );
    assert.deepEqual(log.slice(2), [
      { type: 'inner', name: 'write_file', path: 'zero.txt' },
      { type: 'worktree_promoted', run_id: 'run-5-0', paths: ['zero.txt'] },
      { type: 'worktree_cleaned', path: worktreeOf(ws, 'run-5-0') },
      { type: 'worktree_cleaned', path: worktreeOf(ws, 'run-5-1') },
    ]);
    assert.equal(fs.existsSync(path.join(ws, 'one.txt')), false);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

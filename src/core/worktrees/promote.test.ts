import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exists, git, initRepo, isolateGitConfig, read, writeTree } from '../../../test/support/gitTestSupport';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { deleteTool } from '../tools/deleteTool';
import type { ToolContext, ToolOutcome } from '../tools/types';
import { writeFileTool } from '../tools/writeFileTool';
import { proposeWorktreeChanges } from './promote';
import { createWorktree, removeWorktree, type Worktree, type WorktreeEvent } from './worktree';

let restoreGit: () => void;
before(() => (restoreGit = isolateGitConfig()));
after(() => restoreGit());

const LINES = (first: string, last: string): string => `${first}\nline 2\nline 3\nline 4\nline 5\nline 6\n${last}\n`;

async function setup(): Promise<{ ws: string; wt: Worktree; events: WorktreeEvent[]; cleanup(): Promise<void> }> {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-promote-')));
  initRepo(ws);
  writeTree(ws, {
    'same.txt': 'same\n',
    'mine.txt': LINES('first', 'last'),
    'both.txt': LINES('first', 'last'),
    'clash.txt': 'original\n',
    'drop.txt': 'to delete\n',
    'img.bin': Buffer.from([0, 1, 2]).toString('latin1'),
  });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
  const events: WorktreeEvent[] = [];
  const wt = await createWorktree(ws, 'run-9', (e) => events.push(e));
  return {
    ws,
    wt,
    events,
    cleanup: async () => {
      await removeWorktree(wt, (e) => events.push(e));
      fs.rmSync(ws, { recursive: true, force: true });
    },
  };
}

/** runInner over the real write_file and delete in the main workspace, approving all but the paths in `deny`. */
function innerCalls(ws: string, deny: string[] = []) {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  const scratch = makeTestWorkspace();
  const ctx: ToolContext = scratch.context({ workspace: ws });
  scratch.cleanup();
  const runInner = async (name: string, args: Record<string, unknown>): Promise<ToolOutcome> => {
    calls.push({ name, args });
    if (deny.includes(String(args.path))) return { ok: false, output: 'denied', status: 'denied', fileChanges: [] };
    return (name === 'delete' ? deleteTool : writeFileTool).execute(args, ctx);
  };
  return { calls, runInner };
}

test("a file only the child changed is proposed as the child's version; untouched files are not proposed", async () => {
  const s = await setup();
  try {
    writeTree(s.wt.root, { 'mine.txt': LINES('child first', 'last'), 'added/new.txt': 'new\n' });
    fs.rmSync(path.join(s.wt.root, 'drop.txt'));
    const inner = innerCalls(s.ws);
    const infos: string[] = [];
    const report = await proposeWorktreeChanges(s.wt, { ...inner, info: (m) => infos.push(m), emit: (e) => s.events.push(e) });
    assert.deepEqual(inner.calls, [
      { name: 'write_file', args: { path: 'added/new.txt', content: 'new\n' } },
      { name: 'delete', args: { path: 'drop.txt' } },
      { name: 'write_file', args: { path: 'mine.txt', content: LINES('child first', 'last') } },
    ]);
    assert.deepEqual(report.written, ['added/new.txt', 'deleted:drop.txt', 'mine.txt']);
    assert.deepEqual([report.rebased, report.flagged, report.declined, infos], [[], [], [], []]);
    assert.equal(read(s.ws, 'mine.txt'), LINES('child first', 'last'));
    assert.equal(read(s.ws, 'added/new.txt'), 'new\n');
    assert.equal(exists(s.ws, 'drop.txt'), false);
    assert.deepEqual(s.events.at(-1), { type: 'worktree_promoted', run_id: 'run-9', paths: report.written });
    assert.equal(report.summary, 'Worktree changes applied: added/new.txt, deleted:drop.txt, mine.txt');
  } finally {
    await s.cleanup();
  }
});

test('a file the user changed elsewhere meanwhile is merged and proposed as rebased', async () => {
  const s = await setup();
  try {
    writeTree(s.wt.root, { 'both.txt': LINES('child first', 'last') });
    writeTree(s.ws, { 'both.txt': LINES('first', 'user last') });
    const inner = innerCalls(s.ws);
    const report = await proposeWorktreeChanges(s.wt, { ...inner, info: () => undefined, emit: (e) => s.events.push(e) });
    assert.deepEqual(inner.calls, [{ name: 'write_file', args: { path: 'both.txt', content: LINES('child first', 'user last') } }]);
    assert.deepEqual([report.written, report.rebased], [['both.txt'], ['both.txt']]);
    assert.equal(read(s.ws, 'both.txt'), LINES('child first', 'user last'));
    assert.equal(report.summary, 'Worktree changes applied: both.txt (rebased on your changes)');
  } finally {
    await s.cleanup();
  }
});

test('a conflict, a binary file and a delete of a file the user changed are flagged, not proposed; main keeps its version', async () => {
  const s = await setup();
  try {
    writeTree(s.wt.root, { 'clash.txt': 'child\n', 'img.bin': Buffer.from([0, 9]).toString('latin1') });
    fs.rmSync(path.join(s.wt.root, 'drop.txt'));
    writeTree(s.ws, { 'clash.txt': 'user\n', 'drop.txt': 'user kept editing\n' });
    const inner = innerCalls(s.ws);
    const infos: string[] = [];
    const before = s.events.length;
    const report = await proposeWorktreeChanges(s.wt, { ...inner, info: (m) => infos.push(m), emit: (e) => s.events.push(e) });
    assert.deepEqual(inner.calls, []);
    assert.deepEqual(report.flagged, [
      'clash.txt (conflicts with your changes)',
      'drop.txt (you changed it, the subagent deleted it)',
      'img.bin (binary)',
    ]);
    assert.deepEqual(infos, [`worktree run-9: not proposed back: ${report.flagged.join(', ')}`]);
    assert.equal(s.events.length, before, 'nothing written: no worktree_promoted');
    assert.equal(read(s.ws, 'clash.txt'), 'user\n');
    assert.equal(read(s.ws, 'drop.txt'), 'user kept editing\n');
    assert.match(report.summary, /^Worktree changes NOT proposed .*: clash\.txt \(conflicts with your changes\), drop\.txt/);
  } finally {
    await s.cleanup();
  }
});

test('a declined proposal is left out of worktree_promoted; the same change made on both sides is not proposed', async () => {
  const s = await setup();
  try {
    writeTree(s.wt.root, { 'mine.txt': 'child\n', 'same.txt': 'both did this\n', 'both.txt': 'child\n' });
    writeTree(s.ws, { 'same.txt': 'both did this\n' });
    const inner = innerCalls(s.ws, ['mine.txt']);
    const report = await proposeWorktreeChanges(s.wt, { ...inner, info: () => undefined, emit: (e) => s.events.push(e) });
    assert.deepEqual(
      inner.calls.map((c) => c.args.path),
      ['both.txt', 'mine.txt'],
    );
    assert.deepEqual([report.written, report.declined], [['both.txt'], ['mine.txt']]);
    assert.deepEqual(s.events.at(-1), { type: 'worktree_promoted', run_id: 'run-9', paths: ['both.txt'] });
    assert.equal(read(s.ws, 'mine.txt'), LINES('first', 'last'));
  } finally {
    await s.cleanup();
  }
});

test('a child that changed nothing proposes nothing and emits no worktree_promoted', async () => {
  const s = await setup();
  try {
    const inner = innerCalls(s.ws);
    const before = s.events.length;
    const report = await proposeWorktreeChanges(s.wt, { ...inner, info: () => undefined, emit: (e) => s.events.push(e) });
    assert.deepEqual([inner.calls, report.written, report.summary, s.events.length], [[], [], '', before]);
  } finally {
    await s.cleanup();
  }
});

test('an abort during the review stops the proposals: nothing after the call that was answering', async () => {
  const s = await setup();
  try {
    writeTree(s.wt.root, { 'both.txt': 'child\n', 'mine.txt': 'child\n', 'same.txt': 'child\n' });
    const controller = new AbortController();
    const calls: unknown[] = [];
    const runInner = async (_name: string, args: Record<string, unknown>): Promise<ToolOutcome> => {
      calls.push(args.path);
      controller.abort();
      return { ok: false, output: 'cancelled', status: 'cancelled', fileChanges: [] };
    };
    const report = await proposeWorktreeChanges(s.wt, {
      runInner,
      info: () => undefined,
      emit: (e) => s.events.push(e),
      signal: controller.signal,
    });
    assert.deepEqual([calls, report.declined, report.written], [['both.txt'], ['both.txt'], []]);
  } finally {
    await s.cleanup();
  }
});

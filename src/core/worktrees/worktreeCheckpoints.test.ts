import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, initRepo, isolateGitConfig, read, writeTree } from '../../../test/support/gitTestSupport';
import { CheckpointManager } from '../checkpoints/checkpointManager';
import { createWorktree, removeWorktree } from './worktree';

let restoreGit: () => void;
before(() => (restoreGit = isolateGitConfig()));
after(() => restoreGit());

test("a checkpoint neither captures a child's worktree nor touches it on restore", async () => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-wtcp-')));
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-wtcp-data-'));
  initRepo(ws);
  writeTree(ws, { 'a.txt': 'a\n' });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
  const wt = await createWorktree(ws, 'run-1', () => undefined);
  try {
    writeTree(wt.root, { 'a.txt': 'child\n', 'made-by-child.txt': 'c\n' });
    const cm = new CheckpointManager({
      workspace: ws,
      indexPath: path.join(data, 'index.jsonl'),
      filesStoreDir: path.join(ws, '.catalyst-code', 'checkpoints'),
      dataDir: path.join(data, 'store'),
    });
    const record = await cm.create({ auto: true });
    assert.equal(await cm.readFileAt(record.id, 'a.txt').then(String), 'a\n');
    assert.equal(await cm.readFileAt(record.id, `.catalyst-code/worktrees/${path.basename(wt.path)}/made-by-child.txt`), null);
    assert.equal(await cm.readFileAt(record.id, `.catalyst-code/worktrees/${path.basename(wt.path)}/a.txt`), null);

    writeTree(ws, { 'a.txt': 'user\n' });
    await cm.restore(record.id);
    assert.equal(read(ws, 'a.txt'), 'a\n');
    assert.equal(read(wt.root, 'a.txt'), 'child\n', 'the restore leaves the worktree alone');
    assert.equal(read(wt.root, 'made-by-child.txt'), 'c\n');
    await cm.idle();
  } finally {
    await removeWorktree(wt, () => undefined);
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(data, { recursive: true, force: true });
  }
});

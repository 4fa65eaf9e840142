import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, startScenario, TEST_MODEL } from '../support/coreScenario';

const edit = (id: string, path: string, search: string, replace: string) => ({ steps: [{ toolCall: { id, name: 'edit', arguments: { path, edits: [{ search, replace }] } } }] });
const write = (id: string, path: string, content: string) => ({ steps: [{ toolCall: { id, name: 'write_file', arguments: { path, content } } }] });

for (const git of [true, false]) {
  test(`checkpoints ${git ? 'in a git repo' : 'outside git'}: auto checkpoint, list, manual create, restore, undo`, async () => {
    const s = await startScenario({
      git,
      approval: 'never',
      files: { 'a.txt': 'alpha\n', 'keep.txt': 'keep\n' },
      script: [edit('e1', 'a.txt', 'alpha', 'ALPHA'), write('w1', 'created.txt', 'new file\n'), { steps: [{ text: 'edited' }] }],
    });
    const ws = s.core.workspace;
    // The index bytes are read first, and status runs without optional locks, so git itself does not refresh the index.
    const gitState = () => {
      if (!git) return [];
      const index = readFileSync(join(ws, '.git/index')).toString('hex');
      const run = (...args: string[]) => execFileSync('git', ['--no-optional-locks', ...args], { cwd: ws, env: gitEnv() }).toString();
      return [index, run('status', '--porcelain', '--untracked-files=all'), run('stash', 'list'), run('branch', '--list')];
    };
    try {
      const before = gitState();
      const events = await s.turn('edit a');
      const created = events.filter((e) => e.type === 'checkpoint_created');
      assert.equal(created.length, 1, 'one auto checkpoint per turn');
      assert.equal(created[0].auto, true);
      assert.equal(created[0].label, 'auto-before-destructive');
      assert.equal(created[0].kind, git ? 'git' : 'files');
      assert.match(created[0].id, /^cp-\d+-[0-9a-f]{16}$/);
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'ALPHA\n');
      if (git) {
        assert.equal(execFileSync('git', ['stash', 'list'], { cwd: ws }).toString(), before[2], 'stash list untouched');
        assert.match(execFileSync('git', ['for-each-ref', 'refs/catcode/checkpoints'], { cwd: ws }).toString(), new RegExp(created[0].id));
      }

      let from = s.core.events.length;
      s.core.send({ type: 'create_checkpoint', label: 'after edit' });
      const manual = await s.core.waitForType('checkpoint_created', { from });
      assert.equal(manual.auto, false);
      s.core.send({ type: 'list_checkpoints' });
      const list = await s.core.waitForType('checkpoints', { from });
      assert.deepEqual(list.checkpoints.map((c: any) => c.label), ['auto-before-destructive', 'after edit']);

      writeFileSync(join(ws, 'a.txt'), 'changed by hand\n');
      writeFileSync(join(ws, 'later.txt'), 'made after the manual checkpoint\n');
      from = s.core.events.length;
      s.core.send({ type: 'restore_checkpoint', id: manual.id });
      await s.core.waitForType('checkpoint_restored', { from });
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'ALPHA\n');
      assert.equal(existsSync(join(ws, 'later.txt')), false, 'files created after the checkpoint are removed');
      assert.equal(readFileSync(join(ws, 'created.txt'), 'utf8'), 'new file\n');

      from = s.core.events.length;
      s.core.send({ type: 'undo' });
      const history = await s.core.waitForType('history', { from });
      assert.equal(history.messages.length, 0, 'the only turn was dropped');
      assert.equal(s.core.ofType('checkpoint_restored', from)[0].id, created[0].id);
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'alpha\n');
      assert.equal(existsSync(join(ws, 'created.txt')), false);
      assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'keep\n');
      if (git) assert.deepEqual(gitState(), before, 'the index bytes, git status (our state dir is ignored), stash list and branches are as before');
    } finally {
      await s.close();
    }
  });
}

test('restore_checkpoint with an unknown id is an error and the core keeps running', async () => {
  const s = await startScenario();
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'restore_checkpoint', id: 'cp-1-0000000000000000' });
    const err = await s.core.waitForType('error', { from });
    assert.match(err.message, /unknown checkpoint/);
    s.core.send({ type: 'send', prompt: 'still alive?', model: TEST_MODEL });
    s.model.enqueue({ steps: [{ text: 'yes' }] });
    await s.core.waitForType('done', { from });
  } finally {
    await s.close();
  }
});

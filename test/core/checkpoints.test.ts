import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatePid, gitGate } from '../support/gitTestSupport';
import { CHECKPOINT_COMPACTION_RESOURCE_KIND, type RuntimeResource } from '../../src/protocol';
import { fnv1a64Hex } from '../../src/protocol/sessionLayout';
import { CoreProcess } from '../support/coreProcess';
import { gitEnv, startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';

const edit = (id: string, path: string, search: string, replace: string) => ({
  steps: [{ toolCall: { id, name: 'edit', arguments: { path, edits: [{ search, replace }] } } }],
});
const write = (id: string, path: string, content: string) => ({
  steps: [{ toolCall: { id, name: 'write_file', arguments: { path, content } } }],
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['--no-optional-locks', ...args], { cwd, env: gitEnv(), maxBuffer: 64 * 1024 * 1024 }).toString();

/**
 * Everything a checkpoint must leave alone in a repository. The index bytes and mtime are read first, and git runs
 * without optional locks, so reading the state does not refresh the index itself.
 */
function repoState(dir: string): string[] {
  const index = join(dir, '.git', 'index');
  return [
    readFileSync(index).toString('hex'),
    String(statSync(index).mtimeMs),
    git(dir, 'status', '--porcelain', '--untracked-files=all'),
    git(dir, 'branch', '--list', '-a', '-v'),
    git(dir, 'stash', 'list'),
    git(dir, 'rev-parse', 'HEAD'),
  ];
}

/** Sends a command and waits for the first event of `type` (matching `pred`) after it. */
async function ask(
  s: { core: CoreProcess },
  cmd: object,
  type: string,
  pred: (e: any) => boolean = () => true,
  timeoutMs = 30000,
): Promise<any> {
  const from = s.core.events.length;
  s.core.send(cmd);
  return s.core
    .waitFor((e) => (e.type === type && pred(e)) || (e.type === 'error' && /checkpoint|invalid_path|busy/.test(String(e.code))), {
      from,
      timeoutMs,
    })
    .then((e) => {
      if (e.type !== type) throw new Error(`expected ${type}, got error ${e.code}: ${e.message}`);
      return e;
    });
}

/** Sends a command that must fail, and returns its error event. */
async function askError(s: Scenario, cmd: object): Promise<any> {
  const from = s.core.events.length;
  s.core.send(cmd);
  return s.core.waitForType('error', { from });
}

const create = (s: Scenario, label: string, extra: object = {}) =>
  ask(s, { type: 'create_checkpoint', label, ...extra }, 'checkpoint_created', undefined, 120000);
const changes = (s: Scenario, id: string) =>
  ask(s, { type: 'checkpoint_changes', id }, 'checkpoint_changes', (e) => e.id === id, 120000).then((e) => e.files);
const restore = (s: Scenario, id: string, paths?: string[]) =>
  ask(s, { type: 'restore_checkpoint', id, ...(paths ? { paths } : {}) }, 'checkpoint_restored', (e) => e.id === id);

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return total;
}

const compactions = (status: any) => (status.resources as RuntimeResource[]).filter((r) => r.kind === CHECKPOINT_COMPACTION_RESOURCE_KIND);

/**
 * Waits for the core's word that no checkpoint store compaction runs: asks `runtime_status` until an answer lists none.
 * Each answer is an event; the deadline only turns a compaction that never ends into a failure instead of a hang.
 */
async function compactionFinished(s: { core: CoreProcess }, hangGuardMs = 120_000): Promise<void> {
  const deadline = Date.now() + hangGuardMs;
  for (;;) {
    const status = await ask(s, { type: 'runtime_status' }, 'runtime_status');
    if (compactions(status).length === 0) return;
    assert.ok(Date.now() < deadline, `the checkpoint store was still being compacted after ${hangGuardMs} ms`);
  }
}

function dataDir(core: CoreProcess): string {
  return join(core.home, '.config', 'catalyst-code', 'checkpoints', fnv1a64Hex(realpathSync(core.workspace)));
}

function shadowDir(s: Scenario): string {
  return join(dataDir(s.core), 'shadow.git');
}

/** Another core on the scenario's workspace and home (its config, sessions and checkpoint stores), handshaken. */
async function nextCore(s: Scenario, env: Record<string, string> = {}): Promise<CoreProcess> {
  const core = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--approval', 'never'], env });
  await core.handshake();
  return core;
}

function exitOf(core: CoreProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => core.child.once('exit', (code, signal) => resolve({ code, signal })));
}

for (const useGit of [true, false]) {
  test(`checkpoints ${useGit ? 'in a git repo' : 'outside git'}: auto checkpoint, list, manual create, restore, undo`, async () => {
    const s = await startScenario({
      git: useGit,
      approval: 'never',
      files: { 'a.txt': 'alpha\n', 'keep.txt': 'keep\n' },
      script: [edit('e1', 'a.txt', 'alpha', 'ALPHA'), write('w1', 'created.txt', 'new file\n'), { steps: [{ text: 'edited' }] }],
    });
    const ws = s.core.workspace;
    try {
      const before = useGit ? repoState(ws) : [];
      const events = await s.turn('edit a');
      const created = events.filter((e) => e.type === 'checkpoint_created');
      assert.equal(created.length, 1, 'one auto checkpoint per turn');
      assert.equal(created[0].auto, true);
      assert.equal(created[0].label, 'auto-before-destructive');
      assert.equal(created[0].kind, useGit ? 'git' : 'files');
      assert.match(created[0].id, /^cp-\d+-[0-9a-f]{16}$/);
      assert.ok(Math.abs(created[0].created_at - Date.now() / 1000) < 120, 'created_at in unix seconds');
      assert.equal(created[0].run_id, events.find((e) => e.type === 'done').run_id, 'emitted in its run');
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'ALPHA\n');
      if (useGit) assert.match(git(ws, 'for-each-ref', 'refs/catcode/checkpoints'), new RegExp(created[0].id));
      else assert.ok(existsSync(shadowDir(s)), 'the shadow repository lives under the config directory');

      const manual = await create(s, 'after edit');
      assert.equal(manual.auto, false);
      const list = await ask(s, { type: 'list_checkpoints' }, 'checkpoints');
      assert.deepEqual(
        list.checkpoints.map((c: any) => [c.label, c.auto, c.run_id]),
        [
          ['auto-before-destructive', true, created[0].run_id],
          ['after edit', false, null],
        ],
      );
      assert.ok(list.checkpoints.every((c: any) => Number.isInteger(c.created_at) && c.created_at < 1e11));

      writeFileSync(join(ws, 'a.txt'), 'changed by hand\n');
      writeFileSync(join(ws, 'later.txt'), 'made after the manual checkpoint\n');
      const restored = await restore(s, manual.id);
      assert.deepEqual([restored.restored, restored.removed], [['a.txt'], ['later.txt']]);
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'ALPHA\n');
      assert.equal(existsSync(join(ws, 'later.txt')), false, 'files created after the checkpoint are removed');
      assert.equal(readFileSync(join(ws, 'created.txt'), 'utf8'), 'new file\n');

      const from = s.core.events.length;
      s.core.send({ type: 'undo' });
      const history = await s.core.waitForType('history', { from });
      assert.equal(history.messages.length, 0, 'the only turn was dropped');
      assert.equal(s.core.ofType('checkpoint_restored', from)[0].id, created[0].id);
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'alpha\n');
      assert.equal(existsSync(join(ws, 'created.txt')), false);
      assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'keep\n');
      assert.equal(existsSync(join(ws, '.catalyst-code', 'checkpoints', created[0].id)), false, 'no file copies in the workspace');
      if (useGit)
        assert.deepEqual(repoState(ws), before, 'the index (bytes and mtime), status, branches, stash list and HEAD are as before');
    } finally {
      await s.close();
    }
  });
}

test('git repo: create, restore and delete never touch the index, branches or stash list', async () => {
  const s = await startScenario({ git: true, files: { 'a.txt': 'a\n', 'src/b.txt': 'b\n', 'gone.txt': 'gone\n' } });
  const ws = s.core.workspace;
  try {
    assert.ok(s.core.ofType('protocol_hello')[0].capabilities.includes('checkpoint_files'));
    git(ws, 'branch', 'feature');
    writeFileSync(join(ws, 'a.txt'), 'stashed change\n');
    git(ws, 'stash', 'push', '-q', '-m', 'user stash');
    writeFileSync(join(ws, 'a.txt'), 'staged\n');
    git(ws, 'add', 'a.txt');
    writeFileSync(join(ws, 'a.txt'), 'staged, then edited\n');
    writeFileSync(join(ws, 'untracked.txt'), 'untracked\n');
    git(ws, 'status'); // let git settle its index before the baseline
    const before = repoState(ws);

    const cp = await create(s, 'baseline');
    assert.equal(cp.kind, 'git');
    assert.deepEqual(repoState(ws), before, 'create');

    writeFileSync(join(ws, 'a.txt'), 'agent rewrote it\n');
    writeFileSync(join(ws, 'src/b.txt'), 'b2\n');
    execFileSync('rm', [join(ws, 'gone.txt'), join(ws, 'untracked.txt')]);
    mkdirSync(join(ws, 'new/dir'), { recursive: true });
    writeFileSync(join(ws, 'new/dir/created.txt'), 'created after the checkpoint\n');
    assert.deepEqual(await changes(s, cp.id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'gone.txt', status: 'deleted' },
      { path: 'new/dir/created.txt', status: 'added' },
      { path: 'src/b.txt', status: 'modified' },
      { path: 'untracked.txt', status: 'deleted' },
    ]);

    const restored = await restore(s, cp.id);
    assert.deepEqual(restored.restored.sort(), ['a.txt', 'gone.txt', 'src/b.txt', 'untracked.txt']);
    assert.deepEqual(restored.removed, ['new/dir/created.txt']);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'staged, then edited\n');
    assert.equal(existsSync(join(ws, 'new')), false, 'the created file and its empty directories are gone');
    assert.deepEqual(await changes(s, cp.id), []);
    assert.deepEqual(repoState(ws), before, 'restore');

    const deleted = await ask(s, { type: 'delete_checkpoint', id: cp.id }, 'checkpoint_deleted');
    assert.equal(deleted.id, cp.id);
    assert.equal(git(ws, 'for-each-ref', 'refs/catcode/checkpoints/'), '');
    assert.deepEqual((await ask(s, { type: 'list_checkpoints' }, 'checkpoints')).checkpoints, []);
    assert.deepEqual(repoState(ws), before, 'delete');
    assert.equal((await askError(s, { type: 'checkpoint_changes', id: cp.id })).code, 'checkpoint_not_found');
  } finally {
    await s.close();
  }
});

test('folder without git: a private shadow repository, invisible to the workspace', async () => {
  const s = await startScenario({
    files: { 'a.txt': 'a\n', 'src/b.txt': 'b\n', '.gitignore': 'secret.env\n', 'secret.env': 'KEY=1\n', 'node_modules/x/i.js': 'dep\n' },
  });
  const ws = s.core.workspace;
  try {
    const cp = await create(s, 'no git');
    assert.equal(cp.kind, 'files');
    const shadow = shadowDir(s);
    const tree = execFileSync('git', ['ls-tree', '-r', '--name-only', `refs/catcode/checkpoints/${cp.id}`], {
      env: { ...gitEnv(), GIT_DIR: shadow },
    }).toString();
    assert.deepEqual(tree.trim().split('\n').sort(), ['.gitignore', 'a.txt', 'src/b.txt'], 'ignored files and build outputs are left out');
    assert.deepEqual(readdirSync(ws).sort(), ['.catalyst-code', '.gitignore', 'a.txt', 'node_modules', 'secret.env', 'src']);
    // Without a session file the index sits in the workspace, as upstream's; no snapshot data does.
    assert.deepEqual(readdirSync(join(ws, '.catalyst-code', 'checkpoints')).sort(), ['.gitignore', 'index.jsonl']);
    assert.throws(
      () => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: ws, stdio: 'pipe' }),
      'the workspace is still not a repository',
    );

    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    writeFileSync(join(ws, 'secret.env'), 'KEY=2\n');
    writeFileSync(join(ws, 'node_modules/x/new.js'), 'new dep\n');
    writeFileSync(join(ws, 'made-later.txt'), 'later\n');
    const restored = await restore(s, cp.id);
    assert.deepEqual([restored.restored, restored.removed], [['a.txt'], ['made-later.txt']]);
    assert.equal(readFileSync(join(ws, 'secret.env'), 'utf8'), 'KEY=2\n', 'ignored files are not touched');
    assert.ok(existsSync(join(ws, 'node_modules/x/new.js')), 'build outputs are not touched');

    await ask(s, { type: 'delete_checkpoint', id: cp.id }, 'checkpoint_deleted');
    const refs = execFileSync('git', ['for-each-ref', 'refs/catcode/checkpoints/'], { env: { ...gitEnv(), GIT_DIR: shadow } }).toString();
    assert.equal(refs, '');
  } finally {
    await s.close();
  }
});

test('a repo with a nested repository: its files are checkpointed and restored, its git state untouched', async () => {
  const s = await startScenario({ git: true, files: { 'top.txt': 'top\n' } });
  const ws = s.core.workspace;
  const nested = join(ws, 'packages', 'lib');
  try {
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, 'lib.txt'), 'lib v1\n');
    writeFileSync(join(nested, '.gitignore'), 'tmp/\n');
    git(nested, 'init', '-q', '-b', 'main');
    git(nested, 'add', '-A');
    git(nested, 'commit', '-q', '-m', 'lib');
    const nestedBefore = repoState(nested);
    const outerBefore = repoState(ws);

    const cp = await create(s, 'with nested');
    writeFileSync(join(nested, 'lib.txt'), 'lib v2\n');
    writeFileSync(join(nested, 'added.txt'), 'added\n');
    mkdirSync(join(nested, 'tmp'));
    writeFileSync(join(nested, 'tmp/scratch'), 'ignored by the nested repo\n');
    assert.deepEqual(await changes(s, cp.id), [
      { path: 'packages/lib/added.txt', status: 'added' },
      { path: 'packages/lib/lib.txt', status: 'modified' },
    ]);
    const file = await ask(s, { type: 'checkpoint_file', id: cp.id, path: 'packages/lib/lib.txt' }, 'checkpoint_file');
    assert.equal(file.content, 'lib v1\n');
    const restored = await restore(s, cp.id);
    assert.deepEqual([restored.restored, restored.removed], [['packages/lib/lib.txt'], ['packages/lib/added.txt']]);
    assert.equal(readFileSync(join(nested, 'lib.txt'), 'utf8'), 'lib v1\n');
    assert.ok(existsSync(join(nested, 'tmp/scratch')));
    assert.deepEqual(repoState(nested), nestedBefore);
    assert.deepEqual(repoState(ws), outerBefore);
  } finally {
    await s.close();
  }
});

test('ignored and oversized files: left out, reported, and never overwritten or deleted', async () => {
  const big = 'x'.repeat(5 * 1024 * 1024 + 10);
  const s = await startScenario({ git: true, files: { '.gitignore': '*.log\n', 'a.txt': 'a\n' } });
  const ws = s.core.workspace;
  try {
    writeFileSync(join(ws, 'debug.log'), 'ignored\n');
    writeFileSync(join(ws, 'huge.bin'), big);
    const from = s.core.events.length;
    const cp = await create(s, 'sizes');
    assert.deepEqual(cp.skipped, ['huge.bin']);
    assert.equal(cp.max_file_bytes, 5 * 1024 * 1024);
    const notice = await s.core.waitFor((e) => e.type === 'info' && /left out 1 file/.test(e.message), { from });
    assert.match(notice.message, /over 5 MB.*huge\.bin/);
    const tree = git(ws, 'ls-tree', '-r', '--name-only', `refs/catcode/checkpoints/${cp.id}`);
    assert.deepEqual(tree.trim().split('\n').sort(), ['.gitignore', 'a.txt']);
    const list = await ask(s, { type: 'list_checkpoints' }, 'checkpoints');
    assert.deepEqual(list.checkpoints[0].skipped, ['huge.bin']);

    writeFileSync(join(ws, 'debug.log'), 'ignored, changed\n');
    writeFileSync(join(ws, 'huge.bin'), big + 'more');
    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    assert.deepEqual(await changes(s, cp.id), [{ path: 'a.txt', status: 'modified' }]);
    await restore(s, cp.id);
    assert.equal(readFileSync(join(ws, 'debug.log'), 'utf8'), 'ignored, changed\n');
    assert.equal(statSync(join(ws, 'huge.bin')).size, big.length + 4);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a\n');
  } finally {
    await s.close();
  }
});

test('restore with paths, checkpoint_changes statuses, checkpoint_file answers and errors', async () => {
  const s = await startScenario({ git: true, files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'img.bin': '' } });
  const ws = s.core.workspace;
  try {
    writeFileSync(join(ws, 'img.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0xff]));
    const cp = await create(s, 'paths');
    writeFileSync(join(ws, 'a.txt'), 'a2\n');
    writeFileSync(join(ws, 'b.txt'), 'b2\n');
    execFileSync('rm', [join(ws, 'c.txt')]);
    writeFileSync(join(ws, 'd.txt'), 'd\n');
    writeFileSync(join(ws, 'e.txt'), 'e\n');
    assert.deepEqual(await changes(s, cp.id), [
      { path: 'a.txt', status: 'modified' },
      { path: 'b.txt', status: 'modified' },
      { path: 'c.txt', status: 'deleted' },
      { path: 'd.txt', status: 'added' },
      { path: 'e.txt', status: 'added' },
    ]);

    const some = await restore(s, cp.id, ['a.txt', 'c.txt', 'd.txt']);
    assert.deepEqual([some.restored.sort(), some.removed], [['a.txt', 'c.txt'], ['d.txt']]);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a\n');
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'b2\n', 'paths not asked for are left alone');
    assert.ok(existsSync(join(ws, 'e.txt')));
    assert.deepEqual(await changes(s, cp.id), [
      { path: 'b.txt', status: 'modified' },
      { path: 'e.txt', status: 'added' },
    ]);

    const text = await ask(s, { type: 'checkpoint_file', id: cp.id, path: 'b.txt' }, 'checkpoint_file', (e) => e.path === 'b.txt');
    assert.deepEqual([text.exists, text.content], [true, 'b\n']);
    const missing = await ask(s, { type: 'checkpoint_file', id: cp.id, path: 'e.txt' }, 'checkpoint_file', (e) => e.path === 'e.txt');
    assert.deepEqual([missing.exists, missing.content], [false, undefined]);
    const binary = await ask(s, { type: 'checkpoint_file', id: cp.id, path: 'img.bin' }, 'checkpoint_file', (e) => e.path === 'img.bin');
    assert.deepEqual([binary.exists, binary.binary, binary.content], [true, true, undefined]);

    const outside = await askError(s, { type: 'checkpoint_file', id: cp.id, path: '../etc/passwd' });
    assert.equal(outside.code, 'invalid_path');
    assert.equal((await askError(s, { type: 'restore_checkpoint', id: cp.id, paths: ['/etc/passwd'] })).code, 'invalid_path');
    assert.equal((await askError(s, { type: 'checkpoint_file', id: 'cp-1-0000000000000000', path: 'a.txt' })).code, 'checkpoint_not_found');
    assert.equal((await askError(s, { type: 'delete_checkpoint', id: 'cp-1-0000000000000000' })).code, 'checkpoint_not_found');
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'b2\n', 'failed requests change nothing');
  } finally {
    await s.close();
  }
});

/** A workspace of 10,000 small files in 100 directories; optionally committed (with git's own auto-gc off). */
function tenThousandFiles(useGit: boolean): string {
  const ws = mkdtempSync(join(tmpdir(), 'core-ws-10k-'));
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(ws, 'src', `d${d}`), { recursive: true });
    for (let i = d; i < 10_000; i += 100) writeFileSync(join(ws, 'src', `d${d}`, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  if (useGit) {
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'config', 'gc.auto', '0'); // no background gc racing the measurement and the cleanup
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', '10k');
  }
  return ws;
}

test('a second checkpoint of an unchanged 10k-file tree adds near-zero storage (git and shadow)', async () => {
  for (const useGit of [true, false]) {
    const s = await startScenario({ workspace: tenThousandFiles(useGit) });
    try {
      const objects = useGit ? join(s.core.workspace, '.git', 'objects') : join(shadowDir(s), 'objects');
      await create(s, 'first');
      await compactionFinished(s); // the shadow store packs its 10k new loose objects in the background
      const before = dirBytes(objects);
      const second = await create(s, 'second');
      assert.deepEqual(await changes(s, second.id), []);
      await compactionFinished(s);
      const growth = dirBytes(objects) - before;
      assert.ok(growth < 100 * 1024, `${useGit ? 'git' : 'shadow'}: the second checkpoint added ${growth} bytes`);
    } finally {
      await s.close();
    }
  }
});

test('the automatic checkpoint has a time budget: past it the turn goes on and the core says so', async () => {
  const s = await startScenario({
    git: true,
    approval: 'never',
    env: { CATALYST_CODE_CHECKPOINT_BUDGET_MS: '1' },
    files: { 'a.txt': 'a\n' },
    script: [write('w1', 'a.txt', 'written anyway\n'), { steps: [{ text: 'done' }] }],
  });
  try {
    const events = await s.turn('write');
    const timeout = events.find((e) => e.type === 'error' && e.code === 'checkpoint_timeout');
    assert.ok(timeout, 'a checkpoint_timeout error');
    assert.match(timeout.message, /No checkpoint for this turn/);
    assert.equal(events.filter((e) => e.type === 'checkpoint_created').length, 0);
    assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'written anyway\n', 'the tool still ran');
    assert.deepEqual((await ask(s, { type: 'list_checkpoints' }, 'checkpoints')).checkpoints, []);
    assert.equal(git(s.core.workspace, 'for-each-ref', 'refs/catcode/checkpoints/'), '', 'an abandoned snapshot leaves no ref');
  } finally {
    await s.close();
  }
});

test('deleting a session deletes its checkpoints and their refs', async () => {
  const s = await startScenario({ git: true, files: { 'a.txt': 'a\n' } });
  const ws = s.core.workspace;
  try {
    const one = await ask(s, { type: 'new_session', path: 'one.jsonl' }, 'session_changed');
    const cp1 = await create(s, 'in one');
    const cp2 = await create(s, 'also in one');
    await ask(s, { type: 'new_session', path: 'two.jsonl' }, 'session_changed');
    const kept = await create(s, 'in two');
    const index = one.path.replace(/\.jsonl$/, '.checkpoints.jsonl');
    assert.ok(existsSync(index));
    await ask(s, { type: 'delete_session', path: 'one.jsonl' }, 'session_deleted');
    const refs = git(ws, 'for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/').trim();
    assert.equal(refs, `refs/catcode/checkpoints/${kept.id}`, `${cp1.id} and ${cp2.id} are gone`);
    assert.equal(existsSync(index), false);
    assert.deepEqual(
      (await ask(s, { type: 'list_checkpoints' }, 'checkpoints')).checkpoints.map((c: any) => c.id),
      [kept.id],
    );
  } finally {
    await s.close();
  }
});

test('restore_checkpoint with an unknown id is an error and the core keeps running', async () => {
  const s = await startScenario();
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'restore_checkpoint', id: 'cp-1-0000000000000000' });
    const err = await s.core.waitForType('error', { from });
    assert.equal(err.code, 'checkpoint_not_found');
    assert.match(err.message, /unknown checkpoint/);
    s.core.send({ type: 'send', prompt: 'still alive?', model: TEST_MODEL });
    s.model.enqueue({ steps: [{ text: 'yes' }] });
    await s.core.waitForType('done', { from });
  } finally {
    await s.close();
  }
});

for (const how of ['stdin closed', 'SIGTERM'] as const) {
  test(`a core exiting (${how}) while the shadow store is compacted stops the gc, and the store works for the next core`, async () => {
    const s = await startScenario({ files: { 'a.txt': 'a\n' }, handshake: false });
    await s.core.close(); // only the workspace, home and model server are used: the cores below hold the gate
    const gate = gitGate('gc');
    let gated: CoreProcess | undefined;
    let next: CoreProcess | undefined;
    try {
      gated = await nextCore(s, { PATH: `${gate.binDir}:${process.env.PATH ?? ''}` });
      const cpFrom = gated.events.length;
      gated.send({ type: 'create_checkpoint', label: 'one' });
      const cp = await gated.waitForType('checkpoint_created', { from: cpFrom });
      const paused = await gate.waitFor(/^paused \d+ .*gc --quiet --auto$/);
      const exited = exitOf(gated);
      if (how === 'SIGTERM') gated.child.kill('SIGTERM');
      else gated.child.stdin.end();
      assert.deepEqual(await exited, { code: 0, signal: null }, 'a clean exit');
      assert.deepEqual(gate.lines(), [paused, `stopped ${gatePid(paused)}`], 'the core stopped its gc before exiting');
      assert.deepEqual(
        readdirSync(shadowDir(s)).filter((n) => n === 'gc.pid' || n.endsWith('.lock')),
        [],
        'no lock left behind',
      );

      next = await nextCore(s);
      const created = await ask({ core: next }, { type: 'create_checkpoint', label: 'two' }, 'checkpoint_created');
      await ask({ core: next }, { type: 'delete_checkpoint', id: cp.id }, 'checkpoint_deleted', (e) => e.id === cp.id);
      const refs = execFileSync('git', ['for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/'], {
        env: { ...gitEnv(), GIT_DIR: shadowDir(s) },
      })
        .toString()
        .trim();
      assert.equal(refs, `refs/catcode/checkpoints/${created.id}`);
    } finally {
      await gated?.close();
      await next?.close();
      gate.dispose();
      await s.close();
    }
  });
}

test('runtime_status lists the shadow store compaction while its git gc runs, and no more once gc has exited', async () => {
  const s = await startScenario({ files: { 'a.txt': 'a\n' }, handshake: false });
  await s.core.close(); // only the workspace, home and model server are used: the core below holds the gate
  const gate = gitGate('gc');
  let gated: CoreProcess | undefined;
  try {
    gated = await nextCore(s, { PATH: `${gate.binDir}:${process.env.PATH ?? ''}` });
    const core = { core: gated };
    await ask(core, { type: 'create_checkpoint', label: 'one' }, 'checkpoint_created');
    const paused = await gate.waitFor(/^paused \d+ .*gc --quiet --auto$/);
    const status = await ask(core, { type: 'runtime_status' }, 'runtime_status');
    const [listed, ...more] = compactions(status);
    assert.ok(listed, 'the held gc is listed');
    assert.equal(more.length, 0);
    assert.equal(typeof listed.id, 'number');
    assert.deepEqual([listed.session_id, listed.run_id, listed.cancelled], [status.session_id, null, false]);
    await gate.release();
    await compactionFinished(core);
    assert.deepEqual(gate.lines(), [paused, `finished ${gatePid(paused)} 0`], 'listed until its git had run to the end');
  } finally {
    await gated?.close();
    gate.dispose();
    await s.close();
  }
});

const KILL_POINTS = [
  { when: 'while its snapshot is being built', gate: () => gitGate('update-index') },
  { when: 'after its ref was written, before it was recorded', gate: () => gitGate('update-ref', { afterRun: true }) },
];

for (const point of KILL_POINTS) {
  test(`a core started after one was killed ${point.when} sweeps what it left before any checkpoint work`, async () => {
    const s = await startScenario({ git: true, files: { 'a.txt': 'a\n' } });
    const gate = point.gate();
    let killed: CoreProcess | undefined;
    let next: CoreProcess | undefined;
    const refs = () => git(s.core.workspace, 'for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/').trim().split('\n');
    try {
      const cp = await create(s, 'before the kill');
      await s.core.close();
      writeFileSync(join(s.core.workspace, 'b.txt'), 'new since\n'); // so the next snapshot has a file to update
      killed = await nextCore(s, { PATH: `${gate.binDir}:${process.env.PATH ?? ''}` });
      killed.send({ type: 'create_checkpoint', label: 'killed half-way' });
      await gate.waitFor(/^paused \d+ /);
      const scratchDir = join(dataDir(s.core), 'repo');
      const scratch = () => readdirSync(scratchDir).filter((n) => n.startsWith('tmp-'));
      assert.equal(scratch().length, 1, 'the snapshot is under way in its scratch directory');
      assert.match(scratch()[0], new RegExp(`^tmp-${killed.child.pid}-`));
      await killed.kill();
      gate.dispose(); // the held git outlived its core

      next = await nextCore(s);
      const file = await ask({ core: next }, { type: 'checkpoint_file', id: cp.id, path: 'a.txt' }, 'checkpoint_file');
      assert.equal(file.content, 'a\n');
      assert.deepEqual(scratch(), [], 'the killed snapshot’s scratch is gone once the next core answered a checkpoint command');
      assert.deepEqual(refs(), [`refs/catcode/checkpoints/${cp.id}`], 'no ref of a checkpoint that was never recorded');
      assert.deepEqual(
        (await ask({ core: next }, { type: 'list_checkpoints' }, 'checkpoints')).checkpoints.map((c: any) => c.id),
        [cp.id],
      );
    } finally {
      await killed?.kill();
      await next?.close();
      gate.dispose();
      await s.close();
    }
  });
}

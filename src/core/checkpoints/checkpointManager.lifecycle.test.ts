// The shadow store's background compaction and what a killed core leaves behind: a session's deletion cuts a running
// `git gc --auto` short and runs the full one it asks for, `idle()` waits for it, the core's exit stops it, and a store
// opened again is swept of abandoned scratch and of git locks no process holds any more.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointManager } from './checkpointManager';
import { gatePid, gitGate, isolateGitConfig, writeTree, type GitGate } from '../../../test/support/gitTestSupport';
import { processStartTicks } from '../platform/processIdentity';
import { STALE_GIT_LOCK_MS } from './staleGitLocks';

let restoreGitConfig: () => void;
before(() => {
  restoreGitConfig = isolateGitConfig();
});
after(() => restoreGitConfig());

let tmp: string;
let ws: string;
let managers: CheckpointManager[];
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cp-life-'));
  ws = path.join(tmp, 'ws');
  fs.mkdirSync(ws);
  writeTree(ws, { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
  managers = [];
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.idle()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const indexPath = () => path.join(tmp, 'session.checkpoints.jsonl');
const storeDir = () => path.join(ws, '.catalyst-code', 'checkpoints');

function manager(dataDir: string): CheckpointManager {
  const cm = new CheckpointManager({ workspace: ws, indexPath: indexPath(), filesStoreDir: storeDir(), dataDir });
  managers.push(cm);
  return cm;
}

function shadowGit(dataDir: string, ...args: string[]): string {
  return execFileSync('git', args, { env: { ...process.env, GIT_DIR: path.join(dataDir, 'shadow.git') }, encoding: 'utf8' }).trim();
}

/** Puts a gate for `subcommand` first on PATH for the git this process runs. */
function withGate(subcommand: string): GitGate {
  const gate = gitGate(subcommand);
  const savedPath = process.env.PATH;
  process.env.PATH = `${gate.binDir}${path.delimiter}${savedPath ?? ''}`;
  const dispose = gate.dispose.bind(gate);
  gate.dispose = () => {
    process.env.PATH = savedPath;
    dispose();
  };
  return gate;
}

/** A pid that certainly belongs to no running process: a child that has already exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('the shadow store’s background compaction', () => {
  test('deleting a session’s checkpoints cuts a running gc short, then runs the full one; idle() waits for it', async () => {
    const dataDir = path.join(tmp, 'data');
    const gate = withGate('gc');
    try {
      const cm = manager(dataDir);
      await cm.create({ auto: false, label: 'one' });
      await gate.waitFor(/^paused \d+ .*gc --quiet --auto$/);

      assert.equal(await cm.deleteAll(), 1);
      const [auto, stopped] = gate.lines();
      assert.match(auto, /gc --quiet --auto$/);
      assert.equal(stopped, `stopped ${gatePid(auto)}`, 'the --auto gc was stopped before the refs were deleted');
      assert.equal(shadowGit(dataDir, 'for-each-ref', 'refs/catcode/checkpoints/'), '');

      const full = await gate.waitFor(/^paused \d+ .*gc --quiet$/);
      const linesWhenIdle = cm.idle().then(() => gate.lines());
      await gate.release();
      assert.equal((await linesWhenIdle).at(-1), `finished ${gatePid(full)} 0`, 'idle() resolved after the full gc');
      fs.rmSync(dataDir, { recursive: true });
      assert.equal(fs.existsSync(dataDir), false);
    } finally {
      gate.dispose();
    }
  });

  test('the core’s exit gives a running gc its grace, then stops it and waits for it to end', async () => {
    const dataDir = path.join(tmp, 'data');
    const gate = withGate('gc');
    try {
      const cm = manager(dataDir);
      await cm.create({ auto: false });
      const first = await gate.waitFor(/^paused \d+ .*--auto$/);
      const linesWhenFinished = cm.finishBackgroundWork(60_000).then(() => gate.lines());
      await gate.release();
      assert.equal((await linesWhenFinished).at(-1), `finished ${gatePid(first)} 0`, 'a gc that ends within the grace ends by itself');

      const from = gate.lines().length;
      await cm.create({ auto: false });
      const second = await gate.waitFor(/^paused \d+ .*--auto$/, { from });
      await cm.finishBackgroundWork(0);
      assert.equal(
        gate.lines().at(-1),
        `stopped ${gatePid(second)}`,
        'past its grace the gc is stopped, and finishBackgroundWork waits for that',
      );
      assert.deepEqual(
        fs.readdirSync(path.join(dataDir, 'shadow.git')).filter((n) => n === 'gc.pid' || n.endsWith('.lock')),
        [],
      );
    } finally {
      gate.dispose();
    }
  });
});

describe('a store opened again after a core was killed', () => {
  test('stale git locks of the shadow store are removed; a lock in use is not', async () => {
    const before = path.join(tmp, 'data-before');
    const cm1 = manager(before);
    const one = await cm1.create({ auto: false, label: 'one' });
    const two = await cm1.create({ auto: false, label: 'two' });
    await cm1.idle();
    shadowGit(before, 'pack-refs', '--all');
    // What a git killed outright leaves: packed-refs.lock (pack-refs), gc.pid naming a pid now used by another program.
    const gitDir = path.join(before, 'shadow.git');
    const stale = new Date(Date.now() - 2 * STALE_GIT_LOCK_MS);
    fs.writeFileSync(path.join(gitDir, 'packed-refs.lock'), '');
    fs.utimesSync(path.join(gitDir, 'packed-refs.lock'), stale, stale);
    // Where /proc tells what a pid runs (Linux) this test's own pid, a live process but no git; elsewhere a dead one.
    const gcPidOwner = process.platform === 'linux' ? process.pid : deadPid();
    fs.writeFileSync(path.join(gitDir, 'gc.pid'), `${gcPidOwner} ${os.hostname()}`);
    const inUse = path.join(gitDir, 'refs', 'catcode', 'checkpoints', 'cp-elsewhere.lock');
    fs.mkdirSync(path.dirname(inUse), { recursive: true });
    fs.writeFileSync(inUse, '');
    // A new core process: this one has already opened `before`, so the store is opened again under another name.
    const dataDir = path.join(tmp, 'data');
    fs.renameSync(before, dataDir);

    const cm = manager(dataDir);
    await cm.delete(one.id);
    assert.equal(
      shadowGit(dataDir, 'for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/'),
      `refs/catcode/checkpoints/${two.id}`,
    );
    assert.equal(await cm.deleteAll(), 1);
    await cm.idle();
    const counts = Object.fromEntries(
      shadowGit(dataDir, 'count-objects', '-v')
        .split('\n')
        .map((l) => l.split(': ')),
    );
    assert.ok(Number(counts['in-pack']) > 0, `the full gc ran and packed the store: ${JSON.stringify(counts)}`);
    assert.equal(fs.existsSync(path.join(dataDir, 'shadow.git', 'gc.pid')), false);
    assert.equal(fs.existsSync(path.join(dataDir, path.relative(before, inUse))), true, 'a fresh lock may be held');
  });

  test('the ref of a checkpoint its killed core never recorded is deleted; a recorded one stays', async () => {
    const before = path.join(tmp, 'data-before');
    const cm1 = manager(before);
    const kept = await cm1.create({ auto: false, label: 'recorded' });
    // As a core killed right after writing a ref leaves it: the ref, and its snapshot's scratch naming it.
    const dead = deadPid();
    const orphan = 'cp-1700000000-00000000000000ff';
    shadowGit(before, 'update-ref', `refs/catcode/checkpoints/${orphan}`, kept.stash_sha);
    const abandoned = (id: string, name: string) => {
      const dir = path.join(before, 'shadow', name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'checkpoint.json'), JSON.stringify({ id, indexPath: indexPath() }));
      return dir;
    };
    const unrecorded = abandoned(orphan, `tmp-${dead}-4242-abc123`);
    const recorded = abandoned(kept.id, `tmp-${dead}-4242-def456`); // killed after recording, before cleaning up
    await cm1.create({ auto: false, label: 'a snapshot of a living core' });
    assert.ok(fs.existsSync(unrecorded), 'a snapshot leaves scratch naming a pending checkpoint to the store’s opening');
    await cm1.idle();
    const dataDir = path.join(tmp, 'data');
    fs.renameSync(before, dataDir); // opened again, as by a new core process

    const cm = manager(dataDir);
    assert.deepEqual(await cm.changedFiles(kept.id), []);
    const refs = shadowGit(dataDir, 'for-each-ref', '--format=%(refname)', 'refs/catcode/checkpoints/').split('\n');
    assert.deepEqual(
      refs,
      cm
        .list()
        .map((r) => `refs/catcode/checkpoints/${r.id}`)
        .sort(),
      'every ref is a listed checkpoint',
    );
    assert.ok(refs.includes(`refs/catcode/checkpoints/${kept.id}`));
    for (const dir of [unrecorded, recorded]) assert.equal(fs.existsSync(path.join(dataDir, 'shadow', path.basename(dir))), false);
  });

  test('abandoned scratch is swept before the first operation; a living core’s scratch stays', async () => {
    const dataDir = path.join(tmp, 'data');
    const dead = deadPid();
    const abandoned = [
      path.join(dataDir, 'shadow', `tmp-${dead}-4242-abc123`),
      path.join(dataDir, 'shadow', `catcode-restore-${dead}-def456`),
      path.join(dataDir, 'repo', `tmp-${dead}-ghi789`),
      path.join(dataDir, `.init-${dead}-jkl012`),
      path.join(storeDir(), `.restore-${dead}-mno345`),
      // The pid lives (it is this test's) but the start time is not its process's: a reused pid.
      path.join(dataDir, 'shadow', `tmp-${process.pid}-1-pqr678`),
    ];
    const parentStart = processStartTicks(process.ppid);
    const living = path.join(dataDir, 'shadow', `tmp-${process.ppid}-${parentStart === undefined ? '' : `${parentStart}-`}stu901`);
    for (const d of [...abandoned, living]) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'index'), 'partial');
    }
    const cm = manager(dataDir);
    assert.deepEqual(cm.list(), []);
    assert.equal(await cm.readFileAt('cp-1-0000000000000000', 'a.txt').catch((e: Error) => e.name), 'CheckpointNotFoundError');
    assert.deepEqual(
      abandoned.filter((d) => fs.existsSync(d)),
      [],
      'abandoned scratch is gone',
    );
    assert.equal(fs.existsSync(living), true, 'the scratch of a living core stays');
  });
});

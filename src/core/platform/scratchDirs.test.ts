import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processStartTicks } from './processIdentity';
import { makeScratchDir, ownScratchTag, SCRATCH_ABANDONED_AFTER_MS, sweepAbandonedScratch } from './scratchDirs';

function tempParent(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-test-'));
}

/** A pid that certainly belongs to no running process: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** The tag the test runner (this process's parent, alive throughout) would give its scratch. */
function parentTag(): string {
  const start = processStartTicks(process.ppid);
  return start === undefined ? `${process.ppid}` : `${process.ppid}-${start}`;
}

function makeDirs(parent: string, names: string[]): string[] {
  return names.map((name) => {
    const dir = path.join(parent, name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'index'), 'partial');
    return dir;
  });
}

describe('scratch directories of checkpoint snapshots', () => {
  test('carry the pid and start time and are swept once their core is gone; a live core keeps its own', () => {
    const parent = tempParent();
    const [abandoned, legacy, untaggedDead, alive, other] = makeDirs(parent, [
      `tmp-${deadPid()}-4242-abc123`,
      'tmp-XyZ123',
      `tmp-${deadPid()}-abc123`,
      `tmp-${parentTag()}-def456`,
      'objects',
    ]);

    const mine = makeScratchDir(parent, 'tmp-');
    assert.match(path.basename(mine), new RegExp(`^tmp-${ownScratchTag()}-[A-Za-z0-9]{6}$`));
    if (process.platform === 'linux') assert.match(ownScratchTag(), /^\d+-\d+$/, 'on Linux the start time is in the name');
    assert.equal(fs.existsSync(abandoned), false, 'the dead core’s scratch is gone');
    assert.equal(fs.existsSync(legacy), false, 'pid-less scratch from before is gone');
    assert.equal(fs.existsSync(untaggedDead), false, 'scratch with a pid but no start time, of a dead core, is gone');
    assert.equal(fs.existsSync(alive), true, 'a living process’s scratch stays');
    assert.equal(fs.existsSync(other), true, 'other entries are not touched');

    sweepAbandonedScratch(parent, 'tmp-');
    assert.equal(fs.existsSync(mine), true, 'this process’s own scratch stays');
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test('a pid that is alive but now names another process does not keep abandoned scratch', () => {
    const parent = tempParent();
    // This process lives, but it did not start at tick 1: a core with the same pid, long gone, made these.
    const [reusedOwnPid, reusedOtherPid, untaggedOwnPid] = makeDirs(parent, [
      `tmp-${process.pid}-1-abc123`,
      `tmp-${process.ppid}-1-def456`,
      `tmp-${process.pid}-ghi789`,
    ]);
    sweepAbandonedScratch(parent, 'tmp-');
    assert.equal(fs.existsSync(reusedOwnPid), false, 'this process’s pid with another start time');
    assert.equal(
      fs.existsSync(reusedOtherPid),
      process.platform !== 'linux',
      'a living pid with another start time (where it can be read)',
    );
    assert.equal(
      fs.existsSync(untaggedOwnPid),
      processStartTicks(process.pid) === undefined,
      'this process tags its scratch wherever it can',
    );
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test('where no start time tells, scratch older than any snapshot is abandoned even if its pid lives', () => {
    const parent = tempParent();
    const [old, fresh] = makeDirs(parent, [`tmp-${process.ppid}-abc123`, `tmp-${process.ppid}-def456`]);
    const longAgo = new Date(Date.now() - SCRATCH_ABANDONED_AFTER_MS - 60_000);
    fs.utimesSync(old, longAgo, longAgo);
    sweepAbandonedScratch(parent, 'tmp-');
    assert.equal(fs.existsSync(old), false, 'older than SCRATCH_ABANDONED_AFTER_MS');
    assert.equal(fs.existsSync(fresh), true, 'a recent one of a living pid stays');
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test('a missing parent is not an error', () => {
    assert.doesNotThrow(() => sweepAbandonedScratch(path.join(os.tmpdir(), 'no-such-dir-for-scratch-test'), 'tmp-'));
  });
});

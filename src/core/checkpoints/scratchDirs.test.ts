import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeScratchDir, sweepAbandonedScratch } from './scratchDirs';

function tempParent(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-test-'));
}

/** A pid that certainly belongs to no running process: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('scratch directories of checkpoint snapshots', () => {
  test('carry the pid and are swept once their core is gone; a live core keeps its own', () => {
    const parent = tempParent();
    const abandoned = path.join(parent, `tmp-${deadPid()}-abc123`);
    const legacy = path.join(parent, 'tmp-XyZ123');
    const alive = path.join(parent, `tmp-${process.ppid}-def456`);
    const other = path.join(parent, 'objects');
    for (const d of [abandoned, legacy, alive, other]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(abandoned, 'index'), 'partial');

    const mine = makeScratchDir(parent, 'tmp-');
    assert.match(path.basename(mine), new RegExp(`^tmp-${process.pid}-`));
    assert.equal(fs.existsSync(abandoned), false, 'the dead core’s scratch is gone');
    assert.equal(fs.existsSync(legacy), false, 'pid-less scratch from before is gone');
    assert.equal(fs.existsSync(alive), true, 'a living process’s scratch stays');
    assert.equal(fs.existsSync(other), true, 'other entries are not touched');

    sweepAbandonedScratch(parent, 'tmp-');
    assert.equal(fs.existsSync(mine), true, 'this process’s own scratch stays');
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test('a missing parent is not an error', () => {
    assert.doesNotThrow(() => sweepAbandonedScratch(path.join(os.tmpdir(), 'no-such-dir-for-scratch-test'), 'tmp-'));
  });
});

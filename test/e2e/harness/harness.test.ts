import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { corePidsUnder, descendantsOf, isAlive } from './processTree';
import { labelPattern } from './quickInput';
import { filesContaining } from './secretScan';
import { waitUntil } from './wait';
import { frameIntervals, percentile } from './webviewProbe';

describe('e2e harness helpers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-harness-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('matches palette labels exactly, with … and ... interchangeable', () => {
    assert.ok(labelPattern('Catalyst: Log In…').test('Catalyst: Log In...'));
    assert.ok(labelPattern('Catalyst: Log In…').test('Catalyst: Log In…'));
    assert.ok(!labelPattern('Catalyst: Open Chat').test('Catalyst: Open Chat in Editor'));
    assert.ok(labelPattern('Open Chat', false).test('Catalyst: Open Chat in Editor'));
    assert.ok(labelPattern('a.b (c)').test('a.b (c)') && !labelPattern('a.b (c)').test('axb (c)'));
  });

  it('finds a secret stored as UTF-8 or UTF-16 and reports only those files', () => {
    mkdirSync(join(dir, 'nested'), { recursive: true });
    writeFileSync(join(dir, 'nested', 'utf8.log'), 'before sk-secret-123 after');
    writeFileSync(join(dir, 'utf16.bin'), Buffer.from('xx sk-secret-123 yy', 'utf16le'));
    writeFileSync(join(dir, 'clean.txt'), 'sk-secret-12 nothing here');
    const hits = filesContaining(dir, 'sk-secret-123')
      .map((f) => f.slice(dir.length + 1))
      .sort();
    assert.deepEqual(hits, ['nested/utf8.log', 'utf16.bin']);
  });

  it('finds a dist/core.js process among the descendants of a process', async () => {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'core.js'), 'setTimeout(() => {}, 60000);');
    writeFileSync(
      join(dir, 'parent.js'),
      `require('child_process').spawn(process.execPath, [${JSON.stringify(join(dir, 'dist', 'core.js'))}, '--workspace', '.'], { stdio: 'ignore' }); setTimeout(() => {}, 60000);`,
    );
    const parent = spawn(process.execPath, [join(dir, 'parent.js')], { stdio: 'ignore' });
    try {
      const [core] = await waitUntil(
        () => {
          const pids = corePidsUnder(parent.pid!);
          return pids.length === 1 ? pids : undefined;
        },
        { timeoutMs: 10_000, what: 'the child core' },
      );
      assert.ok(descendantsOf(parent.pid!).includes(core));
      assert.ok(isAlive(core));
      assert.deepEqual(
        corePidsUnder(process.pid).filter((p) => p === core),
        [core],
      );
      process.kill(core, 'SIGKILL');
      await waitUntil(() => corePidsUnder(parent.pid!).length === 0, { timeoutMs: 10_000, what: 'the core to be gone' });
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('measures frame intervals inside a window and percentiles', () => {
    const frames = [0, 16, 33, 50, 120, 136];
    assert.deepEqual(frameIntervals(frames, 20, 125), [17, 17, 70, 16]);
    assert.deepEqual(frameIntervals(frames, 60, 100), [70]);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
    assert.equal(percentile([5, 1, 3], 50), 3);
    assert.ok(Number.isNaN(percentile([], 95)));
  });
});

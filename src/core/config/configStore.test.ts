import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseCli } from './cli';
import { loadConfig } from './config';
import { ConfigStore, removeProvider, upsertProvider } from './configStore';
import { withFileLockSync } from '../platform/fileLock';
import { findPreset } from './presets';
import { providerFromPreset } from './providers';

let root: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'store-test-'));
  dir = join(root, 'home', '.config', 'catalyst-code');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('ConfigStore', () => {
  test('update creates the directory and writes config.json atomically with mode 0600', () => {
    const store = new ConfigStore(dir);
    assert.deepEqual(store.read(), {});
    store.update((c) => {
      c.search_keys = { exa: 'k' };
    });
    store.update((c) => {
      c.other = 1;
    });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')), { search_keys: { exa: 'k' }, other: 1 });
    assert.deepEqual(store.read(), { search_keys: { exa: 'k' }, other: 1 });
    if (process.platform !== 'win32') assert.equal(statSync(join(dir, 'config.json')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['config.json'], 'no temp or lock file is left behind');
  });

  test('read() is {} for malformed or non-object content; update keeps a copy of a malformed file', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"providers": [');
    const store = new ConfigStore(dir);
    assert.deepEqual(store.read(), {});
    store.update((c) => {
      c.activeProvider = 'x';
    });
    assert.deepEqual(store.read(), { activeProvider: 'x' });
    const backups = readdirSync(dir).filter((n) => n.startsWith('config.json.malformed-'));
    assert.equal(backups.length, 1);
    assert.equal(readFileSync(join(dir, backups[0]), 'utf8'), '{"providers": [');
    writeFileSync(join(dir, 'config.json'), '"a string"');
    assert.deepEqual(store.read(), {});
  });

  test('a mutator that throws writes nothing and releases the lock', () => {
    const store = new ConfigStore(dir);
    store.update((c) => {
      c.a = 1;
    });
    assert.throws(
      () =>
        store.update((c) => {
          c.a = 2;
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.deepEqual(store.read(), { a: 1 });
    assert.equal(existsSync(store.lockFile), false);
  });

  test('waits for a lock held by another process, then reads what that process wrote', async () => {
    // The child takes the lock and writes config.json only once this process has found the lock held: without waiting
    // for it, this process would read {} and one of the two writes would be lost.
    const contended = join(root, 'contended');
    let contentions = 0;
    const store = new ConfigStore(dir, { onContended: () => (contentions++, writeFileSync(contended, '')) });
    mkdirSync(dir, { recursive: true });
    const child = spawn(process.execPath, [
      '-e',
      `
      const fs = require('fs');
      const fd = fs.openSync(${JSON.stringify(store.lockFile)}, 'wx', 0o600);
      fs.writeSync(fd, 'pid=' + process.pid + ' child\\n'); fs.closeSync(fd);
      process.stdout.write('locked\\n');
      const poll = setInterval(() => {
        if (!fs.existsSync(${JSON.stringify(contended)})) return;
        clearInterval(poll);
        fs.writeFileSync(${JSON.stringify(store.file)}, JSON.stringify({ child: true }));
        fs.unlinkSync(${JSON.stringify(store.lockFile)});
      }, 5);
    `,
    ]);
    const exited = once(child, 'exit');
    try {
      await once(child.stdout, 'data');
      store.update((c) => {
        c.parent = true;
      });
      assert.equal(contentions, 1, 'the update found the lock held and waited');
      await exited;
      assert.deepEqual(store.read(), { child: true, parent: true });
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('concurrent updates from several processes lose nothing', async () => {
    const script = `
      const { ConfigStore } = require(${JSON.stringify(join(__dirname, 'configStore.ts'))});
      const s = new ConfigStore(${JSON.stringify(dir)});
      for (let i = 0; i < 15; i++) s.update((c) => { c.n = (typeof c.n === 'number' ? c.n : 0) + 1; });
    `;
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: 'inherit' }));
    const codes = await Promise.all(children.map(async (c) => (await once(c, 'exit'))[0]));
    assert.deepEqual(codes, [0, 0, 0, 0]);
    assert.equal(new ConfigStore(dir).read().n, 60);
  });

  test('breaks a lock that is older than 10 s or whose owner process is gone', () => {
    const store = new ConfigStore(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(store.lockFile, `pid=${process.pid} old\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(store.lockFile, old, old);
    store.update((c) => {
      c.afterStale = true;
    });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(store.lockFile, `pid=${dead} gone\n`);
    store.update((c) => {
      c.afterDead = true;
    });
    assert.deepEqual(store.read(), { afterStale: true, afterDead: true });
    assert.equal(existsSync(store.lockFile), false);
  });
});

describe('withFileLockSync', () => {
  test('gives up on a fresh lock of a live process after its timeout, leaving that lock alone', () => {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, `pid=${process.pid} someone-else\n`);
    assert.throws(() => withFileLockSync(lock, () => 1, { timeoutMs: 100 }), /timed out waiting for lock/);
    assert.equal(readFileSync(lock, 'utf8'), `pid=${process.pid} someone-else\n`);
  });

  test('refuses re-entrant use instead of deadlocking', () => {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'y.lock');
    assert.throws(() => withFileLockSync(lock, () => withFileLockSync(lock, () => 1)), /re-entrant/);
    assert.equal(existsSync(lock), false);
  });
});

describe('upsertProvider / removeProvider', () => {
  test('persisted providers load back through loadConfig, and the active one is set', () => {
    const store = new ConfigStore(dir);
    const [oc, ocAnthropic] = providerFromPreset(findPreset('opencode-go')!, 'sk-o');
    store.update((c) => {
      c.active_provider = 'stale';
      upsertProvider(c, oc, true);
      upsertProvider(c, ocAnthropic, false);
      upsertProvider(
        c,
        { name: 'lab', kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', headers: { 'X-A': 'b' }, contextWindow: 8192 },
        false,
      );
    });
    const saved = store.read();
    assert.equal(saved.activeProvider, 'opencode-go');
    assert.equal('active_provider' in saved, false);
    assert.deepEqual((saved.providers as unknown[])[0], {
      name: 'opencode-go',
      kind: 'openai',
      base_url: 'https://opencode.ai/zen/go/v1',
      api_key: 'sk-o',
    });

    const cfg = loadConfig(parseCli([]), {}, { home: join(root, 'home'), cwd: root });
    assert.deepEqual(
      cfg.providers.map((p) => [p.name, p.kind]),
      [
        ['opencode-go', 'openai'],
        ['opencode-go-anthropic', 'anthropic'],
        ['lab', 'openai'],
      ],
    );
    assert.equal(cfg.activeProvider, 'opencode-go');
    assert.deepEqual(cfg.providers[2].headers, { 'X-A': 'b' });
    assert.equal(cfg.providers[2].contextWindow, 8192);

    store.update((c) => {
      upsertProvider(c, { ...oc, apiKey: 'sk-new' }, false);
    });
    assert.equal((store.read().providers as Array<{ api_key: string }>)[0].api_key, 'sk-new');
    assert.equal((store.read().providers as unknown[]).length, 3);
  });

  test('removeProvider drops the entry and an active setting naming it', () => {
    const cfg: Record<string, unknown> = { providers: [{ name: 'a' }, { name: 'b' }, 'junk'], activeProvider: 'a' };
    assert.equal(removeProvider(cfg, 'a'), true);
    assert.deepEqual(cfg.providers, [{ name: 'b' }, 'junk']);
    assert.equal('activeProvider' in cfg, false);
    assert.equal(removeProvider(cfg, 'a'), false);
    assert.equal(removeProvider({}, 'a'), false);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ChildProcessLink, ListenerSet, type StdoutSink } from './childProcessLink';

interface Probe {
  link: ChildProcessLink;
  logs: string[];
  chunks: string[];
  ended: () => boolean;
  exit: Promise<{ code: number | null; signal: string | null }>;
}

function link(script: string, sink?: StdoutSink, command = process.execPath): Probe {
  const child = spawn(command, ['-e', script], { stdio: 'pipe' });
  const chunks: string[] = [];
  let ended = false;
  const l = new ChildProcessLink(child, 'test', sink ?? { push: (c) => void chunks.push(c.toString('utf8')), end: () => void (ended = true) });
  const logs: string[] = [];
  l.onLog((line) => logs.push(line));
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) => l.onExit((code, signal) => r({ code, signal })));
  return { link: l, logs, chunks, ended: () => ended, exit };
}

describe('ListenerSet', () => {
  test('calls the listeners of this round in order, reports a throwing one and goes on; dispose removes', () => {
    const set = new ListenerSet<[n: number]>();
    const seen: string[] = [];
    const errors: unknown[] = [];
    set.add((n) => seen.push(`a${n}`));
    const b = set.add(() => {
      throw new Error('b broke');
    });
    set.add((n) => {
      seen.push(`c${n}`);
      set.add(() => seen.push('late'));
    });
    set.emit([1], (err) => errors.push(err));
    assert.deepEqual(seen, ['a1', 'c1']);
    assert.equal((errors[0] as Error).message, 'b broke');
    b.dispose();
    seen.length = 0;
    set.emit([2]);
    assert.deepEqual(seen.slice(0, 2), ['a2', 'c2']);
    assert.ok(seen.includes('late'));
  });
});

describe('ChildProcessLink', () => {
  test('stdout reaches the sink and ends before the exit is reported; the exit is reported once', async () => {
    const p = link(`process.stdout.write('hello '); setTimeout(() => { process.stdout.write('world'); process.exit(4); }, 20)`);
    let exits = 0;
    p.link.onExit(() => exits++);
    assert.equal(p.link.hasExited, false);
    assert.equal(typeof p.link.pid, 'number');
    assert.deepEqual(await p.exit, { code: 4, signal: null });
    assert.equal(p.chunks.join(''), 'hello world');
    assert.equal(p.ended(), true);
    await p.link.exited;
    await new Promise((r) => setTimeout(r, 1_200)); // past the drain after 'exit'
    assert.equal(exits, 1);
    assert.equal(p.link.hasExited, true);
    assert.deepEqual(p.link.exitInfo, { code: 4, signal: null });
    assert.equal(p.link.writable, false);
  });

  test('a throwing stdout sink is logged with the prefix; a throwing exit listener is logged', async () => {
    const p = link(`process.stdout.write('x')`, {
      push: () => {
        throw new Error('decoder bug');
      },
      end: () => undefined,
    });
    p.link.onExit(() => {
      throw new Error('exit bug');
    });
    await p.link.exited;
    assert.ok(p.logs.includes('test stdout: decoder bug'), p.logs.join(' | '));
    assert.ok(p.logs.includes('exit listener failed: exit bug'), p.logs.join(' | '));
  });

  test('stderr: lines to the log (CR and blank lines dropped), a 20-line tail, the unfinished line flushed at exit', async () => {
    const p = link(`for (let i = 1; i <= 25; i++) process.stderr.write('line ' + i + '\\r\\n'); process.stderr.write('\\n\\npartial'); setTimeout(() => {}, 200)`);
    await new Promise<void>((r) => p.link.onLog((l) => l === 'line 25' && r()));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(p.link.recentStderr().length, 21);
    assert.equal(p.link.recentStderr()[0], 'line 6');
    assert.equal(p.link.recentStderr().at(-1), 'partial');
    assert.ok(!p.logs.includes('partial'), 'the unfinished line waits');
    assert.equal(p.link.stderrSuffix(), `; last stderr lines:\n${['line 19', 'line 20', 'line 21', 'line 22', 'line 23', 'line 24', 'line 25', 'partial'].join('\n')}`);
    await p.exit;
    assert.equal(p.logs.at(-1), 'partial');
    assert.equal(p.logs.filter((l) => l === '').length, 0);
    assert.deepEqual(p.link.recentStderr().slice(-2), ['line 25', 'partial']);
    assert.equal(p.link.recentStderr().length, 20);
  });

  test('no stderr, no suffix', async () => {
    const p = link(`0`);
    await p.exit;
    assert.equal(p.link.stderrSuffix(), '');
    assert.deepEqual(p.link.recentStderr(), []);
  });

  test('a process that cannot be spawned ends as an exit (null, null), logged with the prefix and kept in the tail', async () => {
    const p = link('', undefined, '/nonexistent/child-process-link');
    assert.deepEqual(await p.exit, { code: null, signal: null });
    assert.equal(p.link.pid, undefined);
    assert.ok(p.logs.some((l) => l.startsWith('test process: ') && l.includes('ENOENT')), p.logs.join(' | '));
    assert.ok(p.link.recentStderr().some((l) => l.includes('ENOENT')));
    assert.equal(p.link.writable, false);
    await p.link.kill();
    await p.link.stop(10);
  });

  test('writes reach stdin; EPIPE from a process that closed its stdin is not logged', async () => {
    const p = link(`process.stdin.once('data', (d) => { process.stdout.write('got ' + d); process.stdin.destroy(); setTimeout(() => process.exit(0), 300); })`);
    assert.equal(p.link.writable, true);
    p.link.write('ping');
    await new Promise<void>((r) => {
      const poll = setInterval(() => p.chunks.join('').includes('got ping') && (clearInterval(poll), r()), 10);
    });
    for (let i = 0; i < 50 && p.link.writable; i++) p.link.write('x'.repeat(64 * 1024));
    await p.exit;
    assert.deepEqual(
      p.logs.filter((l) => l.startsWith('test stdin')),
      [],
    );
  });

  test('stop() closes stdin; a process that leaves on EOF is not killed', async () => {
    const p = link(`process.stdin.resume(); process.stdin.on('end', () => process.exit(0))`);
    await p.link.stop(5_000);
    assert.deepEqual(await p.exit, { code: 0, signal: null });
    await p.link.stop(5_000); // already gone: resolves at once
  });

  test('stop() SIGKILLs a process that ignores stdin EOF after the grace; kill() is SIGKILL now', async () => {
    const a = link(`process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`);
    await a.link.stop(200);
    assert.deepEqual(await a.exit, { code: null, signal: 'SIGKILL' });
    const b = link(`setInterval(() => {}, 1000)`);
    await b.link.kill();
    assert.deepEqual(await b.exit, { code: null, signal: 'SIGKILL' });
  });

  test("a grandchild holding the pipes open does not delay the exit beyond the drain after 'exit'", async () => {
    const p = link(
      `require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 2500)'], { stdio: 'inherit' }).unref(); process.stdout.write('bye'); process.exit(0)`,
    );
    const started = Date.now();
    assert.deepEqual(await p.exit, { code: 0, signal: null });
    const took = Date.now() - started;
    assert.ok(took >= 900 && took < 2_300, `exit reported after ${took} ms`);
    assert.equal(p.chunks.join(''), 'bye');
  });
});

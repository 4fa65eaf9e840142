import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { ChildProcessLink, EXIT_DRAIN_MS, ListenerSet, type StdoutSink } from './childProcessLink';

/** A drain timer that fires only when the test says so; `delays` are what the link asked for. */
function manualDrain() {
  const fns: (() => void)[] = [];
  const delays: number[] = [];
  const setTimer = (fn: () => void, ms: number) => {
    fns.push(fn);
    delays.push(ms);
  };
  return { setTimer, delays, fire: () => fns.splice(0).forEach((fn) => fn()) };
}

interface Probe {
  link: ChildProcessLink;
  child: ChildProcessWithoutNullStreams;
  /** The link's drain timer, which never fires by itself here: an exit is reported by 'close' unless the test fires it. */
  drain: ReturnType<typeof manualDrain>;
  logs: string[];
  chunks: string[];
  ended: () => boolean;
  /** The exit as first reported, with whether stdout had ended by then. */
  exit: Promise<{ code: number | null; signal: string | null; stdoutEnded: boolean }>;
  /** The child's own 'exit' event, seen after the link's handler for it. */
  childExited: Promise<unknown>;
}

function link(script: string, opts: { sink?: StdoutSink; command?: string } = {}): Probe {
  const child = spawn(opts.command ?? process.execPath, ['-e', script], { stdio: 'pipe' });
  const chunks: string[] = [];
  let ended = false;
  const sink = opts.sink ?? { push: (c) => void chunks.push(c.toString('utf8')), end: () => void (ended = true) };
  const drain = manualDrain();
  const l = new ChildProcessLink(child, 'test', sink, { setTimer: drain.setTimer });
  const childExited = new Promise((r) => child.once('exit', r));
  const logs: string[] = [];
  l.onLog((line) => logs.push(line));
  const exit = new Promise<{ code: number | null; signal: string | null; stdoutEnded: boolean }>((r) =>
    l.onExit((code, signal) => r({ code, signal, stdoutEnded: ended })),
  );
  return { link: l, child, drain, logs, chunks, ended: () => ended, exit, childExited };
}

/** Resolves once the child's own stream has delivered text matching `pred` (the link's listener, added first, has seen it too). */
function streamed(stream: NodeJS.ReadableStream, pred: (text: string) => boolean): Promise<string> {
  let text = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (!pred(text)) return;
      stream.off('data', onData);
      resolve(text);
    };
    stream.on('data', onData);
  });
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

// Liveness only: every wait below is for an event; a broken link fails its test instead of hanging the run.
describe('ChildProcessLink', { timeout: 60_000 }, () => {
  test('stdout reaches the sink and ends before the exit is reported; a drain timer firing after close reports nothing more', async () => {
    const p = link(`process.stdout.write('hello '); setTimeout(() => { process.stdout.write('world'); process.exit(4); }, 20)`);
    let exits = 0;
    p.link.onExit(() => exits++);
    assert.equal(p.link.hasExited, false);
    assert.equal(typeof p.link.pid, 'number');
    assert.deepEqual(await p.exit, { code: 4, signal: null, stdoutEnded: true });
    assert.equal(p.chunks.join(''), 'hello world');
    assert.deepEqual(p.drain.delays, [EXIT_DRAIN_MS], "'exit' armed the drain timer before 'close'");
    p.drain.fire();
    assert.equal(exits, 1);
    assert.equal(p.link.hasExited, true);
    assert.deepEqual(p.link.exitInfo, { code: 4, signal: null });
    assert.equal(p.link.writable, false);
  });

  test('a throwing stdout sink is logged with the prefix; a throwing exit listener is logged', async () => {
    const p = link(`process.stdout.write('x')`, {
      sink: {
        push: () => {
          throw new Error('decoder bug');
        },
        end: () => undefined,
      },
    });
    p.link.onExit(() => {
      throw new Error('exit bug');
    });
    await p.link.exited;
    assert.ok(p.logs.includes('test stdout: decoder bug'), p.logs.join(' | '));
    assert.ok(p.logs.includes('exit listener failed: exit bug'), p.logs.join(' | '));
  });

  test('stderr: lines to the log (CR and blank lines dropped), a 20-line tail, the unfinished line flushed at exit', async () => {
    // The child stays until its stdin closes, so the unfinished line is still unfinished when it is checked.
    const p = link(
      `for (let i = 1; i <= 25; i++) process.stderr.write('line ' + i + '\\r\\n'); process.stderr.write('\\n\\npartial'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0))`,
    );
    await streamed(p.child.stderr, (text) => text.endsWith('partial'));
    assert.equal(p.link.recentStderr().length, 21);
    assert.equal(p.link.recentStderr()[0], 'line 6');
    assert.equal(p.link.recentStderr().at(-1), 'partial');
    assert.ok(!p.logs.includes('partial'), 'the unfinished line waits');
    assert.equal(
      p.link.stderrSuffix(),
      `; last stderr lines:\n${['line 19', 'line 20', 'line 21', 'line 22', 'line 23', 'line 24', 'line 25', 'partial'].join('\n')}`,
    );
    await p.link.stop(60_000);
    assert.deepEqual(await p.exit, { code: 0, signal: null, stdoutEnded: true });
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
    const p = link('', { command: '/nonexistent/child-process-link' });
    assert.deepEqual(await p.exit, { code: null, signal: null, stdoutEnded: false });
    assert.equal(p.link.pid, undefined);
    assert.ok(
      p.logs.some((l) => l.startsWith('test process: ') && l.includes('ENOENT')),
      p.logs.join(' | '),
    );
    assert.ok(p.link.recentStderr().some((l) => l.includes('ENOENT')));
    assert.equal(p.link.writable, false);
    await p.link.kill();
    await p.link.stop(10);
  });

  test('writes reach stdin; EPIPE from a process that went away with writes pending is not logged', async () => {
    // The child answers, then stops reading and stays until it is killed: the writes after the answer fill the pipe and
    // are still pending when it dies.
    const p = link(
      `process.stdin.once('data', (d) => { process.stdin.pause(); process.stdout.write('got ' + d); setInterval(() => {}, 1000); })`,
    );
    assert.equal(p.link.writable, true);
    const failedWrite = once(p.child.stdin, 'error') as Promise<[NodeJS.ErrnoException]>;
    p.link.write('ping');
    await streamed(p.child.stdout, (text) => text.includes('got ping'));
    for (let i = 0; i < 50 && p.link.writable; i++) p.link.write('x'.repeat(64 * 1024));
    await p.link.kill();
    const [err] = await failedWrite;
    assert.equal(err.code, 'EPIPE');
    assert.deepEqual(await p.exit, { code: null, signal: 'SIGKILL', stdoutEnded: true });
    assert.deepEqual(
      p.logs.filter((l) => l.startsWith('test stdin')),
      [],
    );
  });

  test('stop() closes stdin; a process that leaves on EOF is not killed', async () => {
    const p = link(`process.stdin.resume(); process.stdin.on('end', () => process.exit(0))`);
    // The grace only has to outlast a node start on a loaded machine: stop() resolves at the exit, not at the grace.
    await p.link.stop(60_000);
    assert.deepEqual(await p.exit, { code: 0, signal: null, stdoutEnded: true });
    await p.link.stop(60_000); // already gone: resolves at once
  });

  test('stop() SIGKILLs a process that ignores stdin EOF after the grace; kill() is SIGKILL now', async () => {
    const a = link(`process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`);
    await a.link.stop(200);
    assert.deepEqual(await a.exit, { code: null, signal: 'SIGKILL', stdoutEnded: true });
    const b = link(`setInterval(() => {}, 1000)`);
    await b.link.kill();
    assert.deepEqual(await b.exit, { code: null, signal: 'SIGKILL', stdoutEnded: true });
  });

  test("a grandchild holding the pipes open does not hold the exit: the drain armed at 'exit' reports it, and 'close' later does not again", async () => {
    const p = link(
      `const g = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'inherit' }); g.unref(); process.stdout.write('grandchild ' + g.pid + '\\n'); process.exit(0)`,
    );
    let exits = 0;
    p.link.onExit(() => exits++);
    const grandchild = Number(/grandchild (\d+)\n/.exec(await streamed(p.child.stdout, (text) => text.endsWith('\n')))![1]);
    try {
      await p.childExited;
      assert.deepEqual(p.drain.delays, [EXIT_DRAIN_MS], "'exit' armed the drain timer");
      assert.equal(p.link.hasExited, false, "no 'close' while the grandchild holds the pipes");
      p.drain.fire();
      assert.deepEqual(await p.exit, { code: 0, signal: null, stdoutEnded: false });
      assert.equal(p.link.writable, false);
    } finally {
      process.kill(grandchild, 'SIGKILL');
    }
    await once(p.child, 'close');
    assert.equal(exits, 1);
    assert.equal(p.ended(), true, 'stdout still ends when the grandchild lets go');
  });
});

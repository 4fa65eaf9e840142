import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { CoreConnection } from './coreConnection';
import type { WireEvent } from '../state/eventFields';
import { resolveCoreLaunch } from './coreLaunch';
import { ensureCoreBuilt, nodeScriptLaunch, realCoreEnv, type RealCoreEnv } from '../../../test/support/realCoreHarness';

function collect(conn: CoreConnection): { events: WireEvent[]; logs: string[] } {
  const events: WireEvent[] = [];
  const logs: string[] = [];
  conn.onEvent((e) => events.push(e));
  conn.onLog((l) => logs.push(l));
  return { events, logs };
}

function exitOf(conn: CoreConnection): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((r) => conn.onExit((code, signal) => r({ code, signal })));
}

describe('CoreConnection with the real core', () => {
  let env: RealCoreEnv;
  before(async () => {
    await ensureCoreBuilt();
    env = await realCoreEnv();
  });
  after(() => env.cleanup());

  test('handshake: init v2 → ready and protocol_hello; stop() closes stdin and the core exits', async (t) => {
    const launch = resolveCoreLaunch({ ...env.launch() });
    assert.ok(!('error' in launch));
    const conn = CoreConnection.spawn(launch, env.workspace, '9.9.9');
    // A failed assertion must end the test, not leave a live core holding the runner open.
    t.after(() => conn.stop());
    const { events } = collect(conn);
    const exited = exitOf(conn);
    const { ready, hello } = await conn.handshake(15_000);
    assert.equal(ready.type, 'ready');
    assert.ok(Array.isArray(ready.models) && ready.models.some((m) => m.id === 'test-model'));
    assert.equal(hello.protocol_version, 2);
    assert.ok(hello.capabilities?.includes('protocol_v2'));
    assert.deepEqual(hello.client, {
      name: 'catalyst-vscode',
      version: '9.9.9',
      capabilities: [
        'run_ids',
        'session_ids',
        'event_sequence',
        'checkpoint_files',
        'subagent_stream',
        'project_rules',
        'approval_escalations',
      ],
    });
    assert.equal(typeof conn.pid, 'number');
    assert.ok(events.length >= 2);
    await conn.stop();
    assert.deepEqual(await exited, { code: 0, signal: null });
    assert.equal(conn.send({ type: 'stats' }), false, 'sending after exit is a no-op');
  });
});

describe('CoreConnection with a misbehaving process', () => {
  test('garbage, non-objects, oversize and unknown lines are logged and survived; valid events still arrive', async () => {
    const script = `
      const out = process.stdout;
      out.write('not json\\n');
      out.write('[1,2]\\n');
      out.write('{"no_type":1}\\n');
      out.write('{"type":"delta","text":"' + 'x'.repeat(5000) + '"}\\n');
      out.write(Buffer.from([0xff, 0xfe, 0x0a]));
      out.write('{"type":"future_event","x":1}\\n');
      out.write('{"type":"delta","text":"ok"}\\n{"type":"done"}');
      out.end();
    `;
    const conn = CoreConnection.spawn(nodeScriptLaunch(script), tmpdir(), '0', { maxLineBytes: 1024 });
    const { events, logs } = collect(conn);
    await exitOf(conn);
    assert.deepEqual(events, [{ type: 'future_event', x: 1 }, { type: 'delta', text: 'ok' }, { type: 'done' }]);
    for (const kind of ['parse', 'not_object', 'oversize', 'utf8'])
      assert.ok(
        logs.some((l) => l.includes(`: ${kind}:`)),
        `${kind} logged: ${logs.join(' | ')}`,
      );
    assert.ok(logs.some((l) => l.includes('without a string "type"')));
  });

  test('a throwing event listener is logged and does not stop the stream', async () => {
    const conn = CoreConnection.spawn(nodeScriptLaunch(`process.stdout.write('{"type":"a"}\\n{"type":"b"}\\n')`), tmpdir(), '0');
    const seen: string[] = [];
    const logs: string[] = [];
    conn.onEvent((e) => {
      if (e.type === 'a') throw new Error('listener bug');
      seen.push(e.type);
    });
    conn.onLog((l) => logs.push(l));
    await exitOf(conn);
    assert.deepEqual(seen, ['b']);
    assert.ok(logs.some((l) => l.includes('listener bug')));
  });

  test('stderr lines go to the log; handshake rejects on exit with the last stderr lines', async () => {
    const conn = CoreConnection.spawn(
      nodeScriptLaunch(`process.stderr.write('config broken\\nreally\\n'); process.exit(3)`),
      tmpdir(),
      '0',
    );
    const { logs } = collect(conn);
    await assert.rejects(conn.handshake(10_000), (err: Error) => /code 3/.test(err.message) && /config broken\nreally/.test(err.message));
    assert.deepEqual(logs.slice(0, 2), ['config broken', 'really']);
  });

  test('handshake times out when the core never answers, naming stderr', async () => {
    const conn = CoreConnection.spawn(
      nodeScriptLaunch(`process.stderr.write('waiting for godot\\n'); setInterval(() => {}, 1000)`),
      tmpdir(),
      '0',
    );
    await new Promise<void>((r) => conn.onLog((line) => line === 'waiting for godot' && r()));
    await assert.rejects(conn.handshake(300), /did not answer init within 300 ms; last stderr lines:\nwaiting for godot/);
    await conn.kill();
    assert.equal(conn.hasExited, true);
  });

  test('stop() SIGKILLs a process that ignores stdin EOF after the grace period', async () => {
    const conn = CoreConnection.spawn(
      nodeScriptLaunch(`process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`),
      tmpdir(),
      '0',
    );
    const exited = exitOf(conn);
    await conn.stop(200);
    assert.deepEqual(await exited, { code: null, signal: 'SIGKILL' });
  });

  test('a binary that cannot be spawned ends as an exit, and the handshake says so', async () => {
    const conn = CoreConnection.spawn({ command: '/nonexistent/catcode-core', args: [], env: {}, kind: 'catalyst' }, tmpdir(), '0');
    const { logs } = collect(conn);
    const exited = exitOf(conn);
    await assert.rejects(conn.handshake(5000), /could not be started|exited/);
    assert.deepEqual(await exited, { code: null, signal: null });
    assert.ok(logs.some((l) => l.includes('ENOENT')));
    assert.equal(conn.send({ type: 'abort' }), false);
  });
});

// ScvConnection against tiny inline Node servers that speak just enough SCV for each case.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import type { CoreLaunch } from '../coreLaunch';
import type { WireEvent } from '../../state/eventFields';
import { ApprovalRules } from './approvalRules';
import { ScvConnection, approvalPolicyOf } from './scvConnection';

/**
 * A server whose answers are given per client message type as JS expressions over `m` (the message) returning a list
 * of events; it logs every line it reads to stderr as `got <line>` and exits on stdin EOF unless `ignoreEof`.
 */
function serverScript(answers: Record<string, string>, opts: { ignoreEof?: boolean; prelude?: string } = {}): string {
  const cases = Object.entries(answers)
    .map(([type, expr]) => `case ${JSON.stringify(type)}: return ${expr};`)
    .join('\n');
  return `
    const readline = require('node:readline');
    let seq = 0;
    const send = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
    const answer = (m) => { switch (m.type) { ${cases} default: return []; } };
    ${opts.prelude ?? ''}
    readline.createInterface({ input: process.stdin }).on('line', (line) => {
      process.stderr.write('got ' + line + '\\n');
      for (const e of answer(JSON.parse(line))) send(e);
    }).on('close', () => { ${opts.ignoreEof ? 'setInterval(() => {}, 1000);' : 'process.exit(0);'} });
  `;
}

const HANDSHAKE: Record<string, string> = {
  initialize: `[{ type: 'initialized', request_id: m.request_id, protocol_version: 3, server: { name: 'fake-scv', version: '0.3.14' } }]`,
  'session.start': `[
    { type: 'session.started', request_id: m.request_id, session_id: 's1', cwd: m.cwd, model: 'm1', context_max_tokens: 1000, max_server_frame_bytes: 4096,
      max_transcript_bytes: 1, max_transcript_items: 1, max_prompt_history_bytes: 1, max_prompt_history_items: 1 },
    { type: 'queue.snapshot', request_id: m.request_id, session_id: 's1', seq: ++seq, entries: [{ queue_id: 'q1', revision: 4, prompt: 'p', submitter: 'x' }], paused: false },
  ]`,
};

function launch(script: string, args: string[] = []): CoreLaunch {
  return { kind: 'scv', command: process.execPath, args: ['-e', script, '--', ...args], env: { PATH: process.env.PATH ?? '' } };
}

function watch(conn: ScvConnection) {
  const events: WireEvent[] = [];
  const logs: string[] = [];
  conn.onEvent((e) => events.push(e));
  conn.onLog((l) => logs.push(l));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => conn.onExit((code, signal) => r({ code, signal })));
  return { events, logs, exited };
}

/** The messages the server read, from its `got …` stderr lines. */
function received(logs: string[]): Record<string, unknown>[] {
  return logs.filter((l) => l.startsWith('got ')).map((l) => JSON.parse(l.slice(4)) as Record<string, unknown>);
}

function until(predicate: () => boolean, conn: ScvConnection): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (predicate()) {
        events.dispose();
        logs.dispose();
        exits.dispose();
        resolve();
      }
    };
    const events = conn.onEvent(check);
    const logs = conn.onLog(check);
    const exits = conn.onExit(() => (predicate() ? resolve() : reject(new Error('the server exited first'))));
    check();
  });
}

describe('ScvConnection', () => {
  test('handshake: initialize and session.start{cwd} → ready and protocol_hello, then the queue', async () => {
    const cwd = tmpdir();
    const conn = ScvConnection.spawn(launch(serverScript(HANDSHAKE), ['--approval-policy', 'always']), cwd, '9.9.9');
    const { events, logs, exited } = watch(conn);
    const { ready, hello } = await conn.handshake(10_000);
    assert.equal(ready.type, 'ready');
    assert.deepEqual(ready.models, [{ id: 'm1', name: 'm1', context_window: 1000 }]);
    assert.equal(ready.approval, 'always', 'from --approval-policy in the launch');
    assert.equal(ready.workspace, cwd);
    assert.equal(hello.version, '0.3.14');
    assert.deepEqual(hello.capabilities, ['server_queue', 'tool_progress']);
    // stderr (what the server read) and stdout (its answers) are separate pipes: wait for both.
    await until(() => events.some((e) => e.type === 'client:server_queue') && received(logs).length >= 2, conn);
    const msgs = received(logs);
    assert.deepEqual(msgs[0], {
      type: 'initialize',
      request_id: 'c-1',
      protocol_version: 3,
      client: { name: 'catalyst-vscode', version: '9.9.9' },
    });
    assert.deepEqual(msgs[1], { type: 'session.start', request_id: 'c-2', cwd });
    assert.equal(typeof conn.pid, 'number');
    assert.deepEqual(conn.limits, { maxPromptBytes: 262_144 });
    await conn.stop();
    assert.deepEqual(await exited, { code: 0, signal: null });
    assert.equal(conn.hasExited, true);
    assert.equal(conn.send({ type: 'abort' }), false, 'nothing is sent after the exit');
  });

  test('a version mismatch rejects the handshake with both versions and the server', async () => {
    const answers = {
      ...HANDSHAKE,
      initialize: `[{ type: 'initialized', request_id: m.request_id, protocol_version: 2, server: { name: 'old-scv', version: '0.1.20' } }]`,
    };
    const conn = ScvConnection.spawn(launch(serverScript(answers)), tmpdir(), '1');
    watch(conn);
    await assert.rejects(conn.handshake(10_000), /old-scv 0\.1\.20.*version 2.*version 3/);
    await conn.kill();
  });

  test('a fatal error rejects the handshake', async () => {
    const answers = {
      initialize: `[{ type: 'error', request_id: m.request_id, code: 'version_mismatch', message: 'protocol 3 is not supported', fatal: true }]`,
    };
    const conn = ScvConnection.spawn(launch(serverScript(answers)), tmpdir(), '1');
    watch(conn);
    await assert.rejects(conn.handshake(10_000), /protocol 3 is not supported \[version_mismatch\]/);
    await conn.kill();
  });

  test('a server that exits before the handshake rejects it, with its stderr', async () => {
    const conn = ScvConnection.spawn(launch(`process.stderr.write('config error: no provider\\n'); process.exit(3);`), tmpdir(), '1');
    const { exited } = watch(conn);
    const handshake = conn.handshake(10_000);
    await assert.rejects(handshake, /exited \(code 3\).*config error: no provider/s);
    await exited;
    await assert.rejects(conn.handshake(10_000), /exited \(code 3\)/);
  });

  test('a turn streams through as Catalyst events; prompts and queue edits reach the server as SCV messages', async () => {
    const answers = {
      ...HANDSHAKE,
      'turn.start': `[
        { type: 'turn.started', request_id: m.request_id, session_id: 's1', turn_id: 't1', seq: ++seq },
        { type: 'assistant.delta', request_id: m.request_id, session_id: 's1', turn_id: 't1', seq: ++seq, content: 'hi ' + m.prompt },
        { type: 'turn.completed', request_id: m.request_id, session_id: 's1', turn_id: 't1', seq: ++seq, steps: 1, usage: { input_tokens: 1, output_tokens: 2 } },
      ]`,
    };
    const conn = ScvConnection.spawn(launch(serverScript(answers)), tmpdir(), '1');
    const { events, logs } = watch(conn);
    await conn.handshake(10_000);
    assert.equal(conn.send({ type: 'send', prompt: 'there', model: 'm1' }), true);
    await until(() => events.some((e) => e.type === 'done'), conn);
    assert.deepEqual(
      events.filter((e) => e.type === 'delta'),
      [{ type: 'delta', text: 'hi there', session_id: 's1', run_id: 't1' }],
    );
    assert.equal(conn.serverQueue.edit('q1', 'edited'), true);
    assert.equal(conn.serverQueue.edit('missing', 'x'), false);
    assert.ok(events.some((e) => e.type === 'error' && e.code === 'queue_not_found'));
    await until(() => received(logs).some((m) => m.type === 'queue.update'), conn);
    assert.deepEqual(
      received(logs).find((m) => m.type === 'queue.update'),
      { type: 'queue.update', request_id: 'c-4', session_id: 's1', queue_id: 'q1', revision: 4, prompt: 'edited' },
    );
    assert.equal(conn.send({ type: 'undo' }), false, 'refused by the adapter');
    await conn.stop();
  });

  test('frames over the limit session.started announced are dropped and logged; later ones arrive', async () => {
    const answers = {
      ...HANDSHAKE,
      'turn.start': `[
        { type: 'turn.started', request_id: m.request_id, session_id: 's1', turn_id: 't1', seq: ++seq },
        { type: 'assistant.delta', request_id: m.request_id, session_id: 's1', turn_id: 't1', seq: ++seq, content: 'x'.repeat(5000) },
        { type: 'assistant.delta', request_id: m.request_id, session_id: 's1', turn_id: 't1', seq: ++seq, content: 'small' },
      ]`,
    };
    const conn = ScvConnection.spawn(launch(serverScript(answers)), tmpdir(), '1');
    const { events, logs } = watch(conn);
    await conn.handshake(10_000);
    conn.send({ type: 'send', prompt: 'go', model: 'm1' });
    await until(() => events.some((e) => e.type === 'delta'), conn);
    assert.deepEqual(
      events.filter((e) => e.type === 'delta').map((e) => (e as Record<string, unknown>).text),
      ['small'],
    );
    assert.ok(
      logs.some((l) => l.includes('oversize') && l.includes('4096-byte limit')),
      logs.join('\n'),
    );
    assert.ok(
      logs.some((l) => l.includes('SCV events lost: expected seq 3, got 4')),
      'the dropped frame shows as a gap',
    );
    await conn.stop();
  });

  test('a fatal error after the handshake is shown and the server is ended', async () => {
    const answers = { ...HANDSHAKE, 'turn.start': `[{ type: 'error', code: 'internal_error', message: 'writer stalled', fatal: true }]` };
    const conn = ScvConnection.spawn(launch(serverScript(answers, { ignoreEof: true })), tmpdir(), '1');
    const { events, exited } = watch(conn);
    await conn.handshake(10_000);
    conn.send({ type: 'send', prompt: 'go', model: 'm1' });
    assert.deepEqual(await exited, { code: null, signal: 'SIGKILL' });
    assert.ok(events.some((e) => e.type === 'error' && typeof e.message === 'string' && e.message.includes('writer stalled')));
  });

  test('stop() closes stdin and SIGKILLs a server that does not exit within the grace', async () => {
    const conn = ScvConnection.spawn(launch(serverScript(HANDSHAKE, { ignoreEof: true })), tmpdir(), '1');
    const { exited } = watch(conn);
    await conn.handshake(10_000);
    await conn.stop(100);
    assert.deepEqual(await exited, { code: null, signal: 'SIGKILL' });
  });

  test('the session rules are cleared for each new connection; always rules stay', async () => {
    const rules = new ApprovalRules();
    rules.remember('session', 'bash', 'process');
    rules.remember('always', 'write', 'filesystem');
    const conn = ScvConnection.spawn(launch(serverScript(HANDSHAKE)), tmpdir(), '1', { rules });
    watch(conn);
    assert.equal(rules.match('bash', 'process'), undefined);
    assert.equal(rules.match('write', 'filesystem'), 'always');
    await conn.kill();
  });

  test('approvalPolicyOf reads --approval-policy in either form, ignoring unknown values', () => {
    assert.equal(approvalPolicyOf(['--approval-policy', 'never', 'server']), 'never');
    assert.equal(approvalPolicyOf(['--approval-policy=always']), 'always');
    assert.equal(approvalPolicyOf(['--approval-policy', 'sometimes']), undefined);
    assert.equal(approvalPolicyOf([]), undefined);
  });
});

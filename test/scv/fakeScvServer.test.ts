// The fake scv-server's own contract: what it does over stdio, checked against the SCV v3 spec (research/scv.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModelServer } from '../support/scriptedModelServer';
import { RawScvClient, type ScvEvent } from './rawScvClient';
import { SCV_TEST_KEY, SCV_TEST_MODEL, chatRequests, fakeScvLaunch, isTerminal, makeWorkspace, startFakeScv } from './fakeScvScenario';

const DENIED = 'tool call denied by policy or user';
const SESSION_SCOPED = /^(queue\.|session\.(paused|trimmed|cleared)|turn\.|assistant\.|tool\.|approval\.|context\.|background\.|future\.)/;

/** Every session-scoped event carries the next seq; nothing else carries one. */
function assertConsecutiveSeq(events: ScvEvent[]): void {
  const scoped = events.filter((e) => SESSION_SCOPED.test(e.type));
  assert.deepEqual(
    scoped.map((e) => e.seq),
    scoped.map((_, i) => scoped[0].seq + i),
    'consecutive seq',
  );
  for (const e of events.filter((x) => !SESSION_SCOPED.test(x.type))) assert.equal(e.seq, undefined, `${e.type} has no seq`);
}

/** Whether a process is alive (a zombie counts as gone). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test('handshake: anything before initialize is not_initialized; initialize answers version 3 and the server PeerInfo', async () => {
  const s = await startFakeScv({ handshake: false });
  try {
    const early = s.client.send({ type: 'session.start', cwd: s.workspace });
    const refused = await s.client.waitFor((e) => e.request_id === early);
    assert.deepEqual(refused, {
      type: 'error',
      request_id: early,
      code: 'not_initialized',
      message: 'the first message must be initialize',
      fatal: false,
    });
    const init = s.client.send({ type: 'initialize', protocol_version: 3, client: { name: 'catalyst-vscode', version: '1.2.3' } });
    const initialized = await s.client.waitFor((e) => e.request_id === init);
    assert.deepEqual(initialized, {
      type: 'initialized',
      request_id: init,
      protocol_version: 3,
      server: { name: 'scv-server', version: '0.3.14-fake' },
    });
    const again = s.client.send({ type: 'initialize', protocol_version: 3, client: { name: 'x', version: '1' } });
    assert.equal((await s.client.waitFor((e) => e.request_id === again)).code, 'invalid_request');
  } finally {
    await s.close();
  }
});

test('handshake: a different client protocol version gets a fatal version_mismatch and the server exits', async () => {
  const s = await startFakeScv({ handshake: false });
  try {
    const init = s.client.send({ type: 'initialize', protocol_version: 2, client: { name: 'old', version: '0.1' } });
    const error = await s.client.waitFor((e) => e.request_id === init);
    assert.equal(error.type, 'error');
    assert.equal(error.code, 'version_mismatch');
    assert.equal(error.fatal, true);
    assert.match(error.message, /2.*3/);
    await s.client.waitForExit();
    assert.equal(s.client.exitCode, 1);
  } finally {
    await s.close();
  }
});

test('frames: bad JSON and unknown types are invalid_json, the session goes on', async () => {
  const s = await startFakeScv();
  try {
    s.client.sendRaw('{not json\n');
    const bad = await s.client.waitForType('error');
    assert.equal(bad.code, 'invalid_json');
    assert.equal(bad.request_id, null);
    const unknown = s.client.send({ type: 'turn.steer', session_id: s.sessionId, prompt: 'x' });
    const refused = await s.client.waitFor((e) => e.request_id === unknown);
    assert.equal(refused.code, 'invalid_json');
    assert.equal(refused.fatal, false);
    const attach = s.sendInSession({ type: 'session.attach', cwd: s.workspace });
    assert.equal((await s.client.waitFor((e) => e.request_id === attach)).code, 'unsupported');
    const daemon = s.client.send({ type: 'daemon.control', command: { action: 'status' } });
    assert.equal((await s.client.waitFor((e) => e.request_id === daemon)).code, 'unsupported');
    const other = s.client.send({ type: 'session.pause', session_id: 'not-mine', paused: true });
    assert.equal((await s.client.waitFor((e) => e.request_id === other)).code, 'session_not_found');
  } finally {
    await s.close();
  }
});

test('session.start: cwd must be an existing absolute directory; session.started carries the limits, then queue.snapshot; one session per connection', async () => {
  const s = await startFakeScv({ handshake: false });
  try {
    s.client.send({ type: 'initialize', protocol_version: 3, client: { name: 't', version: '1' } });
    await s.client.waitForType('initialized');
    const relative = s.client.send({ type: 'session.start', cwd: 'some/dir' });
    assert.equal((await s.client.waitFor((e) => e.request_id === relative)).code, 'invalid_request');
    const missing = s.client.send({ type: 'session.start', cwd: join(s.workspace, 'nope') });
    assert.equal((await s.client.waitFor((e) => e.request_id === missing)).code, 'invalid_request');
    const start = s.client.send({ type: 'session.start', cwd: s.workspace });
    const started = await s.client.waitFor((e) => e.request_id === start);
    assert.equal(started.type, 'session.started');
    assert.match(started.session_id, /^[0-9a-f-]{36}$/);
    assert.equal(started.cwd, s.workspace);
    assert.equal(started.model, SCV_TEST_MODEL);
    assert.equal(started.max_server_frame_bytes, 8 * 1024 * 1024);
    for (const field of [
      'context_max_tokens',
      'max_transcript_bytes',
      'max_transcript_items',
      'max_prompt_history_bytes',
      'max_prompt_history_items',
    ]) {
      assert.equal(typeof started[field], 'number', field);
    }
    assert.equal(started.seq, undefined);
    const snapshot = await s.client.waitForType('queue.snapshot');
    assert.deepEqual(snapshot, {
      type: 'queue.snapshot',
      request_id: start,
      entries: [],
      paused: false,
      session_id: started.session_id,
      seq: 1,
    });
    const second = s.client.send({ type: 'session.start', cwd: s.workspace });
    assert.equal((await s.client.waitFor((e) => e.request_id === second)).code, 'invalid_request');
  } finally {
    await s.close();
  }
});

test('the `scv --global-flags server` form and --stdio are accepted; unknown flags exit 2', async () => {
  const model = await startScriptedModelServer({ script: [{ steps: [{ text: 'ok' }] }] });
  const workspace = makeWorkspace();
  const launch = fakeScvLaunch(model, { approvalPolicy: 'always' });
  const client = RawScvClient.start({
    args: [...launch.args, '--scv-home', workspace, '--config-path', join(workspace, 'c.toml'), 'server', '--stdio'],
    env: launch.env,
  });
  const bad = RawScvClient.start({ args: ['--frobnicate'] });
  try {
    const { sessionId } = await client.handshake(workspace);
    const request = client.send({ type: 'turn.start', session_id: sessionId, prompt: 'hi' });
    const done = await client.waitFor((e) => isTerminal(e) && e.request_id === request);
    assert.equal(done.type, 'turn.completed');
    await bad.waitForExit();
    assert.equal(bad.exitCode, 2);
    assert.match(bad.stderr.join(''), /unexpected argument '--frobnicate'/);
    assert.equal(bad.lines.length, 0, 'diagnostics never go to stdout');
  } finally {
    await client.close();
    await model.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(launch.home, { recursive: true, force: true });
  }
});

test('a streamed turn: turn.started, deltas, assistant.completed, turn.completed with usage; the request is an OpenAI stream with the three tools', async () => {
  const s = await startFakeScv({
    script: [{ steps: [{ text: 'Hello there, this is a streamed answer.' }], usage: { prompt: 50, completion: 9 } }],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('say hello');
    const done = await s.terminalOf(request);
    const events = s.client.events.slice(from);
    assert.deepEqual([...new Set(events.map((e) => e.type))], ['turn.started', 'assistant.delta', 'assistant.completed', 'turn.completed']);
    const started = events[0];
    assert.equal(started.request_id, request);
    assert.equal(started.session_id, s.sessionId);
    assert.equal(started.origin, undefined);
    assert.ok(events.every((e) => e.turn_id === started.turn_id && e.request_id === request));
    const deltas = events.filter((e) => e.type === 'assistant.delta');
    assert.ok(deltas.length > 1);
    assert.equal(deltas.map((e) => e.content).join(''), 'Hello there, this is a streamed answer.');
    assert.equal(events.find((e) => e.type === 'assistant.completed')!.content, 'Hello there, this is a streamed answer.');
    assert.equal(done.type, 'turn.completed');
    assert.equal(done.steps, 1);
    assert.deepEqual(done.usage, { input_tokens: 50, output_tokens: 9 });
    assertConsecutiveSeq(s.client.events);
    const [req] = chatRequests(s.model);
    assert.equal(req.apiKey, SCV_TEST_KEY);
    assert.equal(req.body.model, SCV_TEST_MODEL);
    assert.equal(req.body.stream, true);
    assert.equal(req.body.messages[0].role, 'system');
    assert.deepEqual(req.body.messages.at(-1), { role: 'user', content: 'say hello' });
    const tools = Object.fromEntries(req.body.tools.map((t: any) => [t.function.name, t.function.parameters]));
    assert.deepEqual(Object.keys(tools), ['write', 'read', 'bash']);
    assert.deepEqual(tools.write.required, ['path', 'content', 'mode']);
    assert.deepEqual(tools.write.properties.mode.enum, ['create', 'replace']);
    assert.equal(tools.write.additionalProperties, false);
    assert.deepEqual(Object.keys(tools.read.properties), ['path', 'offset', 'limit']);
    assert.deepEqual(Object.keys(tools.bash.properties), ['command', 'timeout_seconds']);
  } finally {
    await s.close();
  }
});

test('a second turn sends the conversation so far', async () => {
  const s = await startFakeScv({ script: [{ steps: [{ text: 'First answer.' }] }, { steps: [{ text: 'Second.' }] }] });
  try {
    await s.terminalOf(s.startTurn('one'));
    await s.terminalOf(s.startTurn('two'));
    const messages = chatRequests(s.model)[1].body.messages.slice(1);
    assert.deepEqual(messages, [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'two' },
    ]);
  } finally {
    await s.close();
  }
});

test('write approved: proposed → approval.requested (filesystem, "Create …") → started → the file is on disk → completed; the model sees the result', async () => {
  const content = 'hello from scv\n';
  const s = await startFakeScv({
    script: [
      {
        steps: [
          { text: 'Writing.' },
          { toolCall: { id: 'call_w', name: 'write', arguments: { path: 'notes/a.txt', content, mode: 'create' } } },
        ],
      },
      { steps: [{ text: 'Written.' }] },
    ],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('write a note');
    const approval = await s.client.waitForType('approval.requested', { from });
    const proposed = s.client.events.slice(from).find((e) => e.type === 'tool.proposed')!;
    assert.deepEqual(proposed.arguments, { path: 'notes/a.txt', content, mode: 'create' });
    assert.equal(proposed.call_id, 'call_w');
    assert.ok(proposed.seq < approval.seq, 'tool.proposed precedes approval.requested');
    assert.match(approval.approval_id, /^[0-9a-f-]{36}$/);
    assert.equal(approval.call_id, 'call_w');
    assert.equal(approval.name, 'write');
    assert.equal(approval.risk, 'filesystem');
    assert.equal(approval.cwd, s.workspace);
    assert.equal(approval.summary, `Create notes/a.txt (${Buffer.byteLength(content)} bytes)`);
    assert.equal(existsSync(join(s.workspace, 'notes/a.txt')), false, 'nothing written before the answer');
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    const done = await s.terminalOf(request);
    assert.equal(done.type, 'turn.completed');
    assert.equal(done.steps, 2);
    const events = s.client.events.slice(from);
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t.startsWith('tool.') || t.startsWith('approval.')),
      ['tool.proposed', 'approval.requested', 'tool.started', 'tool.completed'],
    );
    assert.equal(readFileSync(join(s.workspace, 'notes/a.txt'), 'utf8'), content);
    const completed = events.find((e) => e.type === 'tool.completed')!;
    assert.equal(completed.success, true);
    assert.equal(completed.truncated, false);
    assert.equal(completed.error, undefined);
    assert.deepEqual(JSON.parse(completed.output), {
      path: 'notes/a.txt',
      bytes: Buffer.byteLength(content),
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    const second = chatRequests(s.model)[1].body.messages;
    assert.equal(second.at(-2).tool_calls[0].id, 'call_w');
    assert.deepEqual(second.at(-1), { role: 'tool', tool_call_id: 'call_w', content: completed.output });
    const resolveAgain = s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    assert.equal((await s.client.waitFor((e) => e.request_id === resolveAgain)).code, 'approval_not_found');
  } finally {
    await s.close();
  }
});

test('write denied: the file stays untouched, tool.completed says denied and the model sees the denial', async () => {
  const s = await startFakeScv({
    files: { 'a.txt': 'original\n' },
    script: [
      { steps: [{ toolCall: { id: 'call_w', name: 'write', arguments: { path: 'a.txt', content: 'replaced\n', mode: 'replace' } } }] },
      { steps: [{ text: 'Understood, I left it.' }] },
    ],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('replace it');
    const approval = await s.client.waitForType('approval.requested', { from });
    assert.equal(approval.summary, 'Replace a.txt (9 bytes)');
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: false });
    await s.terminalOf(request);
    const completed = s.client.ofType('tool.completed', from)[0];
    assert.deepEqual(
      { success: completed.success, error: completed.error, output: completed.output },
      { success: false, error: 'denied', output: DENIED },
    );
    assert.equal(s.client.ofType('tool.started', from).length, 0);
    assert.equal(readFileSync(join(s.workspace, 'a.txt'), 'utf8'), 'original\n');
    assert.deepEqual(chatRequests(s.model)[1].body.messages.at(-1), { role: 'tool', tool_call_id: 'call_w', content: DENIED });
  } finally {
    await s.close();
  }
});

test('write semantics: create over an existing file and replace of a missing one fail; a path outside the workspace is invalid_arguments before any approval', async () => {
  const s = await startFakeScv({
    approvalPolicy: 'always',
    files: { 'exists.txt': 'x' },
    script: [
      {
        steps: [
          { toolCall: { id: 'c1', name: 'write', arguments: { path: 'exists.txt', content: 'y', mode: 'create' } } },
          { toolCall: { id: 'c2', name: 'write', arguments: { path: 'missing.txt', content: 'y', mode: 'replace' } } },
          { toolCall: { id: 'c3', name: 'write', arguments: { path: '../escape.txt', content: 'y', mode: 'create' } } },
          { toolCall: { id: 'c4', name: 'write', arguments: { path: 'x.txt', content: 'y' } } },
          { toolCall: { id: 'c5', name: 'teleport', arguments: {} } },
        ],
      },
      { steps: [{ text: 'ok' }] },
    ],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('go');
    for (let i = 0; i < 2; i++) {
      const approval = await s.client.waitFor(
        (e) =>
          e.type === 'approval.requested' &&
          !s.client.events.slice(from).some((r) => r.type === 'tool.completed' && r.call_id === e.call_id),
        { from },
      );
      s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
      await s.client.waitFor((e) => e.type === 'tool.completed' && e.call_id === approval.call_id, { from });
    }
    await s.terminalOf(request);
    const results = Object.fromEntries(s.client.ofType('tool.completed', from).map((e) => [e.call_id, e]));
    assert.equal(results.c1.error, 'failed');
    assert.match(results.c1.output, /already exists/);
    assert.equal(results.c2.error, 'failed');
    assert.match(results.c2.output, /does not exist/);
    assert.equal(results.c3.error, 'invalid_arguments');
    assert.match(results.c3.output, /escapes the workspace/);
    assert.equal(results.c4.error, 'invalid_arguments');
    assert.equal(results.c5.error, 'unknown_tool');
    assert.deepEqual(
      s.client.ofType('approval.requested', from).map((e) => e.call_id),
      ['c1', 'c2'],
    );
    assert.equal(readFileSync(join(s.workspace, 'exists.txt'), 'utf8'), 'x');
    assert.equal(existsSync(join(s.workspace, '..', 'escape.txt')), false);
  } finally {
    await s.close();
  }
});

test('approval policy on-risk: read runs without asking (read_only) but a secret-like path asks (filesystem)', async () => {
  const s = await startFakeScv({
    files: { 'src/app.ts': 'export const a = 1;\n', '.env': 'TOKEN=1\n' },
    script: [
      {
        steps: [
          { toolCall: { id: 'r1', name: 'read', arguments: { path: 'src/app.ts' } } },
          { toolCall: { id: 'r2', name: 'read', arguments: { path: '.env' } } },
        ],
      },
      { steps: [{ text: 'Read both.' }] },
    ],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('read');
    const approval = await s.client.waitForType('approval.requested', { from });
    assert.equal(approval.call_id, 'r2');
    assert.equal(approval.risk, 'filesystem');
    assert.equal(approval.summary, 'Read .env');
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    await s.terminalOf(request);
    const r1 = s.client.ofType('tool.completed', from).find((e) => e.call_id === 'r1')!;
    assert.deepEqual(JSON.parse(r1.output), {
      path: 'src/app.ts',
      content: 'export const a = 1;\n',
      total_bytes: 20,
      offset: 0,
      truncated: false,
    });
    assert.equal(s.client.ofType('approval.requested', from).length, 1);
  } finally {
    await s.close();
  }
});

test('approval policy always asks even for read_only; never denies side effects without asking', async () => {
  // The model server consumes its script array, so each scenario gets its own.
  const script = () => [
    {
      steps: [
        { toolCall: { id: 'r1', name: 'read', arguments: { path: 'f.txt' } } },
        { toolCall: { id: 'b1', name: 'bash', arguments: { command: 'touch ran.txt' } } },
      ],
    },
    { steps: [{ text: 'done' }] },
  ];
  const always = await startFakeScv({ approvalPolicy: 'always', files: { 'f.txt': 'f' }, script: script() });
  try {
    const request = always.startTurn('go');
    const first = await always.client.waitForType('approval.requested');
    assert.deepEqual([first.call_id, first.risk], ['r1', 'read_only']);
    always.sendInSession({ type: 'approval.resolve', approval_id: first.approval_id, approved: true });
    const second = await always.client.waitFor((e) => e.type === 'approval.requested' && e.call_id === 'b1');
    assert.equal(second.risk, 'process');
    assert.equal(second.summary, 'Run shell command: touch ran.txt');
    always.sendInSession({ type: 'approval.resolve', approval_id: second.approval_id, approved: false });
    await always.terminalOf(request);
    assert.equal(existsSync(join(always.workspace, 'ran.txt')), false);
  } finally {
    await always.close();
  }
  const never = await startFakeScv({ approvalPolicy: 'never', files: { 'f.txt': 'f' }, script: script() });
  try {
    await never.terminalOf(never.startTurn('go'));
    assert.equal(never.client.ofType('approval.requested').length, 0);
    const results = Object.fromEntries(never.client.ofType('tool.completed').map((e) => [e.call_id, e]));
    assert.equal(results.r1.success, true);
    assert.deepEqual([results.b1.success, results.b1.error, results.b1.output], [false, 'denied', DENIED]);
    assert.equal(existsSync(join(never.workspace, 'ran.txt')), false);
  } finally {
    await never.close();
  }
});

test('bash approved: runs /bin/bash -lc in the workspace, streams tool.progress lines, reports the exit status', async () => {
  const s = await startFakeScv({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'echo first; echo second; pwd; exit 3' } } }] },
      { steps: [{ text: 'It failed with 3.' }] },
    ],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('run it');
    const approval = await s.client.waitForType('approval.requested', { from });
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    await s.terminalOf(request);
    const progress = s.client.ofType('tool.progress', from);
    assert.ok(progress.length >= 1);
    assert.ok(progress.every((e) => e.call_id === 'b1' && Buffer.byteLength(e.text) <= 512));
    assert.deepEqual(
      progress.flatMap((e) => e.text.split('\n')),
      ['first', 'second', s.workspace],
    );
    const completed = s.client.ofType('tool.completed', from)[0];
    assert.equal(completed.success, false);
    assert.equal(completed.error, 'failed');
    assert.equal(completed.output, `exit status 3\nfirst\nsecond\n${s.workspace}\n`);
    const types = s.client.events.slice(from).map((e) => e.type);
    assert.ok(types.indexOf('tool.started') < types.indexOf('tool.progress'));
    assert.ok(types.lastIndexOf('tool.progress') < types.indexOf('tool.completed'));
  } finally {
    await s.close();
  }
});

test('turn.cancel mid-bash kills the process group; the turn is cancelled and its history rolled back', async () => {
  const s = await startFakeScv({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'sleep 30 & echo $! > sleep.pid; echo started; wait' } } }] },
      { steps: [{ text: 'fresh answer' }] },
    ],
  });
  try {
    const from = s.client.events.length;
    const request = s.startTurn('sleep for a while');
    const approval = await s.client.waitForType('approval.requested', { from });
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    await s.client.waitFor((e) => e.type === 'tool.progress' && e.text.includes('started'), { from });
    const sleepPid = Number(readFileSync(join(s.workspace, 'sleep.pid'), 'utf8'));
    assert.ok(isRunning(sleepPid));
    s.sendInSession({ type: 'turn.cancel', turn_id: approval.turn_id });
    const terminal = await s.terminalOf(request, from);
    assert.equal(terminal.type, 'turn.cancelled');
    assert.equal(isRunning(sleepPid), false);
    const completed = s.client.ofType('tool.completed', from)[0];
    assert.deepEqual([completed.success, completed.error], [false, 'cancelled']);
    const stale = s.sendInSession({ type: 'turn.cancel', turn_id: approval.turn_id });
    assert.equal((await s.client.waitFor((e) => e.request_id === stale)).code, 'turn_not_found');
    await s.terminalOf(s.startTurn('next'));
    assert.deepEqual(chatRequests(s.model)[1].body.messages.slice(1), [{ role: 'user', content: 'next' }]);
  } finally {
    await s.close();
  }
});

test('turn.cancel while an approval is pending drops it: turn.cancelled, the approval is gone, nothing ran', async () => {
  const s = await startFakeScv({
    script: [{ steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'touch ran.txt' } } }] }],
  });
  try {
    const request = s.startTurn('go');
    const approval = await s.client.waitForType('approval.requested');
    s.sendInSession({ type: 'turn.cancel', turn_id: approval.turn_id });
    assert.equal((await s.terminalOf(request)).type, 'turn.cancelled');
    assert.equal(s.client.ofType('tool.completed').length, 0);
    const late = s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    assert.equal((await s.client.waitFor((e) => e.request_id === late)).code, 'approval_not_found');
    assert.equal(existsSync(join(s.workspace, 'ran.txt')), false);
  } finally {
    await s.close();
  }
});

test('turn.cancel during the model stream aborts the HTTP request', async () => {
  const s = await startFakeScv({ script: [{ steps: [{ text: 'partial ' }], hangAfterSteps: true }] });
  try {
    const request = s.startTurn('go');
    const delta = await s.client.waitForType('assistant.delta');
    s.sendInSession({ type: 'turn.cancel', turn_id: delta.turn_id });
    assert.equal((await s.terminalOf(request)).type, 'turn.cancelled');
  } finally {
    await s.close();
  }
});

test('a provider HTTP error fails the turn with provider_error and rolls its history back', async () => {
  const s = await startFakeScv({ script: [{ status: 500 }, { steps: [{ text: 'recovered' }] }] });
  try {
    const failed = await s.terminalOf(s.startTurn('doomed'));
    assert.equal(failed.type, 'turn.failed');
    assert.equal(failed.code, 'provider_error');
    assert.match(failed.message, /HTTP 500/);
    await s.terminalOf(s.startTurn('again'));
    assert.deepEqual(chatRequests(s.model)[1].body.messages.slice(1), [{ role: 'user', content: 'again' }]);
  } finally {
    await s.close();
  }
});

test('queue: turn.start while busy is enqueued; update/move/remove check revisions; dequeue runs after the terminal event', async () => {
  const s = await startFakeScv({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] },
      { steps: [{ text: 'first done' }] },
      { steps: [{ text: 'third ran' }] },
      { steps: [{ text: 'second ran' }] },
    ],
  });
  try {
    const first = s.startTurn('first');
    const approval = await s.client.waitForType('approval.requested');
    const second = s.startTurn('second');
    const enq2 = await s.client.waitFor((e) => e.type === 'queue.enqueued' && e.request_id === second);
    assert.equal(enq2.position, 0);
    assert.deepEqual(enq2.entry, { queue_id: enq2.entry.queue_id, revision: 1, prompt: 'second', submitter: 'raw-test-client' });
    const third = s.startTurn('third');
    const enq3 = await s.client.waitFor((e) => e.type === 'queue.enqueued' && e.request_id === third);
    assert.equal(enq3.position, 1);
    const fourth = s.startTurn('fourth');
    const enq4 = await s.client.waitFor((e) => e.type === 'queue.enqueued' && e.request_id === fourth);

    const stale = s.sendInSession({ type: 'queue.update', queue_id: enq2.entry.queue_id, revision: 7, prompt: 'x' });
    assert.equal((await s.client.waitFor((e) => e.request_id === stale)).code, 'queue_conflict');
    const gone = s.sendInSession({ type: 'queue.remove', queue_id: 'q-nope', revision: 1 });
    assert.equal((await s.client.waitFor((e) => e.request_id === gone)).code, 'queue_not_found');

    const upd = s.sendInSession({ type: 'queue.update', queue_id: enq2.entry.queue_id, revision: 1, prompt: 'second, edited' });
    const updated = await s.client.waitFor((e) => e.request_id === upd);
    assert.equal(updated.type, 'queue.updated');
    assert.deepEqual([updated.entry.prompt, updated.entry.revision], ['second, edited', 2]);

    const mv = s.sendInSession({ type: 'queue.move', queue_id: enq3.entry.queue_id, revision: 1, before_queue_id: enq2.entry.queue_id });
    const moved = await s.client.waitFor((e) => e.request_id === mv);
    assert.deepEqual([moved.type, moved.queue_id, moved.position, moved.revision], ['queue.moved', enq3.entry.queue_id, 0, 2]);
    const rm = s.sendInSession({ type: 'queue.remove', queue_id: enq4.entry.queue_id, revision: 1 });
    const removed = await s.client.waitFor((e) => e.request_id === rm);
    assert.deepEqual([removed.type, removed.queue_id], ['queue.removed', enq4.entry.queue_id]);

    const from = s.client.events.length;
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    await s.terminalOf(second, from);
    const flow = s.client.events
      .slice(from)
      .filter((e) => ['turn.completed', 'queue.dequeued', 'turn.started'].includes(e.type))
      .map((e) => `${e.type}:${e.request_id}`);
    assert.deepEqual(flow, [
      `turn.completed:${first}`,
      `queue.dequeued:${third}`,
      `turn.started:${third}`,
      `turn.completed:${third}`,
      `queue.dequeued:${second}`,
      `turn.started:${second}`,
      `turn.completed:${second}`,
    ]);
    const dequeued = s.client.ofType('queue.dequeued', from)[0];
    const thirdStarted = s.client.events.slice(from).find((e) => e.type === 'turn.started' && e.request_id === third)!;
    assert.equal(dequeued.turn_id, thirdStarted.turn_id);
    assert.deepEqual(chatRequests(s.model)[3].body.messages.at(-1), { role: 'user', content: 'second, edited' });
    assert.equal(s.model.pending, 0);
    assertConsecutiveSeq(s.client.events);
  } finally {
    await s.close();
  }
});

test('session.pause holds the queue after the running turn; releasing it dequeues', async () => {
  const s = await startFakeScv({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] },
      { steps: [{ text: 'one' }] },
      { steps: [{ text: 'two' }] },
      { steps: [{ text: 'three' }] },
    ],
  });
  try {
    const first = s.startTurn('first');
    const approval = await s.client.waitForType('approval.requested');
    const second = s.startTurn('second');
    await s.client.waitForType('queue.enqueued');
    const pause = s.sendInSession({ type: 'session.pause', paused: true });
    assert.deepEqual((await s.client.waitFor((e) => e.request_id === pause)).paused, true);
    s.sendInSession({ type: 'approval.resolve', approval_id: approval.approval_id, approved: true });
    await s.terminalOf(first);
    // A request answered after the terminal event proves the server had its chance to dequeue and did not.
    const probe = s.sendInSession({ type: 'queue.remove', queue_id: 'q-probe', revision: 1 });
    await s.client.waitFor((e) => e.request_id === probe);
    assert.equal(s.client.ofType('queue.dequeued').length, 0);
    const busy = s.startTurn('third, queued behind the held one');
    assert.equal((await s.client.waitFor((e) => e.request_id === busy)).type, 'queue.enqueued');
    const resume = s.sendInSession({ type: 'session.pause', paused: false });
    await s.client.waitFor((e) => e.request_id === resume && e.type === 'session.paused');
    assert.equal((await s.terminalOf(second)).type, 'turn.completed');
    assert.equal((await s.terminalOf(busy)).type, 'turn.completed');
  } finally {
    await s.close();
  }
});

test('session.clear: refused with turn_active while busy; when idle, session.cleared and the history is gone', async () => {
  const s = await startFakeScv({
    script: [
      { steps: [{ text: 'before' }] },
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] },
      { steps: [{ text: 'after' }] },
    ],
  });
  try {
    await s.terminalOf(s.startTurn('old prompt'));
    const busyTurn = s.startTurn('busy');
    const approval = await s.client.waitForType('approval.requested');
    const refused = s.sendInSession({ type: 'session.clear' });
    assert.equal((await s.client.waitFor((e) => e.request_id === refused)).code, 'turn_active');
    s.sendInSession({ type: 'turn.cancel', turn_id: approval.turn_id });
    await s.terminalOf(busyTurn);
    const clear = s.sendInSession({ type: 'session.clear' });
    const cleared = await s.client.waitFor((e) => e.request_id === clear);
    assert.equal(cleared.type, 'session.cleared');
    assert.equal(typeof cleared.seq, 'number');
    await s.terminalOf(s.startTurn('new prompt'));
    assert.deepEqual(chatRequests(s.model)[2].body.messages.slice(1), [{ role: 'user', content: 'new prompt' }]);
    assertConsecutiveSeq(s.client.events);
  } finally {
    await s.close();
  }
});

test('limits: a prompt over 256 KiB and a frame over 1 MiB are invalid_request; the session goes on', async () => {
  const s = await startFakeScv({ script: [{ steps: [{ text: 'still here' }] }] });
  try {
    const big = s.startTurn('p'.repeat(256 * 1024 + 1));
    const refused = await s.client.waitFor((e) => e.request_id === big);
    assert.deepEqual([refused.type, refused.code], ['error', 'invalid_request']);
    const empty = s.startTurn('');
    assert.equal((await s.client.waitFor((e) => e.request_id === empty)).code, 'invalid_request');
    const from = s.client.events.length;
    s.client.sendRaw(
      JSON.stringify({ type: 'turn.start', request_id: 'huge', session_id: s.sessionId, prompt: 'q'.repeat(1024 * 1024) }) + '\n',
    );
    const frame = await s.client.waitForType('error', { from });
    assert.equal(frame.code, 'invalid_request');
    assert.match(frame.message, /1048576/);
    assert.equal((await s.terminalOf(s.startTurn('small'))).type, 'turn.completed');
  } finally {
    await s.close();
  }
});

test('stdin EOF cancels the active turn and the server exits', async () => {
  const s = await startFakeScv({ script: [{ steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] }] });
  try {
    const request = s.startTurn('go');
    await s.client.waitForType('approval.requested');
    s.client.child.stdin.end();
    await s.client.waitForExit();
    assert.equal(s.client.exitCode, 0);
    assert.equal(s.client.events.find((e) => isTerminal(e) && e.request_id === request)?.type, 'turn.cancelled');
  } finally {
    await s.close();
  }
});

test('agent loop: the step limit fails the turn with step_limit', async () => {
  const call = (id: string) => ({ steps: [{ toolCall: { id, name: 'read', arguments: { path: 'f.txt' } } }] });
  const s = await startFakeScv({ faults: { maxSteps: 2 }, files: { 'f.txt': 'x' }, script: [call('r1'), call('r2')] });
  try {
    const failed = await s.terminalOf(s.startTurn('loop'));
    assert.deepEqual([failed.type, failed.code], ['turn.failed', 'step_limit']);
    assert.equal(chatRequests(s.model).length, 2);
  } finally {
    await s.close();
  }
});

// ---- fault injection ------------------------------------------------------------------------------

test('fault protocolVersion: initialized claims that version; with strictVersion the server rejects protocol 3 as a real one would', async () => {
  const lenient = await startFakeScv({ handshake: false, faults: { protocolVersion: 4 } });
  try {
    lenient.client.send({ type: 'initialize', protocol_version: 3, client: { name: 't', version: '1' } });
    assert.equal((await lenient.client.waitForType('initialized')).protocol_version, 4);
  } finally {
    await lenient.close();
  }
  const strict = await startFakeScv({ handshake: false, faults: { protocolVersion: 2, strictVersion: true } });
  try {
    strict.client.send({ type: 'initialize', protocol_version: 3, client: { name: 't', version: '1' } });
    const error = await strict.client.waitForType('error');
    assert.deepEqual([error.code, error.fatal], ['version_mismatch', true]);
    await strict.client.waitForExit();
  } finally {
    await strict.close();
  }
});

test('faults unknownEventBeforeCompleted and seqGapBeforeCompleted: a "future.thing" takes a seq; a gap skips one', async () => {
  const s = await startFakeScv({
    faults: { unknownEventBeforeCompleted: true, seqGapBeforeCompleted: true },
    script: [{ steps: [{ text: 'hi' }] }],
  });
  try {
    const done = await s.terminalOf(s.startTurn('go'));
    const unknown = s.client.ofType('future.thing')[0];
    const completedStep = s.client.ofType('assistant.completed')[0];
    assert.equal(unknown.seq, completedStep.seq + 1);
    assert.equal(unknown.turn_id, done.turn_id);
    assert.equal(done.seq, unknown.seq + 2);
  } finally {
    await s.close();
  }
});

test('fault duplicateDelta: the first assistant.delta is written twice with the same seq', async () => {
  const s = await startFakeScv({ faults: { duplicateDelta: true }, script: [{ steps: [{ text: 'abcdefgh12345678' }] }] });
  try {
    await s.terminalOf(s.startTurn('go'));
    const deltas = s.client.ofType('assistant.delta');
    assert.deepEqual(
      deltas.map((e) => e.content),
      ['abcdefgh', 'abcdefgh', '12345678'],
    );
    assert.equal(deltas[0].seq, deltas[1].seq);
    assert.equal(deltas[2].seq, deltas[1].seq + 1);
  } finally {
    await s.close();
  }
});

test('fault oversizedLineBytes: one junk line of exactly that size after turn.started, without a seq', async () => {
  const s = await startFakeScv({ faults: { oversizedLineBytes: 9_000_000 }, script: [{ steps: [{ text: 'after the junk' }] }] });
  try {
    const done = await s.terminalOf(s.startTurn('go'));
    assert.equal(done.type, 'turn.completed');
    const startedAt = s.client.lines.findIndex((l) => l.includes('"turn.started"'));
    const junk = s.client.lines[startedAt + 1];
    assert.equal(Buffer.byteLength(junk), 9_000_000);
    assert.equal(JSON.parse(junk).seq, undefined);
  } finally {
    await s.close();
  }
});

test('fault backgroundTurnAfterMs: a server-started turn with origin background and request_id background:1', async () => {
  const s = await startFakeScv({ faults: { backgroundTurnAfterMs: 0 }, script: [{ steps: [{ text: 'job-1 finished fine' }] }] });
  try {
    const done = await s.terminalOf('background:1');
    const started = s.client.ofType('turn.started')[0];
    assert.deepEqual(started.origin, { kind: 'background', jobs: ['job-1'] });
    assert.deepEqual(done.origin, { kind: 'background', jobs: ['job-1'] });
    assert.match(chatRequests(s.model)[0].body.messages.at(-1).content, /job-1/);
  } finally {
    await s.close();
  }
});

test('fault exitAfterHandshake: the server exits with code 1 right after session.started and queue.snapshot', async () => {
  const s = await startFakeScv({ faults: { exitAfterHandshake: true } });
  try {
    await s.client.waitForExit();
    assert.equal(s.client.exitCode, 1);
    assert.deepEqual(
      s.client.events.map((e) => e.type),
      ['initialized', 'session.started', 'queue.snapshot'],
    );
  } finally {
    await s.close();
  }
});

test('faults compactedAfterStarted and trimmedAfterCompleted: context.compacted in the turn, session.trimmed after it', async () => {
  const s = await startFakeScv({
    faults: { compactedAfterStarted: true, trimmedAfterCompleted: true },
    script: [{ steps: [{ text: 'hi' }] }],
  });
  try {
    const done = await s.terminalOf(s.startTurn('go'));
    const trimmed = await s.client.waitForType('session.trimmed');
    const compacted = s.client.ofType('context.compacted')[0];
    assert.equal(compacted.turn_id, done.turn_id);
    assert.deepEqual([compacted.before_tokens, compacted.after_tokens, compacted.removed_messages], [120000, 40000, 6]);
    assert.equal(trimmed.seq, done.seq + 1);
    assert.equal(trimmed.turn_id, undefined);
    assertConsecutiveSeq(s.client.events);
  } finally {
    await s.close();
  }
});

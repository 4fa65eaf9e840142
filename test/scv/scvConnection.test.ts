// Scenarios for the SCV adapter over real stdio: ScvConnection drives the fake scv-server, which drives the scripted
// model server and runs real tools in a temp workspace. What the session sees is Catalyst v2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCV_TEST_MODEL, chatRequests } from './fakeScvScenario';
import { startScvAdapter, type AdapterEvent, type ScvAdapterScenario } from './scvAdapterScenario';
import { pollUntil, processGone } from '../support/processState';

const DENIED = 'tool call denied by policy or user';
const CANCELLED_NOTE = "SCV rolled back this turn's conversation; files it changed stay changed";

function queueOf(e: AdapterEvent): { entries: { id: string; revision: number; prompt: string }[]; paused: boolean } {
  return e.queue;
}

/** The prompts the adapter showed (`client:prompt`) after `from`, in order. */
function promptsShown(s: ScvAdapterScenario, from = 0): string[] {
  return s.ofType('client:prompt', from).map((e) => e.text);
}

/** The latest `client:server_queue` after `from` that satisfies `pred`. */
function waitForQueue(s: ScvAdapterScenario, pred: (q: ReturnType<typeof queueOf>) => boolean, from = 0): Promise<AdapterEvent> {
  return s.waitFor((e) => e.type === 'client:server_queue' && pred(queueOf(e)), { from });
}

test('handshake: ready and protocol_hello come from session.started; the queue mirror starts empty', async () => {
  const s = await startScvAdapter({ approvalPolicy: 'always' });
  try {
    const hello = s.ofType('protocol_hello')[0];
    assert.equal(hello.protocol_version, 2);
    assert.equal(hello.version, '0.3.14-fake');
    assert.ok(hello.capabilities.includes('server_queue'));
    assert.ok(hello.capabilities.includes('tool_progress'));
    const ready = s.ofType('ready')[0];
    assert.equal(ready.models[0].id, SCV_TEST_MODEL);
    assert.equal(ready.models[0].context_window, 128000);
    assert.equal(ready.provider, 'scv');
    assert.equal(ready.workspace, s.workspace);
    assert.equal(ready.approval, 'always');
    assert.equal(ready.authed, true);
    const queue = s.ofType('client:server_queue')[0];
    assert.deepEqual(queueOf(queue), { entries: [], paused: false });
    assert.equal(s.channel.limits?.maxPromptBytes, 262144);
    assert.ok(s.channel.serverQueue, 'the adapter exposes the server queue');
  } finally {
    await s.close();
  }
});

test('handshake: the default policy on-risk is shown as destructive', async () => {
  const s = await startScvAdapter();
  try {
    assert.equal(s.ofType('ready')[0].approval, 'destructive');
  } finally {
    await s.close();
  }
});

test('handshake: a server claiming another protocol version is refused with a message naming both versions and the server', async () => {
  const s = await startScvAdapter({ handshake: false, faults: { protocolVersion: 4 } });
  try {
    await assert.rejects(s.channel.handshake(), (error: Error) => {
      assert.match(error.message, /4/);
      assert.match(error.message, /3/);
      assert.match(error.message, /scv-server/);
      assert.match(error.message, /0\.3\.14-fake/);
      return true;
    });
    assert.equal(s.ofType('ready').length, 0);
  } finally {
    await s.close();
  }
});

test('handshake: a fatal version_mismatch from the server rejects the handshake with its message', async () => {
  const s = await startScvAdapter({ handshake: false, faults: { protocolVersion: 2, strictVersion: true } });
  try {
    await assert.rejects(s.channel.handshake(), /version_mismatch|protocol 3.*2|2.*3/);
    assert.equal(s.ofType('ready').length, 0);
  } finally {
    await s.close();
  }
});

test('a server that dies right after the handshake is seen exiting', async () => {
  const s = await startScvAdapter({ faults: { exitAfterHandshake: true } });
  try {
    const exit = await s.exited;
    assert.equal(exit.code, 1);
    assert.equal(s.channel.hasExited, true);
    assert.equal(s.channel.send({ type: 'send', prompt: 'anyone?', model: SCV_TEST_MODEL }), false);
  } finally {
    await s.close();
  }
});

test('a streamed turn: deltas carry run_id = turn_id and session_id, then done', async () => {
  const s = await startScvAdapter({
    script: [{ steps: [{ text: 'Hello there, this is a streamed SCV answer.' }], usage: { prompt: 40, completion: 8 } }],
  });
  try {
    const from = s.prompt('say hello');
    const done = await s.waitForType('done', { from });
    const deltas = s.ofType('delta', from);
    assert.ok(deltas.length > 1, 'streamed in several deltas');
    assert.equal(deltas.map((e) => e.text).join(''), 'Hello there, this is a streamed SCV answer.');
    const runId = done.run_id;
    assert.match(runId, /^[0-9a-f-]{36}$/);
    assert.ok(deltas.every((e) => e.run_id === runId && typeof e.session_id === 'string' && e.session_id === done.session_id));
    // The session shows no prompt itself: the adapter shows it once, when turn.started answers its turn.start.
    const shown = s.ofType('client:prompt', from);
    assert.deepEqual(shown, [{ type: 'client:prompt', text: 'say hello', images: 0 }]);
    assert.ok(s.events.indexOf(shown[0]) < s.events.indexOf(deltas[0]), 'the prompt shows before the answer');
    assert.deepEqual(chatRequests(s.model)[0].body.messages.at(-1), { role: 'user', content: 'say hello' });
    s.send({ type: 'stats' });
    const stats = await s.waitForType('stats', { from });
    assert.equal(stats.tokens_in, 40, "the last turn's input_tokens");
    assert.equal(stats.total_in, 40);
    assert.equal(stats.tokens_out, 8);
    assert.equal(stats.turns, 1);
  } finally {
    await s.close();
  }
});

test('a queued turn: a prompt sent while busy shows in client:server_queue; once dequeued it becomes client:prompt and its own turn', async () => {
  const s = await startScvAdapter({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] },
      { steps: [{ text: 'first done' }] },
      { steps: [{ text: 'second done' }] },
    ],
  });
  try {
    const from = s.prompt('first');
    const approval = await s.waitForType('approval_request', { from });
    const queuedFrom = s.prompt('second');
    const queued = await waitForQueue(s, (q) => q.entries.length === 1, queuedFrom);
    assert.equal(queueOf(queued).entries[0].prompt, 'second');
    assert.deepEqual(promptsShown(s, from), ['first'], 'the running prompt shows as its turn started; the queued one only in the queue');
    assert.equal(s.ofType('aborted', from).length, 0);
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    const firstDone = await s.waitForType('done', { from });
    const prompt = await s.waitFor((e) => e.type === 'client:prompt' && e.text === 'second', { from });
    assert.deepEqual(prompt, { type: 'client:prompt', text: 'second', images: 0 });
    const promptAt = s.events.indexOf(prompt);
    assert.equal(s.events.indexOf(firstDone) < promptAt, true, 'dequeued after the previous terminal event');
    const emptied = s.events.slice(0, promptAt).findLast((e) => e.type === 'client:server_queue');
    assert.deepEqual(queueOf(emptied!).entries, [], 'the entry leaves the mirror before its prompt shows');
    const secondDone = await s.waitForType('done', { from: promptAt });
    assert.notEqual(secondDone.run_id, firstDone.run_id);
    assert.equal(
      s
        .ofType('delta', promptAt)
        .map((e) => e.text)
        .join(''),
      'second done',
    );
    assert.ok(s.ofType('delta', promptAt).every((e) => e.run_id === secondDone.run_id));
    assert.deepEqual(promptsShown(s, from), ['first', 'second'], 'each prompt shown once');
  } finally {
    await s.close();
  }
});

test('queue edit, move, remove, pause and clear_queue go to the server and come back through the mirror', async () => {
  const s = await startScvAdapter({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] },
      { steps: [{ text: 'first done' }] },
      { steps: [{ text: 'C ran' }] },
      { steps: [{ text: 'B ran' }] },
    ],
  });
  try {
    const queue = s.channel.serverQueue!;
    const from = s.prompt('first');
    const approval = await s.waitForType('approval_request', { from });
    s.prompt('B');
    s.prompt('C');
    s.prompt('D');
    const three = queueOf(await waitForQueue(s, (q) => q.entries.length === 3, from));
    const [b, c, d] = three.entries;
    assert.deepEqual([b.prompt, c.prompt, d.prompt], ['B', 'C', 'D']);

    assert.equal(queue.edit(b.id, 'B, edited'), true);
    await waitForQueue(s, (q) => q.entries[0]?.prompt === 'B, edited');
    assert.equal(queue.move(c.id, b.id), true);
    await waitForQueue(s, (q) => q.entries.map((e) => e.prompt).join('|') === 'C|B, edited|D');
    assert.equal(queue.remove(d.id), true);
    await waitForQueue(s, (q) => q.entries.length === 2);

    const before = s.events.length;
    assert.equal(queue.edit('q-unknown', 'x'), false);
    assert.equal(s.ofType('error', before)[0]?.code, 'queue_not_found');

    assert.equal(queue.pause(true), true);
    await waitForQueue(s, (q) => q.paused);
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    const firstDone = await s.waitForType('done', { from });
    // A server round trip after the terminal event: had the server dequeued, its events would come before this answer.
    const probeFrom = s.events.length;
    assert.equal(queue.pause(true), true);
    await waitForQueue(s, (q) => q.paused, probeFrom);
    assert.equal(s.ofType('client:prompt', s.events.indexOf(firstDone)).length, 0, 'nothing dequeued while paused');

    const resumeFrom = s.events.length;
    assert.equal(queue.pause(false), true);
    const promptC = await s.waitFor((e) => e.type === 'client:prompt' && e.text === 'C', { from: resumeFrom });
    const doneC = await s.waitForType('done', { from: s.events.indexOf(promptC) });
    const promptB = await s.waitFor((e) => e.type === 'client:prompt' && e.text === 'B, edited', { from: resumeFrom });
    await s.waitForType('done', { from: s.events.indexOf(promptB) });
    assert.ok(s.events.indexOf(doneC) < s.events.indexOf(promptB));
    assert.deepEqual(promptsShown(s, from), ['first', 'C', 'B, edited'], 'each shown once as its turn started; the removed D never');
    assert.deepEqual(chatRequests(s.model)[3].body.messages.at(-1), { role: 'user', content: 'B, edited' });
  } finally {
    await s.close();
  }
});

test('clear_queue removes every mirrored entry on the server; abort leaves queued prompts alone', async () => {
  const s = await startScvAdapter({ script: [{ steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] }] });
  try {
    const from = s.prompt('first');
    await s.waitForType('approval_request', { from });
    s.prompt('B');
    s.prompt('C');
    await waitForQueue(s, (q) => q.entries.length === 2, from);
    assert.equal(s.channel.serverQueue!.pause(true), true);
    await waitForQueue(s, (q) => q.paused, from);
    s.send({ type: 'abort' });
    await s.waitForType('aborted', { from });
    // The queue panel is the place to drop queued prompts: abort kept them.
    const afterAbort = s.events.length;
    assert.equal(s.channel.serverQueue!.pause(true), true);
    const still = await waitForQueue(s, (q) => q.paused, afterAbort);
    assert.equal(queueOf(still).entries.length, 2);
    s.send({ type: 'clear_queue' });
    await waitForQueue(s, (q) => q.entries.length === 0, afterAbort);
    assert.deepEqual(promptsShown(s, from), ['first'], 'the queued B and C never showed in the transcript');
  } finally {
    await s.close();
  }
});

test('a write approval approved: tool_call, approval_request with the SCV summary and risk, the file on disk, tool_result', async () => {
  const content = 'export const answer = 42;\n';
  const s = await startScvAdapter({
    script: [
      {
        steps: [
          { text: 'Writing it.' },
          { toolCall: { id: 'call_w', name: 'write', arguments: { path: 'src/answer.ts', content, mode: 'create' } } },
        ],
      },
      { steps: [{ text: 'Created.' }] },
    ],
  });
  try {
    const from = s.prompt('create the file');
    const approval = await s.waitForType('approval_request', { from });
    const call = s.ofType('tool_call', from)[0];
    assert.equal(call.id, 'call_w');
    assert.equal(call.name, 'write');
    assert.deepEqual(JSON.parse(call.args), { path: 'src/answer.ts', content, mode: 'create' });
    assert.equal(approval.tool_call_id, 'call_w');
    assert.equal(approval.tool, 'write');
    assert.equal(approval.risk, 'destructive');
    assert.equal(approval.requested_permission, 'destructive');
    assert.equal(approval.scv_risk, 'filesystem');
    assert.equal(approval.summary, `Create src/answer.ts (${Buffer.byteLength(content)} bytes)`);
    assert.deepEqual(JSON.parse(approval.args), { path: 'src/answer.ts', content, mode: 'create' });
    assert.equal(typeof approval.created_at, 'number');
    assert.equal(approval.run_id, call.run_id);
    assert.equal(existsSync(join(s.workspace, 'src/answer.ts')), false);
    assert.equal(s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' }), true);
    const done = await s.waitForType('done', { from });
    const result = s.ofType('tool_result', from)[0];
    assert.equal(result.id, 'call_w');
    assert.equal(result.ok, true);
    assert.equal(result.status, 'success');
    assert.equal(JSON.parse(result.output).path, 'src/answer.ts');
    assert.equal(readFileSync(join(s.workspace, 'src/answer.ts'), 'utf8'), content);
    assert.equal(
      s
        .ofType('delta', from)
        .map((e) => e.text)
        .join(''),
      'Writing it.Created.',
    );
    assert.ok([call, approval, result].every((e) => e.run_id === done.run_id));
  } finally {
    await s.close();
  }
});

test('a write approval denied: the file is untouched, tool_result is denied and the model sees the denial next', async () => {
  const s = await startScvAdapter({
    files: { 'keep.txt': 'keep me\n' },
    script: [
      { steps: [{ toolCall: { id: 'call_w', name: 'write', arguments: { path: 'keep.txt', content: 'gone\n', mode: 'replace' } } }] },
      { steps: [{ text: 'Fine, unchanged.' }] },
    ],
  });
  try {
    const from = s.prompt('overwrite keep.txt');
    const approval = await s.waitForType('approval_request', { from });
    assert.equal(approval.summary, 'Replace keep.txt (5 bytes)');
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'no' });
    await s.waitForType('done', { from });
    const result = s.ofType('tool_result', from)[0];
    assert.deepEqual([result.ok, result.status, result.output], [false, 'denied', DENIED]);
    assert.equal(readFileSync(join(s.workspace, 'keep.txt'), 'utf8'), 'keep me\n');
    assert.deepEqual(chatRequests(s.model)[1].body.messages.at(-1), { role: 'tool', tool_call_id: 'call_w', content: DENIED });
  } finally {
    await s.close();
  }
});

test('allow_session: the next matching approval is answered by the adapter and shown as an info, not a card', async () => {
  const write = (id: string, path: string) => ({
    steps: [{ toolCall: { id, name: 'write', arguments: { path, content: 'x', mode: 'create' } } }],
  });
  const s = await startScvAdapter({ script: [write('w1', 'one.txt'), write('w2', 'two.txt'), { steps: [{ text: 'both written' }] }] });
  try {
    const from = s.prompt('write two files');
    const approval = await s.waitForType('approval_request', { from });
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'allow_session' });
    await s.waitForType('done', { from });
    assert.equal(s.ofType('approval_request', from).length, 1);
    const info = s.ofType('info', from).find((e) => /Approved by your rule for write \(this session\)/.test(e.message));
    assert.ok(info, 'an info row says the rule answered');
    assert.equal(readFileSync(join(s.workspace, 'two.txt'), 'utf8'), 'x');
  } finally {
    await s.close();
  }
});

test('allow_pattern and edited content are refused locally as unsupported; the approval stays pending', async () => {
  const s = await startScvAdapter({
    script: [
      { steps: [{ toolCall: { id: 'call_w', name: 'write', arguments: { path: 'a.txt', content: 'model\n', mode: 'create' } } }] },
      { steps: [{ text: 'ok' }] },
    ],
  });
  try {
    const from = s.prompt('write');
    const approval = await s.waitForType('approval_request', { from });
    assert.equal(s.send({ type: 'approve', request_id: approval.request_id, decision: 'allow_pattern', pattern: '*.txt' }), false);
    assert.equal(s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes', edited_content: 'mine\n' }), false);
    const errors = s.ofType('error', from);
    assert.deepEqual(
      errors.map((e) => e.code),
      ['unsupported', 'unsupported'],
    );
    assert.match(errors[1].message, /SCV cannot apply an edited proposal/);
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    await s.waitForType('done', { from });
    assert.equal(readFileSync(join(s.workspace, 'a.txt'), 'utf8'), 'model\n');
  } finally {
    await s.close();
  }
});

test('a bash approval: the command runs in the workspace, progress lines arrive as client:tool_progress', async () => {
  const s = await startScvAdapter({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'echo building; echo tested > out.txt; echo finished' } } }] },
      { steps: [{ text: 'ran it' }] },
    ],
  });
  try {
    const from = s.prompt('build');
    const approval = await s.waitForType('approval_request', { from });
    assert.equal(approval.tool, 'bash');
    assert.equal(approval.scv_risk, 'process');
    assert.equal(approval.summary, 'Run shell command: echo building; echo tested > out.txt; echo finished');
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    await s.waitForType('done', { from });
    const progress = s.ofType('client:tool_progress', from);
    assert.ok(progress.length >= 1);
    assert.ok(progress.every((e) => e.id === 'b1'));
    assert.deepEqual(
      progress.flatMap((e) => e.text.split('\n')),
      ['building', 'finished'],
    );
    const result = s.ofType('tool_result', from)[0];
    assert.deepEqual([result.ok, result.status], [true, 'success']);
    assert.equal(result.output, 'exit status 0\nbuilding\nfinished\n');
    assert.equal(readFileSync(join(s.workspace, 'out.txt'), 'utf8'), 'tested\n');
  } finally {
    await s.close();
  }
});

test('abort mid-tool: a running `sleep 30` is stopped and aborted arrives with the rollback note', async () => {
  const s = await startScvAdapter({
    script: [
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'sleep 30 & echo $! > sleep.pid; echo sleeping; wait' } } }] },
      { steps: [{ text: 'next turn' }] },
    ],
  });
  try {
    const from = s.prompt('sleep');
    const approval = await s.waitForType('approval_request', { from });
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    await s.waitFor((e) => e.type === 'client:tool_progress' && e.text.includes('sleeping'), { from });
    const sleepPid = Number(readFileSync(join(s.workspace, 'sleep.pid'), 'utf8'));
    assert.equal(processGone(sleepPid), false);
    assert.equal(s.send({ type: 'abort' }), true);
    const aborted = await s.waitForType('aborted', { from });
    assert.equal(aborted.run_id, approval.run_id);
    // The sleep is a grandchild killed with its process group: it has no exit event here, and SIGKILL is not instant.
    assert.ok(await pollUntil(() => processGone(sleepPid)), 'the sleep was killed (it would run 30 s)');
    const note = s.ofType('info', from).find((e) => e.message === CANCELLED_NOTE);
    assert.ok(note, 'the rollback note is shown');
    assert.equal(s.ofType('done', from).length, 0);
    const next = s.prompt('again');
    await s.waitForType('done', { from: next });
    assert.deepEqual(chatRequests(s.model)[1].body.messages.slice(1), [{ role: 'user', content: 'again' }]);
  } finally {
    await s.close();
  }
});

test('abort with nothing running says so', async () => {
  const s = await startScvAdapter();
  try {
    const from = s.events.length;
    s.send({ type: 'abort' });
    const info = await s.waitForType('info', { from });
    assert.match(info.message, /nothing to stop/);
  } finally {
    await s.close();
  }
});

test('turn.failed (HTTP 500 from the model) becomes error{provider_error} then done', async () => {
  const s = await startScvAdapter({ script: [{ status: 500 }] });
  try {
    const from = s.prompt('doomed');
    const done = await s.waitForType('done', { from });
    const error = s.ofType('error', from)[0];
    assert.equal(error.code, 'provider_error');
    assert.match(error.message, /HTTP 500/);
    assert.equal(error.run_id, done.run_id);
    assert.ok(s.events.indexOf(error) < s.events.indexOf(done));
  } finally {
    await s.close();
  }
});

test('an unknown event type is logged once and skipped; the seq number it used is no gap', async () => {
  const s = await startScvAdapter({
    faults: { unknownEventBeforeCompleted: true },
    script: [{ steps: [{ text: 'hi' }] }, { steps: [{ text: 'again' }] }],
  });
  try {
    await s.waitForType('done', { from: s.prompt('one') });
    await s.waitForType('done', { from: s.prompt('two') });
    assert.equal(s.events.filter((e) => e.type === 'future.thing').length, 0);
    assert.equal(s.logs.filter((l) => l.includes('future.thing')).length, 1);
    assert.equal(s.logs.filter((l) => /events lost/.test(l)).length, 0);
  } finally {
    await s.close();
  }
});

test('a seq gap is logged once with the numbers, and the turn goes on', async () => {
  const s = await startScvAdapter({ faults: { seqGapBeforeCompleted: true }, script: [{ steps: [{ text: 'complete text' }] }] });
  try {
    const from = s.prompt('go');
    await s.waitForType('done', { from });
    const gaps = s.logs.filter((l) => /SCV events lost: expected seq \d+, got \d+/.test(l));
    assert.equal(gaps.length, 1);
    const [, expected, got] = /expected seq (\d+), got (\d+)/.exec(gaps[0])!;
    assert.equal(Number(got), Number(expected) + 1);
    assert.equal(
      s
        .ofType('delta', from)
        .map((e) => e.text)
        .join(''),
      'complete text',
    );
  } finally {
    await s.close();
  }
});

test('a duplicated event (same seq) is dropped and logged', async () => {
  const s = await startScvAdapter({ faults: { duplicateDelta: true }, script: [{ steps: [{ text: 'abcdefgh12345678' }] }] });
  try {
    const from = s.prompt('go');
    await s.waitForType('done', { from });
    assert.equal(
      s
        .ofType('delta', from)
        .map((e) => e.text)
        .join(''),
      'abcdefgh12345678',
    );
    assert.ok(s.logs.some((l) => /duplicate/i.test(l)));
  } finally {
    await s.close();
  }
});

test('an oversized line (over the 8 MiB frame limit) is dropped and logged; the session goes on', async () => {
  const s = await startScvAdapter({
    faults: { oversizedLineBytes: 9_000_000 },
    script: [{ steps: [{ text: 'after the junk' }] }, { steps: [{ text: 'still fine' }] }],
  });
  try {
    const from = s.prompt('go');
    await s.waitForType('done', { from });
    assert.equal(
      s
        .ofType('delta', from)
        .map((e) => e.text)
        .join(''),
      'after the junk',
    );
    assert.ok(
      s.logs.some((l) => /9000000/.test(l)),
      'the dropped line is logged with its size',
    );
    assert.ok(s.events.every((e) => e.type !== 'fake.junk'));
    const next = s.prompt('again');
    await s.waitForType('done', { from: next });
  } finally {
    await s.close();
  }
});

test('a background turn the server starts is announced with client:server_turn and runs under its own run_id', async () => {
  const s = await startScvAdapter({ faults: { backgroundTurnAfterMs: 0 }, script: [{ steps: [{ text: 'job-1 landed its change' }] }] });
  try {
    const announced = await s.waitForType('client:server_turn');
    assert.match(announced.reason, /job-1/);
    const done = await s.waitForType('done');
    assert.equal(done.run_id, announced.runId);
    const deltas = s.ofType('delta');
    assert.equal(deltas.map((e) => e.text).join(''), 'job-1 landed its change');
    assert.ok(deltas.every((e) => e.run_id === announced.runId));
    assert.equal(s.ofType('client:prompt').length, 0);
  } finally {
    await s.close();
  }
});

test('clear between turns resets the session on the server; while busy it is refused with turn_active', async () => {
  const s = await startScvAdapter({
    script: [
      { steps: [{ text: 'remember me' }] },
      { steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'true' } } }] },
      { steps: [{ text: 'fresh' }] },
    ],
  });
  try {
    await s.waitForType('done', { from: s.prompt('old') });
    const busy = s.prompt('busy');
    const approval = await s.waitForType('approval_request', { from: busy });
    assert.equal(s.send({ type: 'clear' }), false);
    assert.equal(s.ofType('error', busy).at(-1)?.code, 'turn_active');
    s.send({ type: 'approve', request_id: approval.request_id, decision: 'no' });
    await s.waitForType('done', { from: busy });
    const clearFrom = s.events.length;
    assert.equal(s.send({ type: 'reset' }), true);
    await s.waitForType('reset', { from: clearFrom });
    await s.waitForType('done', { from: s.prompt('new') });
    assert.deepEqual(chatRequests(s.model).at(-1)!.body.messages.slice(1), [{ role: 'user', content: 'new' }]);
  } finally {
    await s.close();
  }
});

test('commands SCV cannot do are refused with unsupported and send() returns false', async () => {
  const s = await startScvAdapter();
  try {
    const from = s.events.length;
    assert.equal(s.send({ type: 'steer', prompt: 'go left', model: SCV_TEST_MODEL }), false);
    assert.equal(s.send({ type: 'list_checkpoints' }), false);
    const errors = s.ofType('error', from);
    assert.deepEqual(
      errors.map((e) => e.code),
      ['unsupported', 'unsupported'],
    );
    assert.ok(errors.every((e) => /not available with an SCV server/.test(e.message)));
  } finally {
    await s.close();
  }
});

test('a prompt over 256 KiB is refused locally before anything is sent', async () => {
  const s = await startScvAdapter();
  try {
    const from = s.prompt('x'.repeat(256 * 1024 + 1));
    const error = await s.waitForType('error', { from });
    assert.match(error.message, /256|262144|bytes/);
    assert.equal(chatRequests(s.model).length, 0);
    assert.deepEqual(
      s.events.slice(from).map((e) => e.type),
      ['error'],
      'nothing was shown: no aborted, no client:prompt',
    );
  } finally {
    await s.close();
  }
});

test('context.compacted becomes compacted in the run; session.trimmed becomes an info', async () => {
  const s = await startScvAdapter({
    faults: { compactedAfterStarted: true, trimmedAfterCompleted: true },
    script: [{ steps: [{ text: 'short' }] }],
  });
  try {
    const from = s.prompt('go');
    const done = await s.waitForType('done', { from });
    const compacted = s.ofType('compacted', from)[0];
    assert.deepEqual(
      [compacted.before_tokens, compacted.after_tokens, compacted.scope, compacted.run_id],
      [120000, 40000, 'session', done.run_id],
    );
    const trimmed = await s.waitFor((e) => e.type === 'info' && /removed 2 older messages/.test(e.message), { from });
    assert.ok(s.events.indexOf(trimmed) > s.events.indexOf(done));
  } finally {
    await s.close();
  }
});

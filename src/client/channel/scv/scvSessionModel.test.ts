// The translator's events through the real session reducer: field names and event order must make a usable session.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../../../shared/sessionState';
import type { ClientEvent } from '../../state/clientEvents';
import { sessionReducer } from '../../state/sessionReducer';
import type { TranslatorStep } from './scvTranslator';
import { TranslatorHarness } from '../../../../test/support/scvTestHarness';

const T1 = 'turn-1';
const users = (s: SessionState) => s.items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));

function reduce(s: SessionState, ...steps: (TranslatorStep | ClientEvent)[]): SessionState {
  let next = s;
  for (const step of steps) {
    const events = 'events' in step ? step.events : [step];
    for (const e of events) next = sessionReducer(next, e);
  }
  return next;
}

/** What the SessionController does around the handshake: starting, the adapter's events, then ready with hello's capabilities. */
function readySession(h: TranslatorHarness): SessionState {
  let s = reduce(initialSessionState('scv'), { type: 'client:core_status', status: 'starting', kind: 'scv' });
  const snap = h.handshake({ entries: [{ queue_id: 'q1', revision: 1, prompt: 'queued earlier', submitter: 'x' }] });
  s = reduce(s, snap);
  const hello = snap.events.find((e) => e.type === 'protocol_hello') as { capabilities: string[]; version: string };
  return reduce(s, {
    type: 'client:core_status',
    status: 'ready',
    kind: 'scv',
    pid: 42,
    capabilities: hello.capabilities,
    version: hello.version,
  });
}

describe('SCV events in the session model', () => {
  test('after the handshake the session is usable: scv core ready, the model selected, the queue shown', () => {
    const s = readySession(new TranslatorHarness());
    assert.equal(s.core.kind, 'scv');
    assert.equal(s.core.status, 'ready');
    assert.equal(s.core.version, '0.3.14');
    assert.deepEqual([...s.core.capabilities].sort(), ['server_queue', 'tool_progress']);
    assert.deepEqual(s.models, [{ id: 'gpt-test', name: 'gpt-test', contextWindow: 128_000 }]);
    assert.equal(s.model, 'gpt-test');
    assert.equal(s.authed, true);
    assert.equal(s.provider, 'scv');
    assert.equal(s.workspace, '/ws');
    assert.equal(s.approvalMode, 'destructive');
    assert.deepEqual(s.serverQueue, { entries: [{ id: 'q1', revision: 1, prompt: 'queued earlier' }], paused: false });
    assert.equal(s.run.status, 'idle');
  });

  test('a full turn: text, a tool call with its approval and progress, the result, more text, done', () => {
    const h = new TranslatorHarness();
    let s = readySession(h);
    // The SessionController dispatches no client:prompt for a core with a server queue: the adapter shows the prompt.
    s = reduce(s, h.record(h.t.onCommand({ type: 'send', prompt: 'fix the build', model: 'gpt-test' })));
    assert.deepEqual(users(s), [], 'not shown before its turn starts');
    assert.equal(s.run.status, 'idle');
    s = reduce(s, h.turnEvent('turn.started', T1));
    assert.deepEqual(users(s), ['fix the build']);
    assert.equal(s.run.status, 'running');
    s = reduce(s, h.turnEvent('assistant.delta', T1, { content: 'Let me ' }), h.turnEvent('assistant.delta', T1, { content: 'run it' }));
    s = reduce(s, h.turnEvent('assistant.completed', T1, { content: 'Let me run it.' }));
    s = reduce(s, h.turnEvent('tool.proposed', T1, { call_id: 'call-1', name: 'bash', arguments: { command: 'make' } }));
    s = reduce(
      s,
      h.turnEvent('approval.requested', T1, {
        approval_id: 'ap-1',
        call_id: 'call-1',
        name: 'bash',
        risk: 'process',
        cwd: '/ws',
        summary: 'Run shell command: make',
      }),
    );
    assert.equal(s.run.status, 'waiting_approval');
    assert.equal(s.run.runId, T1);
    const approval = s.items.find((i) => i.kind === 'approval');
    assert.ok(approval && approval.kind === 'approval');
    assert.equal(approval.id, 'ap-1');
    assert.equal(approval.toolCallId, 'call-1');
    assert.equal(approval.tool, 'bash');
    assert.equal(approval.args, '{"command":"make"}');
    assert.equal(approval.state, 'pending');
    s = reduce(s, { type: 'client:approval_answered', requestId: 'ap-1', decision: 'yes' });
    h.record(h.t.onCommand({ type: 'approve', request_id: 'ap-1', decision: 'yes' }));
    s = reduce(
      s,
      h.turnEvent('tool.started', T1, { call_id: 'call-1', name: 'bash' }),
      h.turnEvent('tool.progress', T1, { call_id: 'call-1', text: 'cc main.c' }),
    );
    s = reduce(
      s,
      h.turnEvent('tool.completed', T1, { call_id: 'call-1', name: 'bash', success: true, output: 'exit 0', truncated: false }),
    );
    s = reduce(s, h.turnEvent('assistant.delta', T1, { content: 'Fixed.' }), h.turnEvent('assistant.completed', T1, { content: 'Fixed.' }));
    s = reduce(s, h.turnEvent('turn.completed', T1, { steps: 2, usage: { input_tokens: 300, output_tokens: 40 } }));
    s = reduce(s, h.t.onCommand({ type: 'stats' }));

    assert.deepEqual(
      s.items.map((i) => i.kind),
      ['user', 'assistant', 'tool', 'approval', 'assistant'],
    );
    const [user, first, tool, answered, last] = s.items;
    assert.ok(user.kind === 'user' && user.text === 'fix the build');
    assert.ok(first.kind === 'assistant' && first.text === 'Let me run it.' && !first.streaming);
    assert.ok(tool.kind === 'tool');
    assert.equal(tool.id, 'call-1');
    assert.equal(tool.name, 'bash');
    assert.equal(tool.status, 'success');
    assert.equal(tool.output, 'exit 0');
    assert.deepEqual(tool.progress, ['cc main.c']);
    assert.equal(tool.runId, T1);
    assert.ok(last.kind === 'assistant' && last.text === 'Fixed.' && !last.streaming);
    assert.ok(answered.kind === 'approval' && answered.state === 'approved');
    assert.equal(s.run.status, 'idle');
    assert.deepEqual(s.usage, { tokensIn: 300, tokensOut: 40, cachedTokens: 0 });
  });

  test('a denied call, a cancelled turn and a failed one end as the UI expects', () => {
    const h = new TranslatorHarness();
    let s = readySession(h);
    s = reduce(s, h.record(h.t.onCommand({ type: 'send', prompt: 'write it', model: 'gpt-test' })));
    s = reduce(
      s,
      h.turnEvent('turn.started', T1),
      h.turnEvent('tool.proposed', T1, { call_id: 'w1', name: 'write', arguments: { path: 'a', content: 'x', mode: 'create' } }),
    );
    s = reduce(
      s,
      h.turnEvent('approval.requested', T1, {
        approval_id: 'ap-1',
        call_id: 'w1',
        name: 'write',
        risk: 'filesystem',
        summary: 'Create a (1 bytes)',
      }),
    );
    s = reduce(s, { type: 'client:approval_answered', requestId: 'ap-1', decision: 'no' });
    s = reduce(
      s,
      h.turnEvent('tool.completed', T1, {
        call_id: 'w1',
        name: 'write',
        success: false,
        output: 'tool call denied by policy or user',
        truncated: false,
        error: 'denied',
      }),
    );
    assert.equal((s.items.find((i) => i.kind === 'tool') as { status: string }).status, 'denied');
    s = reduce(s, h.turnEvent('turn.cancelled', T1));
    assert.equal(s.run.status, 'idle');
    const note = s.items[s.items.length - 1];
    assert.ok(note.kind === 'notice' && note.text.includes('rolled back'));

    s = reduce(s, h.record(h.t.onCommand({ type: 'send', prompt: 'again', model: 'gpt-test' })));
    assert.deepEqual(users(s), ['write it']);
    s = reduce(s, h.turnEvent('turn.started', 'turn-2', {}, 'c-4'));
    assert.deepEqual(users(s), ['write it', 'again'], 'each prompt shown once, as its turn starts');
    s = reduce(s, h.turnEvent('turn.failed', 'turn-2', { code: 'provider_error', message: 'HTTP 500' }, 'c-4'));
    assert.equal(s.run.status, 'idle');
    const error = s.items[s.items.length - 1];
    assert.ok(error.kind === 'notice' && error.level === 'error' && error.text === 'HTTP 500' && error.action === 'showLog');
  });

  test("a queued prompt: shown in the queue, then as the next turn's prompt; a background turn gets its own row", () => {
    const h = new TranslatorHarness();
    let s = readySession(h);
    s = reduce(s, h.event('queue.snapshot', { entries: [], paused: false }));
    // The controller dispatches no client:prompt for a core with a server queue: the adapter shows each prompt as its turn starts.
    s = reduce(s, h.record(h.t.onCommand({ type: 'send', prompt: 'first', model: 'gpt-test' })));
    s = reduce(s, h.turnEvent('turn.started', T1));
    assert.deepEqual(users(s), ['first']);
    s = reduce(s, h.record(h.t.onCommand({ type: 'send', prompt: 'second', model: 'gpt-test' })));
    s = reduce(
      s,
      h.event('queue.enqueued', {
        request_id: 'c-4',
        entry: { queue_id: 'q9', revision: 1, prompt: 'second', submitter: 'c' },
        position: 0,
      }),
    );
    assert.deepEqual(
      s.serverQueue?.entries.map((e) => e.prompt),
      ['second'],
    );
    assert.equal(s.run.queued, undefined);
    assert.deepEqual(users(s), ['first'], 'queued: only in the queue');
    s = reduce(s, h.turnEvent('turn.completed', T1, { steps: 1, usage: {} }));
    s = reduce(
      s,
      h.event('queue.dequeued', { request_id: 'c-4', queue_id: 'q9', turn_id: 'turn-2' }),
      h.turnEvent('turn.started', 'turn-2', {}, 'c-4'),
    );
    assert.deepEqual(s.serverQueue?.entries, []);
    assert.deepEqual(users(s), ['first', 'second']);
    assert.equal(s.run.status, 'running');
    s = reduce(s, h.turnEvent('turn.completed', 'turn-2', { steps: 1, usage: {} }, 'c-4'));
    s = reduce(s, h.event('turn.started', { request_id: 'background:1', turn_id: 'bg', origin: { kind: 'background', jobs: ['job-1'] } }));
    assert.equal(s.run.status, 'running');
    assert.equal(s.run.runId, 'bg');
    const row = s.items[s.items.length - 1];
    assert.ok(row.kind === 'notice' && row.text.includes('job-1'));
  });
});

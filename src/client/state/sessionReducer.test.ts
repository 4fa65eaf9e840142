import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES } from '../../protocol';
import { initialSessionState, type SessionState, type TranscriptItem } from '../../shared/sessionState';
import { applyPatches, diffState } from '../../shared/statePatch';
import type { ClientEvent } from './clientEvents';
import type { WireEvent } from './eventFields';
import { sessionReducer } from './sessionReducer';

const fold = (events: (WireEvent | ClientEvent)[], from: SessionState = initialSessionState()): SessionState =>
  events.reduce(sessionReducer, from);
const kinds = (s: SessionState): string[] => s.items.map((i) => i.kind);
const last = (s: SessionState): TranscriptItem => s.items[s.items.length - 1];

/** A state in the middle of a streamed answer: user prompt, running run, an assistant item with some text. */
function streaming(): SessionState {
  return fold([
    { type: 'client:prompt', text: 'hi', images: 0 },
    { type: 'delta', text: 'Hel', run_id: 'run-1' },
  ]);
}

describe('sessionReducer: purity and immutability', () => {
  test('returns the same object for an event that changes nothing, and bumps revision otherwise', () => {
    const s = streaming();
    assert.equal(sessionReducer(s, { type: 'delta' }), s);
    assert.equal(sessionReducer(s, { type: 'delta', text: '' }), s);
    assert.equal(sessionReducer(s, { type: 'memory_list', entries: [], count: 0 }), s);
    const next = sessionReducer(s, { type: 'delta', text: 'lo' });
    assert.equal(next.revision, s.revision + 1);
  });

  test('never mutates its input', () => {
    const s = streaming();
    const frozen = structuredClone(s);
    deepFreeze(s);
    const events: WireEvent[] = [
      { type: 'delta', text: 'lo' },
      { type: 'thinking', text: 'hmm' },
      { type: 'tool_call_start', id: 'c1', index: 0 },
      { type: 'tool_call_args', index: 0, args: '{"path":"a.ts"}' },
      { type: 'tool_call', id: 'c1', name: 'write_file', args: '{"path":"a.ts","content":"x"}' },
      { type: 'approval_request', request_id: 'apv-1-c1', tool_call_id: 'c1', tool: 'write_file', args: '{}' },
      { type: 'done' },
    ];
    let state = s;
    for (const e of events) state = sessionReducer(state, e);
    assert.deepEqual(s, frozen);
  });

  test('a streamed delta changes only the last assistant item: other items keep identity, one append patch', () => {
    const s = fold(
      [
        { type: 'tool_call', id: 'c0', name: 'read_file', args: '{}' },
        { type: 'tool_result', id: 'c0', ok: true, output: 'x', status: 'success' },
        { type: 'delta', text: 'Hel' },
      ],
      streaming(),
    );
    const next = sessionReducer(s, { type: 'delta', text: 'lo' });
    assert.notEqual(next.items, s.items);
    for (let i = 0; i < s.items.length - 1; i++) assert.equal(next.items[i], s.items[i], `item ${i} kept its identity`);
    assert.equal(next.run, s.run);
    assert.equal(next.models, s.models);
    const patches = diffState(s, next);
    const itemPatches = patches.filter((p) => !(p.op === 'set' && p.key === 'revision'));
    assert.deepEqual(itemPatches, [{ op: 'append', index: s.items.length - 1, field: 'text', text: 'lo' }]);
    // The only other change is the revision counter.
    assert.deepEqual(
      patches.filter((p) => p.op === 'set').map((p) => (p as { key: string }).key),
      ['revision'],
    );
  });

  test('patches from diffState rebuild the same state (the webview side)', () => {
    const events: (WireEvent | ClientEvent)[] = [
      { type: 'ready', models: [{ id: 'm1' }], authed: true, anyLoggedIn: true, approval: 'destructive', provider: 'p', workspace: '/ws' },
      { type: 'client:prompt', text: 'edit it', images: 0 },
      { type: 'thinking', text: 'plan' },
      { type: 'delta', text: 'Sure' },
      { type: 'tool_call_start', id: 'c1', index: 0 },
      { type: 'tool_call_name', index: 0, name: 'edit' },
      { type: 'tool_call_args', index: 0, args: '{"path":' },
      { type: 'tool_call_args', index: 0, args: '"src/a.ts"}' },
      { type: 'tool_call', id: 'c1', name: 'edit', args: '{"path":"src/a.ts","edits":[]}' },
      {
        type: 'approval_request',
        request_id: 'apv-1-c1',
        tool_call_id: 'c1',
        tool: 'edit',
        args: '{"path":"src/a.ts"}',
        diff: '--- a\n+++ b\n',
      },
      { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'yes' },
      { type: 'tool_result', id: 'c1', ok: true, output: 'edited', status: 'success', diff: '@@' },
      { type: 'file_change', path: 'src/a.ts', tool: 'edit' },
      { type: 'delta', text: 'Done.' },
      { type: 'done' },
      { type: 'reset' },
    ];
    let state = initialSessionState();
    const mirror = structuredClone(state);
    for (const e of events) {
      const next = sessionReducer(state, e);
      applyPatches(mirror, diffState(state, next));
      state = next;
      assert.deepEqual(mirror, state, `after ${e.type}`);
    }
  });
});

describe('sessionReducer: tolerance', () => {
  test('every upstream event type as a bare fixture ({type, protocol_version}) is survived', () => {
    let s = streaming();
    for (const type of EVENT_TYPES) s = sessionReducer(s, { type, protocol_version: 2 } as WireEvent);
    assert.equal(typeof s.revision, 'number');
  });

  test('bare fixtures from an idle state, one at a time, never throw', () => {
    const s = initialSessionState();
    for (const type of EVENT_TYPES) assert.doesNotThrow(() => sessionReducer(s, { type } as WireEvent), type);
  });

  test('mistyped fields are ignored, not trusted', () => {
    const s = streaming();
    const weird: WireEvent[] = [
      { type: 'delta', text: 42 },
      { type: 'thinking', text: { a: 1 } },
      { type: 'tool_call', id: 7, name: null, args: [] },
      { type: 'tool_result', id: null, output: 5 },
      { type: 'ready', models: 'nope', approval: 'sometimes' },
      { type: 'models', models: [null, 1, 'x', { id: 3 }, { name: 'no id' }] },
      { type: 'history', messages: [null, 'x', { role: 'user', content: [null, { type: 'text', text: 1 }] }] },
      { type: 'sessions', sessions: [{ path: 1 }, null] },
      { type: 'approval_request', request_id: ['x'] },
      { type: 'ask_request', request_id: 'ask-1', questions: [{ id: 1 }, null, { id: 'q', prompt: 2, type: 'select', options: [1, 'a'] }] },
      { type: 'metrics', tokens_in: 'many' },
      { type: 'context_breakdown', total_tokens: '1', context_window: 2 },
      { type: 'error', message: { text: 'x' } },
    ];
    let state = s;
    for (const e of weird) assert.doesNotThrow(() => (state = sessionReducer(state, e)), e.type);
    const ask = state.items.find((i) => i.kind === 'ask');
    assert.deepEqual(ask && ask.kind === 'ask' ? ask.questions : undefined, [{ id: 'q', prompt: '', type: 'select', options: ['a'] }]);
  });

  test('unknown event types leave the state untouched', () => {
    const s = streaming();
    assert.equal(sessionReducer(s, { type: 'future_optional_event', protocol_version: 2 }), s);
    assert.equal(sessionReducer(s, { type: 'client:unknown' } as unknown as ClientEvent), s);
    assert.equal(sessionReducer(s, null as unknown as WireEvent), s);
    assert.equal(sessionReducer(s, { type: 'constructor' }), s);
    assert.equal(sessionReducer(s, { type: '__proto__' }), s);
  });
});

describe('sessionReducer: lifecycle and models', () => {
  const ready = {
    type: 'ready',
    models: [{ id: 'a', context_window: 1000, thinking_levels: ['low', 'high'], provider: 'p1' }, { id: 'b' }],
    authed: true,
    anyLoggedIn: true,
    approval: 'always',
    provider: 'p1',
    workspace: '/ws',
  };

  test('ready fills models, auth, approval mode, provider and workspace, and picks the first model', () => {
    const s = sessionReducer(initialSessionState(), ready);
    assert.deepEqual(
      s.models.map((m) => m.id),
      ['a', 'b'],
    );
    assert.deepEqual(s.models[0], { id: 'a', provider: 'p1', thinkingLevels: ['low', 'high'], contextWindow: 1000 });
    assert.equal(s.model, 'a');
    assert.equal(s.authed, true);
    assert.equal(s.anyLoggedIn, true);
    assert.equal(s.approvalMode, 'always');
    assert.equal(s.provider, 'p1');
    assert.equal(s.workspace, '/ws');
    assert.deepEqual(s.core, initialSessionState().core, 'the core status is the client’s to set, once the handshake completed');
  });

  test('the previous model choice survives while it is still listed', () => {
    const chose = fold([ready, { type: 'client:model_selected', model: 'b' }]);
    assert.equal(chose.model, 'b');
    assert.equal(sessionReducer(chose, ready).model, 'b');
    assert.equal(sessionReducer(chose, { type: 'models', models: [{ id: 'c' }] }).model, 'c');
    assert.equal(sessionReducer(chose, { type: 'models', models: [] }).model, undefined);
  });

  test('ready keeps the approval mode when the core sends an unknown one', () => {
    assert.equal(sessionReducer(initialSessionState(), { ...ready, approval: 'weird' }).approvalMode, 'destructive');
  });

  test('protocol_hello sets the capabilities plus what a Catalyst core implies', () => {
    const s = sessionReducer(initialSessionState('catalyst'), {
      type: 'protocol_hello',
      version: '0.2.0',
      capabilities: ['checkpoint', 'allow_pattern'],
    });
    assert.deepEqual([...s.core.capabilities].sort(), ['allow_pattern', 'checkpoint', 'sessions', 'steer', 'thinking', 'undo']);
    assert.equal(s.core.version, '0.2.0');
    const scv = sessionReducer(initialSessionState('scv'), { type: 'protocol_hello', capabilities: ['x'] });
    assert.deepEqual(scv.core.capabilities, ['x']);
  });

  test('client core status: starting → ready with pid and capabilities → crashed with message, which ends the run', () => {
    let s = fold([{ type: 'client:core_status', status: 'starting', kind: 'embedded' }]);
    assert.equal(s.core.status, 'starting');
    s = sessionReducer(s, { type: 'client:core_status', status: 'ready', pid: 42, capabilities: ['checkpoint'] });
    assert.equal(s.core.pid, 42);
    assert.ok(s.core.capabilities.includes('checkpoint') && s.core.capabilities.includes('steer'));
    s = fold(
      [
        { type: 'client:prompt', text: 'x', images: 0 },
        { type: 'delta', text: 'part' },
        { type: 'ask_request', request_id: 'ask-1', questions: [] },
      ],
      s,
    );
    s = sessionReducer(s, { type: 'client:core_status', status: 'crashed', message: 'boom' });
    assert.equal(s.core.status, 'crashed');
    assert.equal(s.core.message, 'boom');
    assert.equal(s.core.pid, undefined);
    assert.equal(s.run.status, 'idle');
    const assistant = s.items.find((i) => i.kind === 'assistant');
    assert.equal(assistant?.kind === 'assistant' && assistant.streaming, false);
    const ask = s.items.find((i) => i.kind === 'ask');
    assert.equal(ask?.kind === 'ask' && ask.state, 'cancelled');
    s = sessionReducer(s, { type: 'client:core_status', status: 'ready', pid: 43 });
    assert.equal(s.core.message, undefined);
  });

  test('authed and provider_changed update the login state', () => {
    let s = sessionReducer(initialSessionState(), { ...ready, authed: false, anyLoggedIn: false });
    s = sessionReducer(s, { type: 'authed', ok: true, provider: 'p1' });
    assert.equal(s.authed, true);
    assert.equal(s.anyLoggedIn, true);
    s = sessionReducer(s, { type: 'provider_changed', provider: 'p2', kind: 'openai', has_key: false });
    assert.equal(s.provider, 'p2');
    assert.equal(s.authed, false);
    assert.equal(s.anyLoggedIn, true);
  });

  test('approval_changed sets the mode only for one of the three modes; local selections apply at once', () => {
    const s = fold([{ type: 'approval_changed', mode: 'never' }]);
    assert.equal(s.approvalMode, 'never');
    // An escalation leaves the mode alone (it joins approvalEscalations: reduceApprovalEscalations.test.ts).
    assert.equal(sessionReducer(s, { type: 'approval_changed', mode: 'destructive:always' }).approvalMode, 'never');
    assert.equal(sessionReducer(s, { type: 'approval_changed', mode: 'allow_pattern', tool: 'bash', pattern: '*' }).approvalMode, 'never');
    assert.equal(sessionReducer(s, { type: 'client:approval_mode_selected', mode: 'always' }).approvalMode, 'always');
    assert.equal(sessionReducer(s, { type: 'client:reasoning_selected', effort: 'high' }).reasoningEffort, 'high');
  });
});

describe('sessionReducer: the user prompt and the queue', () => {
  test('a prompt while idle adds a user item and starts the run', () => {
    const s = fold([{ type: 'client:prompt', text: 'hello', images: 2 }]);
    assert.deepEqual(kinds(s), ['user']);
    assert.deepEqual({ ...last(s), id: '' }, { kind: 'user', id: '', text: 'hello', images: 2 });
    assert.equal(s.run.status, 'running');
  });

  test('a prompt while running is queued; info confirms; done starts it as the next run', () => {
    let s = fold([{ type: 'client:prompt', text: 'second', images: 0 }], streaming());
    assert.equal(s.run.queued, 'second');
    assert.equal(s.items.filter((i) => i.kind === 'user').length, 1);
    s = sessionReducer(s, { type: 'info', message: 'prompt queued; will run after the current turn' });
    assert.equal(s.run.queued, 'second');
    assert.ok(!s.items.some((i) => i.kind === 'notice'), 'the queue info is not a notice');
    s = sessionReducer(s, { type: 'done', run_id: 'run-1' });
    assert.equal(s.run.status, 'running');
    assert.equal(s.run.queued, undefined);
    assert.equal(last(s).kind, 'user');
    assert.equal((last(s) as { text: string }).text, 'second');
    s = sessionReducer(s, { type: 'delta', text: 'answer 2', run_id: 'run-2' });
    assert.equal(s.run.runId, 'run-2');
    assert.equal(last(s).kind, 'assistant');
  });

  test('"queue cleared" clears the queued prompt; abort clears it too', () => {
    const queued = fold([{ type: 'client:prompt', text: 'q', images: 0 }], streaming());
    assert.equal(sessionReducer(queued, { type: 'info', message: 'queue cleared' }).run.queued, undefined);
    const aborted = sessionReducer(queued, { type: 'aborted' });
    assert.equal(aborted.run.queued, undefined);
    assert.equal(aborted.run.status, 'idle');
  });

  test('other info messages become notices', () => {
    const s = sessionReducer(initialSessionState(), { type: 'info', message: 'checkpoint restored' });
    assert.deepEqual({ ...last(s), id: '' }, { kind: 'notice', id: '', level: 'info', text: 'checkpoint restored' });
  });
});

describe('sessionReducer: streaming', () => {
  test('delta and thinking go into the current assistant item, created when needed', () => {
    const s = fold([
      { type: 'client:prompt', text: 'x', images: 0 },
      { type: 'thinking', text: 'let me ' },
      { type: 'thinking', text: 'think' },
      { type: 'delta', text: 'A' },
      { type: 'delta', text: 'B' },
    ]);
    assert.deepEqual(kinds(s), ['user', 'assistant']);
    const a = last(s);
    assert.ok(a.kind === 'assistant');
    assert.equal(a.thinking, 'let me think');
    assert.equal(a.text, 'AB');
    assert.equal(a.streaming, true);
  });

  test('a delta arriving while idle (a run started elsewhere) marks the run running and learns its id', () => {
    const s = sessionReducer(initialSessionState(), { type: 'delta', text: 'x', run_id: 'run-9' });
    assert.equal(s.run.status, 'running');
    assert.equal(s.run.runId, 'run-9');
    assert.equal((last(s) as { runId?: string }).runId, 'run-9');
  });

  test('tool calls stream into a card: start, name, args, then the full call; text after tools gets a new item', () => {
    let s = fold(
      [
        { type: 'delta', text: 'Let me look.' },
        { type: 'tool_call_start', id: 'c1', index: 0 },
        { type: 'tool_call_start', id: 'c2', index: 1 },
        { type: 'tool_call_name', index: 0, name: 'read' },
        { type: 'tool_call_name', index: 0, name: 'read_file' },
        { type: 'tool_call_name', index: 1, name: 'grep' },
        { type: 'tool_call_args', index: 0, args: '{"path":' },
        { type: 'tool_call_args', index: 1, args: '{"pattern":"x"}' },
        { type: 'tool_call_args', index: 0, args: '"a.ts"}' },
      ],
      streaming(),
    );
    const cards = s.items.filter((i) => i.kind === 'tool');
    assert.deepEqual(
      cards.map((c) => c.kind === 'tool' && [c.id, c.name, c.args, c.status]),
      [
        ['c1', 'read_file', '{"path":"a.ts"}', 'streaming'],
        ['c2', 'grep', '{"pattern":"x"}', 'streaming'],
      ],
    );
    s = fold(
      [
        { type: 'tool_call', id: 'c1', name: 'read_file', args: '{"path":"a.ts","limit":5}' },
        { type: 'tool_call', id: 'c2', name: 'grep', args: '{"pattern":"x"}' },
      ],
      s,
    );
    const c1 = s.items.find((i) => i.id === 'c1');
    assert.ok(c1?.kind === 'tool');
    assert.equal(c1.args, '{"path":"a.ts","limit":5}');
    assert.equal(c1.status, 'pending');
    const assistant = s.items.find((i) => i.kind === 'assistant');
    assert.equal(assistant?.kind === 'assistant' && assistant.streaming, false, 'text before the tools is final');
    s = fold(
      [
        { type: 'tool_result', id: 'c1', ok: true, output: 'content', status: 'success' },
        { type: 'tool_result', id: 'c2', ok: false, output: 'bad', status: 'failed' },
        { type: 'delta', text: 'Found it.' },
      ],
      s,
    );
    assert.deepEqual(kinds(s), ['user', 'assistant', 'tool', 'tool', 'assistant']);
    assert.equal((last(s) as { text: string }).text, 'Found it.');
  });

  test('tool_call_name fragments from a core that streams pieces are joined', () => {
    const s = fold(
      [
        { type: 'tool_call_start', id: 'c1', index: 0 },
        { type: 'tool_call_name', index: 0, name: 'write' },
        { type: 'tool_call_name', index: 0, name: '_file' },
      ],
      streaming(),
    );
    assert.equal((last(s) as { name: string }).name, 'write_file');
  });

  test('tool_result: status from the core, else from ok; output and diff recorded; unknown id gets its own card', () => {
    const base = fold([{ type: 'tool_call', id: 'c1', name: 'bash', args: '{"command":"ls"}' }], streaming());
    const ok = sessionReducer(base, { type: 'tool_result', id: 'c1', ok: true, output: 'a\nb' });
    assert.equal((last(ok) as { status: string }).status, 'success');
    const timedOut = sessionReducer(base, { type: 'tool_result', id: 'c1', ok: false, output: 'slow', status: 'timed_out' });
    assert.equal((last(timedOut) as { status: string }).status, 'timed_out');
    const bogus = sessionReducer(base, { type: 'tool_result', id: 'c1', ok: false, status: 'exploded' });
    assert.equal((last(bogus) as { status: string }).status, 'failed');
    const diffed = sessionReducer(base, { type: 'tool_result', id: 'c1', ok: true, output: 'ok', status: 'success', diff: '@@ -1 +1 @@' });
    assert.equal((last(diffed) as { diff?: string }).diff, '@@ -1 +1 @@');
    const orphan = sessionReducer(base, { type: 'tool_result', id: 'zz', ok: true, output: 'x' });
    assert.equal(orphan.items.length, base.items.length + 1);
  });

  test("a bulk call's inner calls (id <outer id>.<n>) get cards of their own, nested with their approvals under the bulk card", () => {
    const s = fold(
      [
        { type: 'tool_call', id: 'be', name: 'bulk_edit', args: '{"edits":[]}' },
        { type: 'tool_call', id: 'be.1', name: 'edit', args: '{"path":"a.ts","edits":[]}' },
        { type: 'approval_request', request_id: 'apv-1-be.1', tool_call_id: 'be.1', tool: 'edit', args: '{}' },
        { type: 'tool_result', id: 'be.1', ok: true, output: 'ok', status: 'success' },
        { type: 'file_change', path: 'a.ts', tool: 'edit' },
        { type: 'tool_call', id: 'v1.2', name: 'read_file', args: '{"path":"v1.2.txt"}' },
      ],
      streaming(),
    );
    const nesting = s.items
      .filter((i) => i.kind === 'tool' || i.kind === 'approval')
      .map((i) => [i.kind, i.id, 'outerId' in i ? i.outerId : undefined]);
    assert.deepEqual(
      nesting,
      [
        ['tool', 'be', undefined],
        ['tool', 'be.1', 'be'],
        ['approval', 'apv-1-be.1', 'be'],
        ['tool', 'v1.2', undefined],
      ],
      'a dotted id with no such outer card is a call of its own',
    );
    const inner = s.items.find((i) => i.id === 'be.1');
    assert.deepEqual(inner?.kind === 'tool' && [inner.status, inner.files], ['success', ['a.ts']]);
  });

  test('file_change adds the path to the latest card of that tool, once', () => {
    let s = fold(
      [
        { type: 'tool_call', id: 'c1', name: 'write_file', args: '{}' },
        { type: 'tool_result', id: 'c1', ok: true, output: 'ok' },
      ],
      streaming(),
    );
    s = fold(
      [
        { type: 'file_change', path: 'a.ts', tool: 'write_file', unified_diff: '' },
        { type: 'file_change', path: 'a.ts', tool: 'write_file' },
        { type: 'file_change', path: 'b.ts', tool: 'write_file' },
      ],
      s,
    );
    assert.deepEqual((last(s) as { files: string[] }).files, ['a.ts', 'b.ts']);
    assert.equal(sessionReducer(s, { type: 'file_change', tool: 'write_file' }), s);
  });

  test('done ends the run and finalizes streaming items; leftover streaming cards are cancelled', () => {
    const s = fold(
      [
        { type: 'tool_call_start', id: 'c1', index: 0 },
        { type: 'done', run_id: 'run-1' },
      ],
      streaming(),
    );
    assert.equal(s.run.status, 'idle');
    assert.equal(s.run.runId, undefined);
    const [, assistant, card] = s.items;
    assert.equal(assistant.kind === 'assistant' && assistant.streaming, false);
    assert.equal(card.kind === 'tool' && card.status, 'cancelled');
  });
});

describe('sessionReducer: ends of a run', () => {
  function waitingOnEverything(): SessionState {
    return fold(
      [
        { type: 'tool_call', id: 'c1', name: 'bash', args: '{"command":"npm test"}', run_id: 'run-1' },
        {
          type: 'approval_request',
          request_id: 'apv-1-c1',
          tool_call_id: 'c1',
          tool: 'bash',
          args: '{"command":"npm test"}',
          run_id: 'run-1',
        },
        { type: 'ask_request', request_id: 'ask-1', questions: [{ id: 'q', prompt: 'which?', type: 'text' }], run_id: 'run-1' },
        { type: 'sudo_request', request_id: 'sudo-1', command: 'sudo ls', run_id: 'run-1' },
      ],
      streaming(),
    );
  }

  for (const [name, event] of [
    ['aborted', { type: 'aborted' }],
    ['run_cancelled', { type: 'run_cancelled', run_id: 'run-1', reason: 'abort' }],
    ['done', { type: 'done', run_id: 'run-1' }],
  ] as const) {
    test(`${name}: run idle, pending approval/ask/sudo cards cancelled, tool card cancelled`, () => {
      const s = sessionReducer(waitingOnEverything(), event);
      assert.equal(s.run.status, 'idle');
      const states = s.items
        .filter((i) => i.kind === 'approval' || i.kind === 'ask' || i.kind === 'sudo')
        .map((i) => (i as { state: string }).state);
      assert.deepEqual(states, ['cancelled', 'cancelled', 'cancelled']);
      assert.equal((s.items.find((i) => i.id === 'c1') as { status: string }).status, 'cancelled');
    });
  }

  test('run_cancelled for an older run closes only that run’s items', () => {
    const s = fold([{ type: 'run_cancelled', run_id: 'run-0', reason: 'abort' }], waitingOnEverything());
    assert.equal(s.run.status, 'waiting_approval');
    assert.equal((s.items.find((i) => i.kind === 'approval') as { state: string }).state, 'pending');
  });

  test('steer: the new prompt shows, the old run is cancelled, and the run stays busy until the new one streams', () => {
    let s = fold([{ type: 'client:prompt', text: 'queued', images: 0 }], streaming());
    s = sessionReducer(s, { type: 'steer', prompt: 'do it differently' });
    assert.equal(last(s).kind, 'user');
    assert.equal((last(s) as { text: string }).text, 'do it differently');
    s = sessionReducer(s, { type: 'run_cancelled', run_id: 'run-1', reason: 'steering' });
    assert.equal(s.run.status, 'running');
    s = sessionReducer(s, { type: 'aborted' });
    assert.equal(s.run.status, 'running');
    assert.equal(s.run.queued, 'queued', 'steering keeps the queued prompt, as the core does');
    s = sessionReducer(s, { type: 'delta', text: 'new answer', run_id: 'run-2' });
    assert.equal(s.run.runId, 'run-2');
    const assistants = s.items.filter((i) => i.kind === 'assistant');
    assert.deepEqual(
      assistants.map((a) => a.kind === 'assistant' && [a.text, a.streaming]),
      [
        ['Hel', false],
        ['new answer', true],
      ],
    );
  });
});

describe('sessionReducer: approvals, asks, sudo', () => {
  const fullArgs = JSON.stringify({ path: 'src/lib/util.ts', content: 'x'.repeat(5000) });

  function withApproval(tool = 'write_file', args = fullArgs): SessionState {
    return fold(
      [
        { type: 'tool_call', id: 'c1', name: tool, args, run_id: 'run-1' },
        {
          type: 'approval_request',
          request_id: 'apv-1-c1',
          tool_call_id: 'c1',
          tool,
          risk: 'destructive',
          requested_permission: 'destructive',
          created_at: 1700000000000,
          args: args.slice(0, 2000),
          diff: '--- a/x\n+++ b/x\n',
          run_id: 'run-1',
        },
      ],
      streaming(),
    );
  }

  test('approval_request: an approval item with the FULL args from the tool_call, run waiting, card awaiting', () => {
    const s = withApproval();
    const item = last(s);
    assert.ok(item.kind === 'approval');
    assert.equal(item.args, fullArgs);
    assert.equal(item.tool, 'write_file');
    assert.equal(item.toolCallId, 'c1');
    assert.equal(item.risk, 'destructive');
    assert.equal(item.createdAt, 1700000000000);
    assert.equal(item.diff, '--- a/x\n+++ b/x\n');
    assert.equal(item.state, 'pending');
    assert.equal(item.suggestedPattern, 'src/lib/**');
    assert.equal(s.run.status, 'waiting_approval');
    assert.equal((s.items.find((i) => i.id === 'c1') as { status: string }).status, 'awaiting_approval');
  });

  test("a bash approval keeps the full command from the tool_call, not the core's 2000-char preview", () => {
    const command = `echo ${'y'.repeat(3000)} > out.txt`;
    const full = JSON.stringify({ command });
    const item = last(withApproval('bash', full));
    assert.ok(item.kind === 'approval');
    assert.equal(JSON.parse(item.args).command, command);
  });

  test('without a matching tool_call the preview args are used', () => {
    const s = sessionReducer(streaming(), {
      type: 'approval_request',
      request_id: 'apv-2-zz',
      tool_call_id: 'zz',
      tool: 'bash',
      args: '{"command":"npm test -- --watch"}',
    });
    const item = last(s);
    assert.ok(item.kind === 'approval');
    assert.equal(item.args, '{"command":"npm test -- --watch"}');
    assert.equal(item.suggestedPattern, 'npm test *');
  });

  test('answered locally: the card shows the decision, the tool runs, the run resumes', () => {
    const yes = sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'allow_session' });
    const item = last(yes);
    assert.ok(item.kind === 'approval');
    assert.equal(item.state, 'approved');
    assert.equal(item.decision, 'allow_session');
    assert.equal(yes.run.status, 'running');
    assert.equal((yes.items.find((i) => i.id === 'c1') as { status: string }).status, 'running');
    const no = sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'no' });
    assert.equal((last(no) as { state: string }).state, 'denied');
    assert.equal((no.items.find((i) => i.id === 'c1') as { status: string }).status, 'denied');
    assert.equal(
      sessionReducer(yes, { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'no' }),
      yes,
      'answering twice changes nothing',
    );
  });

  test('approval_expired: the card expires and the run is no longer waiting on it', () => {
    const s = sessionReducer(withApproval(), { type: 'approval_expired', request_id: 'apv-1-c1', tool_call_id: 'c1' });
    assert.equal((last(s) as { state: string }).state, 'expired');
    assert.equal(s.run.status, 'running');
  });

  test("approved with the user's edits: the item says so; a rejection never counts as edited", () => {
    const edited = sessionReducer(withApproval(), {
      type: 'client:approval_answered',
      requestId: 'apv-1-c1',
      decision: 'yes',
      edited: true,
    });
    const item = last(edited);
    assert.ok(item.kind === 'approval');
    assert.deepEqual([item.state, item.decision, item.edited], ['approved', 'yes', true]);
    const plain = last(sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'yes' }));
    assert.ok(plain.kind === 'approval' && !('edited' in plain));
    const denied = last(
      sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'no', edited: true }),
    );
    assert.ok(denied.kind === 'approval' && denied.state === 'denied' && !('edited' in denied));
  });

  test("approved with edits: the card's diff becomes the diff the core wrote (the rejected change is gone)", () => {
    const proposal = '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-one\n+ONE\n-two\n+TWO\n-three\n+THREE\n';
    const written = '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-one\n+ONE\n two\n-three\n+THREE\n';
    const s = fold(
      [
        { type: 'tool_call', id: 'c1', name: 'write_file', args: fullArgs, run_id: 'run-1' },
        {
          type: 'approval_request',
          request_id: 'apv-1-c1',
          tool_call_id: 'c1',
          tool: 'write_file',
          args: '{}',
          diff: proposal,
          run_id: 'run-1',
        },
        { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'yes', edited: true },
        { type: 'tool_result', id: 'c1', ok: true, output: 'The user modified your proposal…', status: 'success', diff: written },
      ],
      streaming(),
    );
    const approval = s.items.find((i) => i.kind === 'approval');
    assert.ok(approval?.kind === 'approval');
    assert.equal(approval.diff, written);
    assert.ok(!approval.diff.includes('+TWO'));
    assert.equal((s.items.find((i) => i.kind === 'tool') as { diff?: string }).diff, written, 'the tool card has it too');
  });

  test("only a successful result with a diff replaces an approved card's diff", () => {
    const answered = (decision: 'yes' | 'no') =>
      sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision });
    const written = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
    const approvalDiff = (s: SessionState) => (s.items.find((i) => i.kind === 'approval') as { diff?: string }).diff;
    const failed = sessionReducer(answered('yes'), {
      type: 'tool_result',
      id: 'c1',
      ok: false,
      output: 'edit failed',
      status: 'failed',
      diff: written,
    });
    assert.equal(approvalDiff(failed), '--- a/x\n+++ b/x\n');
    const noDiff = sessionReducer(answered('yes'), {
      type: 'tool_result',
      id: 'c1',
      ok: true,
      output: 'nothing was written',
      status: 'success',
    });
    assert.equal(approvalDiff(noDiff), '--- a/x\n+++ b/x\n');
    const otherCall = sessionReducer(answered('yes'), {
      type: 'tool_result',
      id: 'c9',
      ok: true,
      output: 'ok',
      status: 'success',
      diff: written,
    });
    assert.equal(approvalDiff(otherCall), '--- a/x\n+++ b/x\n');
    const pending = sessionReducer(withApproval(), {
      type: 'tool_result',
      id: 'c1',
      ok: true,
      output: 'ok',
      status: 'success',
      diff: written,
    });
    assert.equal(approvalDiff(pending), '--- a/x\n+++ b/x\n', 'a card still waiting for the user keeps the proposal');
    const denied = sessionReducer(answered('no'), {
      type: 'tool_result',
      id: 'c1',
      ok: true,
      output: 'ok',
      status: 'success',
      diff: written,
    });
    assert.equal(approvalDiff(denied), '--- a/x\n+++ b/x\n');
  });

  test('the core refusing an allow_pattern answer: the error goes on that approval card and a notice is added', () => {
    const scopeError = {
      type: 'error',
      code: 'approval_scope',
      message: 'approval pattern exceeds or does not match the requested scope',
      run_id: 'run-1',
    } as const;
    let s = sessionReducer(withApproval('bash', '{"command":"rm -rf build"}'), {
      type: 'client:approval_answered',
      requestId: 'apv-1-c1',
      decision: 'allow_pattern',
    });
    s = sessionReducer(s, scopeError);
    const approval = s.items.find((i) => i.kind === 'approval');
    assert.ok(approval?.kind === 'approval');
    assert.equal(approval.error, 'approval pattern exceeds or does not match the requested scope');
    assert.equal(approval.decision, 'allow_pattern');
    const notice = last(s);
    assert.deepEqual(notice.kind === 'notice' && [notice.level, notice.code, notice.text], ['error', 'approval_scope', scopeError.message]);
    // The tool result (denied) follows; a later scope error has no open allow_pattern answer left and only adds a notice.
    s = sessionReducer(s, { type: 'tool_result', id: 'c1', ok: false, status: 'denied', output: 'denied' });
    const again = sessionReducer(s, { ...scopeError, message: 'another' });
    assert.equal(
      again.items.find((i) => i.kind === 'approval'),
      s.items.find((i) => i.kind === 'approval'),
    );
    assert.equal(again.items.length, s.items.length + 1);
  });

  test('an approval_scope error after a finished or non-pattern answer, or another error, attaches to no card', () => {
    const answeredYes = sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'yes' });
    const scope = sessionReducer(answeredYes, {
      type: 'error',
      code: 'approval_scope',
      message: 'approval pattern exceeds or does not match the requested scope',
    });
    assert.equal(
      scope.items.find((i) => i.kind === 'approval'),
      answeredYes.items.find((i) => i.kind === 'approval'),
    );
    const pattern = sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'allow_pattern' });
    const other = sessionReducer(pattern, { type: 'error', code: 'provider_error', message: 'HTTP 500' });
    assert.equal(
      other.items.find((i) => i.kind === 'approval'),
      pattern.items.find((i) => i.kind === 'approval'),
    );
    const otherRun = sessionReducer(pattern, {
      type: 'error',
      code: 'approval_scope',
      message: 'approval pattern exceeds',
      run_id: 'run-9',
    });
    assert.equal(
      otherRun.items.find((i) => i.kind === 'approval'),
      pattern.items.find((i) => i.kind === 'approval'),
    );
  });

  test('pending approvals leave pending on every end: cancelled by run_cancelled and a core restart, gone after reset or a new session', () => {
    const cancelled = sessionReducer(withApproval(), { type: 'run_cancelled', run_id: 'run-1', reason: 'abort' });
    assert.equal((cancelled.items.find((i) => i.kind === 'approval') as { state: string }).state, 'cancelled');
    for (const status of ['restarting', 'crashed', 'stopped'] as const) {
      const restarted = sessionReducer(withApproval(), { type: 'client:core_status', status, message: 'x' });
      assert.equal((restarted.items.find((i) => i.kind === 'approval') as { state: string }).state, 'cancelled', status);
      assert.equal(restarted.run.status, 'idle');
    }
    for (const event of [{ type: 'reset' }, { type: 'session_changed', path: '/s/new.jsonl', new: true }] as const) {
      const cleared = sessionReducer(withApproval(), event);
      assert.ok(!cleared.items.some((i) => i.kind === 'approval' && i.state === 'pending'), event.type);
      assert.equal(cleared.run.status, 'idle');
    }
    const expired = sessionReducer(withApproval(), { type: 'approval_expired', request_id: 'apv-1-c1' });
    assert.equal((expired.items.find((i) => i.kind === 'approval') as { state: string }).state, 'expired');
    const decided = sessionReducer(withApproval(), { type: 'client:approval_answered', requestId: 'apv-1-c1', decision: 'yes' });
    assert.equal(
      sessionReducer(decided, { type: 'approval_expired', request_id: 'apv-1-c1' }),
      decided,
      'a decided approval never expires',
    );
    assert.equal(
      sessionReducer(decided, { type: 'run_cancelled', run_id: 'run-1', reason: 'abort' }).items.find((i) => i.kind === 'approval'),
      decided.items.find((i) => i.kind === 'approval'),
      'a decided approval is not cancelled',
    );
  });

  test('a repeated approval_request does not add a second card', () => {
    const s = withApproval();
    assert.equal(sessionReducer(s, { type: 'approval_request', request_id: 'apv-1-c1', tool_call_id: 'c1', tool: 'write_file' }), s);
  });

  test('ask_request → waiting_input; answered and skipped', () => {
    const s = sessionReducer(streaming(), {
      type: 'ask_request',
      request_id: 'ask-1',
      questions: [{ id: 'q1', prompt: 'Which?', type: 'select', options: ['a', 'b'], allowCustom: true, required: true }],
    });
    assert.equal(s.run.status, 'waiting_input');
    const ask = last(s);
    assert.deepEqual(ask, {
      kind: 'ask',
      id: 'ask-1',
      state: 'pending',
      questions: [{ id: 'q1', prompt: 'Which?', type: 'select', options: ['a', 'b'], allowCustom: true, required: true }],
    });
    const answered = sessionReducer(s, { type: 'client:ask_answered', requestId: 'ask-1', answers: { q1: 'b' } });
    assert.deepEqual(last(answered), { ...ask, state: 'answered', answers: { q1: 'b' } });
    assert.equal(answered.run.status, 'running');
    assert.equal(
      (last(sessionReducer(s, { type: 'client:ask_answered', requestId: 'ask-1', answers: null })) as { state: string }).state,
      'skipped',
    );
  });

  test('sudo_request → waiting_input; the answer records no password', () => {
    const s = sessionReducer(streaming(), { type: 'sudo_request', request_id: 'sudo-1', command: 'sudo apt update' });
    assert.equal(s.run.status, 'waiting_input');
    const answered = sessionReducer(s, { type: 'client:sudo_answered', requestId: 'sudo-1', approved: true });
    assert.deepEqual(last(answered), { kind: 'sudo', id: 'sudo-1', command: 'sudo apt update', state: 'answered' });
    assert.equal(answered.run.status, 'running');
  });
});

describe('sessionReducer: errors, retries, notices', () => {
  test('error → an error notice; auth errors offer login, provider errors the log', () => {
    const auth = sessionReducer(initialSessionState(), { type: 'error', code: 'auth_error', message: 'HTTP 401 — check the API key' });
    assert.deepEqual(
      { ...last(auth), id: '' },
      { kind: 'notice', id: '', level: 'error', text: 'HTTP 401 — check the API key', code: 'auth_error', action: 'login' },
    );
    const provider = sessionReducer(initialSessionState(), { type: 'error', code: 'provider_error', message: 'HTTP 500' });
    assert.equal((last(provider) as { action?: string }).action, 'showLog');
    const plain = sessionReducer(initialSessionState(), { type: 'error', message: 'nope' });
    assert.equal((last(plain) as { action?: string }).action, undefined);
    const bare = sessionReducer(initialSessionState(), { type: 'error' });
    assert.equal(last(bare).kind, 'notice');
  });

  test('memory_saved (the answer to /memory) confirms with an info notice naming the note', () => {
    const saved = sessionReducer(initialSessionState(), {
      type: 'memory_saved',
      id: 'tabs-1a2b3c',
      message: 'memory saved (workspace)',
      text: 'The user prefers tabs',
    });
    assert.deepEqual({ ...last(saved), id: '' }, { kind: 'notice', id: '', level: 'info', text: 'Saved to memory: The user prefers tabs' });
    // A core that does not echo the note, and the answer to forget_memory: the core's message.
    const upstream = sessionReducer(initialSessionState(), { type: 'memory_saved', id: 'm1', message: 'memory saved (workspace)' });
    assert.deepEqual({ ...last(upstream), id: '' }, { kind: 'notice', id: '', level: 'info', text: 'memory saved (workspace)' });
    const bare = initialSessionState();
    assert.equal(sessionReducer(bare, { type: 'memory_saved', id: 'm1' }), bare);
  });

  test('http_retry: a warning notice updated in place; discard_partial drops the partial answer', () => {
    let s = fold([{ type: 'thinking', text: 'hmm' }], streaming());
    s = sessionReducer(s, {
      type: 'http_retry',
      attempt: 1,
      status: null,
      reason: 'stream dropped',
      backoff_ms: 500,
      discard_partial: true,
    });
    assert.deepEqual(kinds(s), ['user', 'notice']);
    assert.equal((last(s) as { level: string }).level, 'warning');
    s = sessionReducer(s, { type: 'http_retry', attempt: 2, status: 503, reason: 'Service Unavailable', backoff_ms: 1500 });
    assert.deepEqual(kinds(s), ['user', 'notice']);
    assert.match((last(s) as { text: string }).text, /HTTP 503.*attempt 2.*1\.5 s/);
    // Our core's detail says what upstream's generic stream reason does not.
    s = sessionReducer(s, {
      type: 'http_retry',
      attempt: 3,
      reason: 'retryable stream error after partial output',
      detail: 'connection to acme lost mid-stream: other side closed',
      backoff_ms: 2000,
    });
    assert.deepEqual(kinds(s), ['user', 'notice']);
    assert.match(
      (last(s) as { text: string }).text,
      /stream dropped: connection to acme lost mid-stream: other side closed\); retrying \(attempt 3\)/,
    );
    s = sessionReducer(s, { type: 'delta', text: 'Hello' });
    assert.deepEqual(kinds(s), ['user', 'notice', 'assistant']);
    assert.equal((last(s) as { text: string }).text, 'Hello');
  });

  test('http_retry without discard_partial keeps the text; discard also drops streaming tool cards but not finished ones', () => {
    const s = sessionReducer(streaming(), { type: 'http_retry', attempt: 1, status: 429, reason: 'rate limited', backoff_ms: 1000 });
    assert.equal((s.items[1] as { text: string }).text, 'Hel');
    const withTools = fold(
      [
        { type: 'tool_call', id: 'c0', name: 'read_file', args: '{}' },
        { type: 'tool_result', id: 'c0', ok: true, output: 'x' },
        { type: 'tool_call_start', id: 'c1', index: 0 },
        { type: 'http_retry', attempt: 1, status: null, reason: 'dropped', backoff_ms: 1, discard_partial: true },
      ],
      streaming(),
    );
    assert.deepEqual(kinds(withTools), ['user', 'assistant', 'tool', 'notice']);
    assert.equal((withTools.items[1] as { text: string }).text, 'Hel');
  });

  test('compacting then compacted share one notice; session_recovered warns', () => {
    let s = sessionReducer(initialSessionState(), { type: 'compacting', trigger: 'auto', before_tokens: 90000 });
    s = sessionReducer(s, { type: 'compacted', before_tokens: 90000, after_tokens: 12000, within_limit: true });
    assert.deepEqual(kinds(s), ['notice']);
    assert.match((last(s) as { text: string }).text, /90,000 → 12,000/);
    s = sessionReducer(s, { type: 'session_recovered', warnings: ['the last record was truncated'], interrupted_runs: ['run-1'] });
    assert.equal((last(s) as { level: string }).level, 'warning');
    assert.match((last(s) as { text: string }).text, /truncated.*1 interrupted run/);
  });

  test("a subagent's compaction (scope subagent) leaves the main transcript as it is", () => {
    const before = sessionReducer(initialSessionState(), { type: 'info', message: 'hello' });
    let s = sessionReducer(before, { type: 'compacting', scope: 'subagent', run_id: 'run-1', trigger: 'auto', before_tokens: 3800 });
    s = sessionReducer(s, {
      type: 'compacted',
      scope: 'subagent',
      run_id: 'run-1',
      before_tokens: 3800,
      after_tokens: 40,
      within_limit: true,
    });
    assert.equal(s, before);
  });

  test('a local notice is added as given', () => {
    const s = sessionReducer(initialSessionState(), {
      type: 'client:notice',
      level: 'warning',
      text: 'restarting',
      action: 'showLog',
      code: 'core_restart',
    });
    assert.deepEqual(
      { ...last(s), id: '' },
      { kind: 'notice', id: '', level: 'warning', text: 'restarting', action: 'showLog', code: 'core_restart' },
    );
  });
});

describe('sessionReducer: usage and context', () => {
  test('metrics add up per response; mid-stream estimates are ignored; stats sets the totals', () => {
    let s = sessionReducer(initialSessionState(), {
      type: 'metrics',
      model: 'm',
      tokens_in: 100,
      tokens_out: 20,
      prompt_tokens: 100,
      cached_tokens: 40,
    });
    s = sessionReducer(s, { type: 'metrics', model: 'm', tokens_in: 150, tokens_out: 10, prompt_tokens: 150, cached_tokens: 0 });
    assert.deepEqual(s.usage, { tokensIn: 250, tokensOut: 30, cachedTokens: 40 });
    assert.equal(sessionReducer(s, { type: 'metrics', model: 'm', tokens_in: 0, tokens_out: 5, tps_est: 12 }), s);
    s = sessionReducer(s, { type: 'stats', tokens_in: 150, tokens_out: 31, total_in: 251, cached_tokens: 41, session_file: '/s/x.jsonl' });
    assert.deepEqual(s.usage, { tokensIn: 251, tokensOut: 31, cachedTokens: 41 });
    assert.equal(s.sessionFile, '/s/x.jsonl');
    s = sessionReducer(s, { type: 'cost_update', model: 'm', estimated_usd: 0.25 });
    s = sessionReducer(s, { type: 'cost_update', model: 'm', estimated_usd: null });
    assert.equal(s.usage.costUsd, 0.25);
  });

  test('context_breakdown sets the meter; later prompt sizes move it', () => {
    let s = sessionReducer(initialSessionState(), { type: 'context_breakdown', total_tokens: 5000, context_window: 100000, pct: 5 });
    assert.deepEqual(s.context, { tokens: 5000, window: 100000, pct: 5 });
    s = sessionReducer(s, { type: 'metrics', model: 'm', tokens_in: 20000, tokens_out: 1, prompt_tokens: 20000 });
    assert.deepEqual(s.context, { tokens: 20000, window: 100000, pct: 20 });
  });
});

describe('sessionReducer: sessions and history', () => {
  const summary = (path: string, current = false) => ({
    name: path.split('/').pop(),
    path,
    title: `t ${path}`,
    messages: 2,
    mtime: 1,
    current,
    pinned: false,
  });

  test('sessions, renamed, pinned, deleted', () => {
    let s = sessionReducer(initialSessionState(), {
      type: 'sessions',
      sessions: [summary('/s/a.jsonl', true), summary('/s/b.jsonl')],
      files: [],
    });
    assert.deepEqual(
      s.sessions.map((v) => v.path),
      ['/s/a.jsonl', '/s/b.jsonl'],
    );
    s = sessionReducer(s, { type: 'session_renamed', path: '/s/b.jsonl', title: 'Bee' });
    assert.equal(s.sessions[1].title, 'Bee');
    s = sessionReducer(s, { type: 'session_pinned', path: '/s/b.jsonl', pinned: true });
    assert.equal(s.sessions[1].pinned, true);
    s = sessionReducer(s, { type: 'session_deleted', path: '/s/b.jsonl' });
    assert.deepEqual(
      s.sessions.map((v) => v.path),
      ['/s/a.jsonl'],
    );
  });

  test('session_changed follows the file; a new session clears the transcript and the run', () => {
    const base = fold([{ type: 'sessions', sessions: [summary('/s/a.jsonl', true), summary('/s/b.jsonl')], files: [] }], streaming());
    const loaded = sessionReducer(base, { type: 'session_changed', path: '/s/b.jsonl', new: false });
    assert.equal(loaded.sessionFile, '/s/b.jsonl');
    assert.deepEqual(
      loaded.sessions.map((v) => v.current),
      [false, true],
    );
    assert.equal(loaded.items, base.items);
    const fresh = sessionReducer(base, { type: 'session_changed', path: '/s/c.jsonl', new: true });
    assert.deepEqual(fresh.items, []);
    assert.equal(fresh.run.status, 'idle');
    assert.equal(fresh.sessionFile, '/s/c.jsonl');
  });

  test('reset clears items and ends the run', () => {
    const s = sessionReducer(fold([{ type: 'client:prompt', text: 'q', images: 0 }], streaming()), { type: 'reset' });
    assert.deepEqual(s.items, []);
    assert.deepEqual(s.run, { status: 'idle' });
  });

  test('history rebuilds the transcript from OpenAI-chat messages', () => {
    const s = sessionReducer(streaming(), {
      type: 'history',
      tokens_in: 10,
      messages: [
        { role: 'system', content: 'you are…' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look at this' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Reading.',
          reasoning_content: 'need the file',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
            { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'file body' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'grep', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c3', content: [{ type: 'text', text: 'no matches' }] },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'thanks' },
      ],
    });
    assert.deepEqual(kinds(s), ['user', 'assistant', 'tool', 'tool', 'tool', 'assistant', 'user']);
    const [user, assistant, c1, c2, c3, done, thanks] = s.items;
    assert.deepEqual({ ...user, id: '' }, { kind: 'user', id: '', text: 'look at this', images: 1 });
    assert.deepEqual(
      { ...assistant, id: '' },
      { kind: 'assistant', id: '', text: 'Reading.', thinking: 'need the file', streaming: false },
    );
    assert.deepEqual(c1, {
      kind: 'tool',
      id: 'c1',
      name: 'read_file',
      args: '{"path":"a"}',
      status: 'success',
      output: 'file body',
      files: [],
    });
    assert.equal(c2.kind === 'tool' && c2.status, 'cancelled', 'a call without a tool message was interrupted');
    assert.equal(c3.kind === 'tool' && c3.output, 'no matches');
    assert.equal(done.kind === 'assistant' && done.text, 'Done.');
    assert.equal(thanks.kind === 'user' && thanks.text, 'thanks');
    assert.equal(new Set(s.items.map((i) => i.id)).size, s.items.length, 'ids are unique');
  });

  test('history keeps the notices at the end of the transcript (a restart notice survives the resume)', () => {
    const s = fold(
      [
        { type: 'client:notice', level: 'warning', text: 'restarting' },
        { type: 'history', messages: [{ role: 'user', content: 'hi' }] },
      ],
      streaming(),
    );
    assert.deepEqual(kinds(s), ['user', 'notice']);
    assert.equal((s.items[0] as { text: string }).text, 'hi');
  });

  test("history keeps the checkpoint rows of the turns it still has, after the same prompt; an undone turn's row goes", () => {
    const before = fold(
      [
        {
          type: 'history',
          messages: [
            { role: 'user', content: 'one' },
            { role: 'assistant', content: 'did one' },
            { role: 'user', content: 'two' },
          ],
        },
        {
          type: 'checkpoint_created',
          id: 'cp-2-aa',
          label: 'auto-before-destructive',
          kind: 'git',
          auto: true,
          paths: [],
          run_id: 'run-2',
        },
      ],
      initialSessionState(),
    );
    // Insert a checkpoint row after "one" too, as a live turn would have.
    const withFirst = {
      ...before,
      items: [
        before.items[0],
        { kind: 'checkpoint' as const, id: 'cp-1-aa', label: 'x', auto: true, runId: 'run-1' },
        ...before.items.slice(1),
      ],
    };
    // `undo` drops turn two: the core replays turn one only.
    const after = sessionReducer(withFirst, {
      type: 'history',
      messages: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'did one' },
      ],
    });
    assert.deepEqual(kinds(after), ['user', 'checkpoint', 'assistant']);
    assert.equal(after.items[1].id, 'cp-1-aa');
    // Another conversation's history (different prompt at that position) gets none of them.
    const other = sessionReducer(withFirst, { type: 'history', messages: [{ role: 'user', content: 'elsewhere' }] });
    assert.deepEqual(kinds(other), ['user']);
  });
});

describe('sessionReducer: workspace activity', () => {
  test('bash_execution adds a bash item', () => {
    const s = sessionReducer(initialSessionState(), {
      type: 'bash_execution',
      command: 'ls',
      ok: true,
      output: 'a\n',
      exclude_from_context: false,
    });
    assert.deepEqual({ ...last(s), id: '' }, { kind: 'bash', id: '', command: 'ls', output: 'a\n', ok: true });
  });

  test('bash_execution of a !!cmd marks the card as kept out of the context', () => {
    const s = sessionReducer(initialSessionState(), {
      type: 'bash_execution',
      command: 'false',
      ok: false,
      output: '(no output)\n[exit code 1]',
      exclude_from_context: true,
    });
    assert.deepEqual(
      { ...last(s), id: '' },
      { kind: 'bash', id: '', command: 'false', output: '(no output)\n[exit code 1]', ok: false, excludedFromContext: true },
    );
  });

  test('checkpoint_created adds a checkpoint item once; checkpoint_restored marks it', () => {
    let s = sessionReducer(initialSessionState(), {
      type: 'checkpoint_created',
      id: 'cp-1-ab',
      label: 'auto-before-destructive',
      kind: 'git',
      auto: true,
      paths: [],
      run_id: 'run-1',
    });
    assert.deepEqual(last(s), { kind: 'checkpoint', id: 'cp-1-ab', label: 'auto-before-destructive', auto: true, runId: 'run-1' });
    assert.equal(sessionReducer(s, { type: 'checkpoint_created', id: 'cp-1-ab' }), s);
    s = sessionReducer(s, { type: 'checkpoint_restored', id: 'cp-1-ab', kind: 'git' });
    assert.equal((last(s) as { restored?: boolean }).restored, true);
    assert.equal(sessionReducer(s, { type: 'checkpoint_restored', id: 'cp-unknown' }), s);
  });

  test('checkpoint_created keeps the time: created_at in seconds or milliseconds, else the id’s seconds', () => {
    const at = (e: Record<string, unknown>) =>
      (
        last(sessionReducer(initialSessionState(), { type: 'checkpoint_created', label: 'x', auto: false, ...e } as never)) as {
          createdAt?: number;
        }
      ).createdAt;
    assert.equal(at({ id: 'cp-a', created_at: 1_767_225_600 }), 1_767_225_600_000);
    assert.equal(at({ id: 'cp-b', created_at: 1_767_225_600_123 }), 1_767_225_600_123);
    assert.equal(at({ id: 'cp-1767225600-0123456789abcdef' }), 1_767_225_600_000);
    assert.equal(at({ id: 'cp-c', created_at: 'yesterday' }), undefined);
  });

  test('checkpoint_restored counts what the core restored and removed; a repeat with the same counts changes nothing', () => {
    let s = sessionReducer(initialSessionState(), {
      type: 'checkpoint_created',
      id: 'cp-1-ab',
      label: 'manual',
      kind: 'git',
      auto: false,
      paths: [],
    });
    s = sessionReducer(s, { type: 'checkpoint_restored', id: 'cp-1-ab', kind: 'git', restored: ['a.ts', 'b.ts'], removed: ['new.ts'] });
    assert.deepEqual(last(s), {
      kind: 'checkpoint',
      id: 'cp-1-ab',
      label: 'manual',
      auto: false,
      restored: true,
      restoredFiles: 2,
      removedFiles: 1,
    });
    assert.equal(sessionReducer(s, { type: 'checkpoint_restored', id: 'cp-1-ab', kind: 'git', restored: ['x', 'y'], removed: ['z'] }), s);
    s = sessionReducer(s, { type: 'checkpoint_restored', id: 'cp-1-ab', kind: 'git', restored: ['a.ts'], removed: [] });
    assert.deepEqual([(last(s) as { restoredFiles?: number }).restoredFiles, (last(s) as { removedFiles?: number }).removedFiles], [1, 0]);
  });

  test('checkpoint_deleted marks the row deleted, once; other items keep their identity', () => {
    let s = sessionReducer(initialSessionState(), {
      type: 'checkpoint_created',
      id: 'cp-1-ab',
      label: 'manual',
      kind: 'git',
      auto: false,
      paths: [],
    });
    s = sessionReducer(s, { type: 'checkpoint_created', id: 'cp-2-cd', label: 'manual', kind: 'git', auto: false, paths: [] });
    const before = s.items;
    const next = sessionReducer(s, { type: 'checkpoint_deleted', id: 'cp-1-ab' });
    assert.equal((next.items[0] as { deleted?: boolean }).deleted, true);
    assert.equal(next.items[1], before[1]);
    assert.equal(sessionReducer(next, { type: 'checkpoint_deleted', id: 'cp-1-ab' }), next);
    assert.equal(sessionReducer(next, { type: 'checkpoint_deleted', id: 'cp-9-zz' }), next);
    assert.equal(sessionReducer(next, { type: 'checkpoint_deleted' } as never), next);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe('sessionReducer: child runs beside the main stream', () => {
  const childStart: WireEvent = {
    type: 'subagent_start',
    run_id: 'run-9',
    mode: 'single',
    agent: 'scout',
    agents: ['scout'],
    task: 't',
    depth: 1,
    started_at: 0,
  };

  test("a child's events never name the foreground run nor start one", () => {
    const prompted = fold([{ type: 'client:prompt', text: 'hi', images: 0 }]);
    const s = fold(
      [
        childStart,
        { type: 'subagent_delta', run_id: 'run-9', text: 'x' },
        { type: 'subagent_progress', run_id: 'run-9', phase: 'streaming' },
      ],
      prompted,
    );
    assert.deepEqual(s.run, { status: 'running' });
    const idle = fold([childStart, { type: 'subagent_delta', run_id: 'run-9', text: 'x' }]);
    assert.deepEqual(idle.run, { status: 'idle' });
  });

  test("the parent's text and streaming tool cards keep streaming past a child's items", () => {
    let s = fold([childStart, { type: 'subagent_delta', run_id: 'run-9', text: 'child' }], streaming());
    s = sessionReducer(s, { type: 'delta', text: 'lo', run_id: 'run-1' });
    const parent = s.items.filter((i) => i.kind === 'assistant' && !i.childRunId);
    assert.deepEqual(
      parent.map((i) => (i as { text: string }).text),
      ['Hello'],
    );
    s = fold(
      [
        { type: 'tool_call_start', id: 'c1', index: 0, run_id: 'run-1' },
        { type: 'subagent_delta', run_id: 'run-9', text: ' more' },
        { type: 'tool_call_name', index: 0, name: 'read_file' },
        { type: 'tool_call_args', index: 0, args: '{"path":"a.ts"}' },
      ],
      s,
    );
    const card = s.items.find((i) => i.id === 'c1') as { name: string; args: string };
    assert.deepEqual([card.name, card.args], ['read_file', '{"path":"a.ts"}']);
  });

  test('done of the root run closes a child still running (its own done never came) and its pending question', () => {
    const s = fold(
      [
        { ...childStart, parent_run_id: 'run-1' },
        { type: 'intercom_message', id: 'ask-1-1', from: 'subagent-scout-run9', to: 'orchestrator', reason: 'need_decision', message: '?' },
        { type: 'done', run_id: 'run-1' },
      ],
      streaming(),
    );
    assert.deepEqual(
      s.items.filter((i) => i.kind === 'subagent' || i.kind === 'intercom').map((i) => (i as { state: string }).state),
      ['cancelled', 'cancelled'],
    );
    assert.equal(s.run.status, 'idle');
  });
});

// How the session model follows a core behind an adapter with a server-side queue (SCV): the queue mirror, progress
// lines, server-started turns, prompts the adapter reports as their turns start, and SCV's approval summaries.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../../shared/sessionState';
import type { ClientEvent } from './clientEvents';
import type { WireEvent } from './eventFields';
import { sessionReducer } from './sessionReducer';

const fold = (events: (WireEvent | ClientEvent)[], from: SessionState): SessionState => events.reduce(sessionReducer, from);

/** A ready SCV core, as the adapter's handshake leaves it. */
function scvReady(): SessionState {
  return fold(
    [
      { type: 'client:core_status', status: 'starting', kind: 'scv' },
      { type: 'protocol_hello', version: '0.3.14', capabilities: ['server_queue', 'tool_progress'] },
      { type: 'client:core_status', status: 'ready', kind: 'scv', capabilities: ['server_queue', 'tool_progress'] },
    ],
    initialSessionState('scv'),
  );
}

const users = (s: SessionState) => s.items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
const entries = (...ids: string[]) => ids.map((id, n) => ({ id, revision: n + 1, prompt: `p-${id}` }));

describe('reducers for an SCV core: turns', () => {
  test('client:prompt right after done starts the next turn with its user item', () => {
    const s = fold(
      [
        { type: 'client:prompt', text: 'first', images: 0 },
        { type: 'delta', text: 'one', run_id: 't1' },
        { type: 'client:server_queue', queue: { entries: entries('q1'), paused: false } },
        { type: 'done', run_id: 't1' },
        { type: 'client:server_queue', queue: { entries: [], paused: false } },
        { type: 'client:prompt', text: 'p-q1', images: 0 },
      ],
      scvReady(),
    );
    assert.deepEqual(users(s), ['first', 'p-q1']);
    assert.deepEqual(s.run, { status: 'running' });
    assert.deepEqual(s.serverQueue, { entries: [], paused: false });
    const next = sessionReducer(s, { type: 'delta', text: 'two', run_id: 't2' });
    assert.equal(next.run.runId, 't2');
    assert.deepEqual(
      next.items.map((i) => i.kind),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });

  test('client:prompt while the state still shows a run: that run is closed and the prompt starts the next one', () => {
    const s = fold(
      [
        { type: 'client:prompt', text: 'first', images: 0 },
        { type: 'delta', text: 'one', run_id: 't1' },
        { type: 'tool_call', id: 'c1', name: 'bash', args: '{"command":"ls"}', run_id: 't1' },
        { type: 'client:prompt', text: 'second', images: 0 },
      ],
      scvReady(),
    );
    assert.deepEqual(users(s), ['first', 'second']);
    assert.equal(s.run.queued, undefined, 'never the one-deep queue');
    assert.deepEqual(s.run, { status: 'running' });
    const tool = s.items.find((i) => i.kind === 'tool');
    assert.equal(tool?.kind === 'tool' && tool.status, 'cancelled');
    const answer = s.items.find((i) => i.kind === 'assistant');
    assert.equal(answer?.kind === 'assistant' && answer.streaming, false);
  });

  test('a Catalyst core still queues a prompt sent while running one deep', () => {
    const s = fold(
      [
        { type: 'client:prompt', text: 'first', images: 0 },
        { type: 'client:prompt', text: 'second', images: 0 },
      ],
      initialSessionState(),
    );
    assert.deepEqual(users(s), ['first']);
    assert.equal(s.run.queued, 'second');
  });

  test('client:server_turn: an info row says why, the run is on with its id, done ends it', () => {
    const s = fold(
      [
        { type: 'client:server_turn', runId: 'bg-1', reason: 'background jobs job-1 reported' },
        { type: 'delta', text: 'Job done.', run_id: 'bg-1' },
      ],
      scvReady(),
    );
    assert.deepEqual(s.run, { status: 'running', runId: 'bg-1' });
    const notice = s.items[0];
    assert.deepEqual(notice.kind === 'notice' && [notice.level, notice.text], [
      'info',
      'The server started a turn: background jobs job-1 reported.',
    ]);
    assert.equal(s.items[1].kind === 'assistant' && s.items[1].runId, 'bg-1');
    const done = sessionReducer(s, { type: 'done', run_id: 'bg-1' });
    assert.deepEqual(done.run, { status: 'idle' });
  });

  test('turn.cancelled as the adapter maps it (aborted, then an info) ends the run and keeps the server queue', () => {
    const s = fold(
      [
        { type: 'client:prompt', text: 'go', images: 0 },
        { type: 'client:server_queue', queue: { entries: entries('q1'), paused: false } },
        { type: 'tool_call', id: 'c1', name: 'bash', args: '{"command":"sleep 9"}', run_id: 't1' },
        { type: 'aborted', run_id: 't1' },
        { type: 'info', message: "SCV rolled back this turn's conversation; files it changed stay changed", run_id: 't1' },
      ],
      scvReady(),
    );
    assert.deepEqual(s.run, { status: 'idle' });
    assert.deepEqual(
      s.serverQueue?.entries.map((e) => e.id),
      ['q1'],
    );
    const tool = s.items.find((i) => i.kind === 'tool');
    assert.equal(tool?.kind === 'tool' && tool.status, 'cancelled');
    assert.equal(s.items.at(-1)?.kind === 'notice' && s.items.at(-1)?.kind, 'notice');
  });

  test('turn.failed as the adapter maps it (error, then done) leaves an error notice and an idle run', () => {
    const s = fold(
      [
        { type: 'client:prompt', text: 'go', images: 0 },
        { type: 'delta', text: 'part', run_id: 't1' },
        { type: 'error', code: 'step_limit', message: 'too many steps', run_id: 't1' },
        { type: 'done', run_id: 't1' },
      ],
      scvReady(),
    );
    assert.deepEqual(s.run, { status: 'idle' });
    assert.ok(s.items.some((i) => i.kind === 'notice' && i.level === 'error' && i.text.includes('too many steps')));
  });
});

describe('reducers for an SCV core: the queue mirror and progress lines', () => {
  test('client:server_queue replaces the mirror; malformed entries are dropped', () => {
    const s = sessionReducer(scvReady(), {
      type: 'client:server_queue',
      queue: {
        entries: [...entries('a', 'b'), { id: '', revision: 1, prompt: 'x' }, { id: 'c', revision: 1.5, prompt: 'x' }] as never,
        paused: true,
      },
    });
    assert.deepEqual(s.serverQueue, { entries: entries('a', 'b'), paused: true });
  });

  test('client:tool_progress adds lines to the tool card, newest five kept; an unknown card is ignored', () => {
    let s = fold(
      [
        { type: 'client:prompt', text: 'go', images: 0 },
        { type: 'tool_call', id: 'c1', name: 'agent', args: '{}', run_id: 't1' },
      ],
      scvReady(),
    );
    s = fold(
      [1, 2, 3, 4, 5, 6].map((n) => ({ type: 'client:tool_progress' as const, id: 'c1', text: `line ${n}` })),
      s,
    );
    const card = s.items.find((i) => i.kind === 'tool');
    assert.deepEqual(card?.kind === 'tool' && card.progress, ['line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
    assert.equal(sessionReducer(s, { type: 'client:tool_progress', id: 'nope', text: 'x' }), s);
  });
});

describe('reducers for an SCV core: approvals', () => {
  test("approval_request keeps the server's summary and the full args of the tool call", () => {
    const args = JSON.stringify({ path: 'src/a.ts', content: 'x'.repeat(5000), mode: 'replace' });
    const s = fold(
      [
        { type: 'client:prompt', text: 'go', images: 0 },
        { type: 'tool_call', id: 'c1', name: 'write', args, run_id: 't1' },
        {
          type: 'approval_request',
          request_id: 'apv-1',
          tool_call_id: 'c1',
          tool: 'write',
          risk: 'destructive',
          args: args.slice(0, 2000),
          summary: '  Replace src/a.ts (5040 bytes) ',
          scv_risk: 'filesystem',
          run_id: 't1',
        },
      ],
      scvReady(),
    );
    const approval = s.items.find((i) => i.kind === 'approval');
    assert.ok(approval?.kind === 'approval');
    assert.equal(approval.summary, 'Replace src/a.ts (5040 bytes)');
    assert.equal(approval.args, args);
    assert.equal(s.run.status, 'waiting_approval');
  });

  test('no summary, or a blank one, adds no field', () => {
    const s = fold([{ type: 'approval_request', request_id: 'apv-2', tool_call_id: 'c2', tool: 'bash', summary: '  ' }], scvReady());
    const approval = s.items.find((i) => i.kind === 'approval');
    assert.ok(approval?.kind === 'approval');
    assert.equal('summary' in approval, false);
  });
});

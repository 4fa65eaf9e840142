import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { subagentTarget } from '../../protocol/subagents';
import {
  type ApprovalItem,
  type AssistantItem,
  initialSessionState,
  type IntercomItem,
  type SessionState,
  type SubagentItem,
  type ToolItem,
  type TranscriptItem,
} from '../../shared/sessionState';
import { diffState } from '../../shared/statePatch';
import type { ClientEvent } from './clientEvents';
import type { WireEvent } from './eventFields';
import { sessionReducer } from './sessionReducer';

const ROOT = 'run-00000000000000aa-00000000000000bb';
const fold = (events: (WireEvent | ClientEvent)[], from: SessionState = initialSessionState()): SessionState =>
  events.reduce(sessionReducer, from);

const sub = (s: SessionState, id: string): SubagentItem => {
  const item = s.items.find((i) => i.kind === 'subagent' && i.id === id);
  assert.ok(item, `no SubagentItem ${id}`);
  return item as SubagentItem;
};
const tool = (s: SessionState, id: string): ToolItem => {
  const item = s.items.find((i) => i.kind === 'tool' && i.id === id);
  assert.ok(item, `no ToolItem ${id}`);
  return item as ToolItem;
};
const childItems = (s: SessionState, runId: string): TranscriptItem[] =>
  s.items.filter((i) => 'childRunId' in i && i.childRunId === runId && i.kind !== 'approval');
const approvals = (s: SessionState): ApprovalItem[] => s.items.filter((i): i is ApprovalItem => i.kind === 'approval');

/** The user's turn ROOT has called `subagent` (call c-sub), approved and running. */
function parentCalling(args = '{"agent":"delegate","task":"[child-A] read a.ts"}'): SessionState {
  return fold([
    { type: 'client:prompt', text: 'delegate it', images: 0 },
    { type: 'delta', text: 'Delegating.', run_id: ROOT },
    { type: 'tool_call', id: 'c-sub', name: 'subagent', args, run_id: ROOT },
  ]);
}

const start = (runId: string, fields: Record<string, unknown> = {}): WireEvent => ({
  type: 'subagent_start',
  run_id: runId,
  mode: 'single',
  agent: 'delegate',
  agents: ['delegate'],
  task: '[child-A] read a.ts',
  depth: 1,
  started_at: 1767225600000,
  parent_run_id: ROOT,
  ...fields,
});
const progress = (runId: string, phase: string, fields: Record<string, unknown> = {}): WireEvent => ({
  type: 'subagent_progress',
  run_id: runId,
  agent: 'delegate',
  phase,
  tool: null,
  tool_count: 0,
  tokens_in: 0,
  tokens_out: 0,
  elapsed_ms: 0,
  ok: true,
  ...fields,
});

describe('reduceSubagents: one child run, our shapes', () => {
  const run = 'run-1';
  const events: WireEvent[] = [
    start(run, { tool_call_id: 'c-sub', model: 'gpt-child' }),
    { type: 'subagent_message', run_id: run, role: 'user', content: '[child-A] read a.ts' },
    progress(run, 'start'),
    { type: 'subagent_delta', run_id: run, text: 'Reading ' },
    { type: 'subagent_delta', run_id: run, text: 'a.ts.' },
    progress(run, 'streaming', { tokens_in: 120, tokens_out: 8, elapsed_ms: 40 }),
    { type: 'subagent_message', run_id: run, role: 'assistant', content: 'Reading a.ts.' },
    progress(run, 'tool', { tool: 'read_file', tool_count: 1, tokens_in: 120, tokens_out: 8, elapsed_ms: 50 }),
    { type: 'subagent_tool_call', run_id: run, call_id: 'call_1', name: 'read_file', args: { path: 'a.ts' }, tool_count: 1 },
  ];

  test('the row, linked to its card by tool_call_id; the task message adds no item', () => {
    const s = fold(events, parentCalling());
    const row = sub(s, run);
    assert.equal(row.runId, ROOT);
    assert.equal(row.parentRunId, ROOT);
    assert.equal(row.parentToolCallId, 'c-sub');
    assert.equal(row.agent, 'delegate');
    assert.equal(row.model, 'gpt-child', 'the row names the model the child starts on');
    assert.equal(row.target, subagentTarget(run, 'delegate'));
    assert.deepEqual(
      [row.state, row.phase, row.tool, row.toolCount, row.tokensIn, row.tokensOut],
      ['running', 'tool', 'read_file', 1, 120, 8],
    );
    assert.deepEqual(
      childItems(s, run).map((i) => i.kind),
      ['assistant', 'tool'],
    );
  });

  test('deltas stream into one child reply, the message ends it; the tool card is sa:<run>:<call> with the args as JSON', () => {
    const s = fold(events, parentCalling());
    const [reply, card] = childItems(s, run) as [AssistantItem, ToolItem];
    assert.deepEqual([reply.text, reply.streaming, reply.runId, reply.agent], ['Reading a.ts.', false, ROOT, 'delegate']);
    assert.equal(card.id, `sa:${run}:call_1`);
    assert.deepEqual(JSON.parse(card.args), { path: 'a.ts' });
    assert.deepEqual([card.status, card.runId, card.childRunId], ['running', ROOT, run]);
  });

  test('a child delta is one append patch on its own item; the foreground run is not touched', () => {
    const before = fold(events.slice(0, 4), parentCalling());
    const after = sessionReducer(before, { type: 'subagent_delta', run_id: run, text: 'more' });
    const patches = diffState(before, after);
    assert.equal(patches.filter((p) => p.op === 'append').length, 1, JSON.stringify(patches));
    assert.equal(after.run.runId, ROOT);
    // The parent's own reply is over (it called a tool): the child's text never lands in it.
    assert.equal((after.items.find((i) => i.kind === 'assistant' && !i.childRunId) as AssistantItem).text, 'Delegating.');
  });

  test('start and done progress carry zero counters and keep the real ones; done closes the row with its summary', () => {
    const s = fold(
      [
        ...events,
        progress(run, 'tool_end', { tool_count: 1, tokens_in: 120, tokens_out: 8, elapsed_ms: 60 }),
        { type: 'subagent_tool_result', run_id: run, call_id: 'call_1', name: 'read_file', ok: true, result: 'export {}' },
        progress(run, 'done'),
        { type: 'subagent_done', run_id: run, state: 'completed', duration_ms: 75, ended_at: 1767225600075, summary: 'a.ts is empty' },
      ],
      parentCalling(),
    );
    const row = sub(s, run);
    assert.deepEqual(
      [row.state, row.phase, row.toolCount, row.tokensIn, row.elapsedMs, row.summary],
      ['completed', 'done', 1, 120, 75, 'a.ts is empty'],
    );
    assert.equal(row.tool, undefined);
    const card = tool(s, `sa:${run}:call_1`);
    assert.deepEqual([card.status, card.output], ['success', 'export {}']);
    // The parent's result and reply are the main flow again.
    const end = fold(
      [
        { type: 'tool_result', id: 'c-sub', ok: true, output: 'a.ts is empty', run_id: ROOT },
        { type: 'delta', text: 'Done.', run_id: ROOT },
      ],
      s,
    );
    const lastItem = end.items[end.items.length - 1] as AssistantItem;
    assert.deepEqual([lastItem.kind, lastItem.text, lastItem.childRunId], ['assistant', 'Done.', undefined]);
    assert.equal(tool(end, 'c-sub').status, 'success');
  });

  test("a child's approval goes on its call: target as run_id, args from subagent_tool_call, the root run's id", () => {
    let s = fold(
      [
        ...events,
        progress(run, 'tool', { tool: 'write_file', tool_count: 2 }),
        {
          type: 'subagent_tool_call',
          run_id: run,
          call_id: 'call_2',
          name: 'write_file',
          args: { path: 'b.ts', content: 'x' },
          tool_count: 2,
        },
        {
          type: 'approval_request',
          request_id: 'apv-7-call_2',
          run_id: subagentTarget(run, 'delegate'),
          tool_call_id: 'call_2',
          tool: 'write_file',
          args: '{"path":"b.ts"…',
          risk: 'destructive',
        },
      ],
      parentCalling(),
    );
    const [approval] = approvals(s);
    assert.deepEqual(
      [approval.toolCallId, approval.runId, approval.childRunId, approval.agent],
      [`sa:${run}:call_2`, ROOT, run, 'delegate'],
    );
    assert.deepEqual(JSON.parse(approval.args), { path: 'b.ts', content: 'x' });
    assert.equal(tool(s, `sa:${run}:call_2`).status, 'awaiting_approval');
    assert.deepEqual(s.run, { status: 'waiting_approval', runId: ROOT });
    s = fold([{ type: 'client:approval_answered', requestId: 'apv-7-call_2', decision: 'yes' }], s);
    assert.equal(tool(s, `sa:${run}:call_2`).status, 'running');
    assert.deepEqual(s.run, { status: 'running', runId: ROOT });
  });

  test('file_change never lands on a child card (children send none)', () => {
    const s = fold(
      [
        { type: 'tool_call', id: 'c-w', name: 'write_file', args: '{}', run_id: ROOT },
        { type: 'tool_result', id: 'c-w', ok: true, output: 'ok', run_id: ROOT },
        { type: 'tool_call', id: 'c-sub', name: 'subagent', args: '{}', run_id: ROOT },
        start(run, { tool_call_id: 'c-sub', model: 'gpt-child' }),
        { type: 'subagent_tool_call', run_id: run, call_id: 'call_1', name: 'write_file', args: { path: 'b.ts' }, tool_count: 1 },
        { type: 'file_change', path: 'a.ts', tool: 'write_file', run_id: ROOT },
      ],
      fold([{ type: 'client:prompt', text: 'go', images: 0 }]),
    );
    assert.deepEqual(tool(s, 'c-w').files, ['a.ts']);
    assert.deepEqual(tool(s, `sa:${run}:call_1`).files, []);
  });
});

describe("reduceSubagents: upstream's shapes", () => {
  test('no tool_call_id: a parallel batch leads its children to the latest live subagent card', () => {
    const s = fold(
      [
        start('run-3', { mode: 'parallel', agent: undefined, agents: ['scout', 'worker'], task: 'parallel (2 tasks)' }),
        start('run-3-0', { agent: 'scout', agents: ['scout'], parent_run_id: 'run-3' }),
        start('run-3-1', { agent: 'worker', agents: ['worker'], parent_run_id: 'run-3' }),
      ],
      parentCalling(),
    );
    const batch = sub(s, 'run-3');
    assert.deepEqual([batch.mode, batch.parentToolCallId, batch.target, batch.agents], ['parallel', 'c-sub', '', ['scout', 'worker']]);
    for (const id of ['run-3-0', 'run-3-1']) {
      assert.deepEqual([sub(s, id).parentRunId, sub(s, id).parentToolCallId, sub(s, id).runId], ['run-3', 'c-sub', ROOT]);
    }
    assert.equal(sub(s, 'run-3-1').target, 'subagent-worker-run31');
  });

  test('colliding call ids across children: each approval finds its own child by target', () => {
    const s = fold(
      [
        start('run-3', { mode: 'parallel', agent: undefined, agents: ['worker', 'worker'] }),
        start('run-3-0', { agent: 'worker', parent_run_id: 'run-3' }),
        start('run-3-1', { agent: 'worker', parent_run_id: 'run-3' }),
        { type: 'subagent_tool_call', run_id: 'run-3-0', call_id: 'call_1', name: 'edit', args: { path: 'a.ts' }, tool_count: 1 },
        { type: 'subagent_tool_call', run_id: 'run-3-1', call_id: 'call_1', name: 'edit', args: { path: 'b.ts' }, tool_count: 1 },
        {
          type: 'approval_request',
          request_id: 'apv-2',
          run_id: 'subagent-worker-run30',
          tool_call_id: 'call_1',
          tool: 'edit',
          args: '{}',
        },
        {
          type: 'approval_request',
          request_id: 'apv-3',
          run_id: 'subagent-worker-run31',
          tool_call_id: 'call_1',
          tool: 'edit',
          args: '{}',
        },
      ],
      parentCalling(),
    );
    const [first, second] = approvals(s);
    assert.deepEqual([first.childRunId, JSON.parse(first.args).path], ['run-3-0', 'a.ts']);
    assert.deepEqual([second.childRunId, JSON.parse(second.args).path], ['run-3-1', 'b.ts']);
    assert.equal(tool(s, 'sa:run-3-0:call_1').status, 'awaiting_approval');
    assert.equal(tool(s, 'sa:run-3-1:call_1').status, 'awaiting_approval');
    assert.equal(s.run.runId, ROOT);
  });

  test('a child reusing a call id gets a second card; the result and the approval go to the unfinished one', () => {
    const call = (path: string): WireEvent => ({
      type: 'subagent_tool_call',
      run_id: 'run-1',
      call_id: 'call_1',
      name: 'edit',
      args: { path },
      tool_count: 1,
    });
    const s = fold(
      [
        start('run-1'),
        call('a.ts'),
        { type: 'subagent_tool_result', run_id: 'run-1', call_id: 'call_1', name: 'edit', ok: true, result: 'edited a.ts' },
        call('b.ts'),
        {
          type: 'approval_request',
          request_id: 'apv-9',
          run_id: subagentTarget('run-1', 'delegate'),
          tool_call_id: 'call_1',
          tool: 'edit',
        },
      ],
      parentCalling(),
    );
    assert.equal(tool(s, 'sa:run-1:call_1').status, 'success');
    assert.equal(tool(s, 'sa:run-1:call_1#2').status, 'awaiting_approval');
    assert.equal(approvals(s)[0].toolCallId, 'sa:run-1:call_1#2');
    assert.deepEqual(new Set(s.items.map((i) => `${i.kind}:${i.id}`)).size, s.items.length, 'item keys stay unique');
  });

  test("the nested quirk: a grandchild named with the foreground run as parent is the running, shallower child's", () => {
    const s = fold(
      [
        start('run-1', { agent: 'worker' }),
        { type: 'subagent_tool_call', run_id: 'run-1', call_id: 'call_1', name: 'subagent', args: { agent: 'scout' }, tool_count: 1 },
        start('run-2', { agent: 'scout', depth: 2, parent_run_id: ROOT }),
      ],
      parentCalling(),
    );
    const grandchild = sub(s, 'run-2');
    assert.deepEqual([grandchild.parentRunId, grandchild.parentToolCallId, grandchild.runId], ['run-1', 'c-sub', ROOT]);
    // Ours names the true parent: the same result.
    const ours = fold(
      [start('run-1', { agent: 'worker' }), start('run-2', { agent: 'scout', depth: 2, parent_run_id: 'run-1' })],
      parentCalling(),
    );
    assert.deepEqual([sub(ours, 'run-2').parentRunId, sub(ours, 'run-2').parentToolCallId], ['run-1', 'c-sub']);
  });

  test("a done dropped as stale after abort: run_cancelled closes the child's row, reply and tool", () => {
    const s = fold(
      [
        start('run-1'),
        { type: 'subagent_delta', run_id: 'run-1', text: 'half a rep' },
        { type: 'subagent_tool_call', run_id: 'run-1', call_id: 'call_1', name: 'bash', args: { command: 'sleep 60' }, tool_count: 1 },
        start('run-2', { agent: 'scout' }),
        { type: 'subagent_delta', run_id: 'run-2', text: 'still streaming' },
        { type: 'run_cancelled', run_id: ROOT, reason: 'user_abort' },
      ],
      parentCalling(),
    );
    assert.equal(sub(s, 'run-1').state, 'cancelled');
    assert.equal(sub(s, 'run-2').state, 'cancelled');
    assert.equal(tool(s, 'sa:run-1:call_1').status, 'cancelled');
    assert.ok(childItems(s, 'run-2').every((i) => i.kind !== 'assistant' || !i.streaming));
    assert.deepEqual(s.run, { status: 'idle' });
  });

  test("a parallel child's events that escape after the abort (upstream) add nothing to its closed row", () => {
    const cancelled = fold(
      [
        start('run-3', { mode: 'parallel', agent: undefined, agents: ['scout'] }),
        start('run-3-0', { agent: 'scout', parent_run_id: 'run-3' }),
        { type: 'run_cancelled', run_id: ROOT, reason: 'user_abort' },
      ],
      parentCalling(),
    );
    const late = fold(
      [
        progress('run-3-0', 'tool', { tool: 'bash', tool_count: 1, tokens_in: 50 }),
        { type: 'subagent_tool_call', run_id: 'run-3-0', call_id: 'call_1', name: 'bash', args: { command: 'ls' }, tool_count: 1 },
        { type: 'subagent_delta', run_id: 'run-3-0', text: 'late' },
        { type: 'subagent_message', run_id: 'run-3-0', role: 'assistant', content: 'late' },
      ],
      cancelled,
    );
    assert.equal(late, cancelled);
    assert.equal(sub(late, 'run-3-0').state, 'cancelled');
  });

  test('no deltas (upstream streams children quietly): each assistant message is a finished reply; a steer is a child user item', () => {
    const s = fold(
      [
        start('run-1'),
        { type: 'subagent_message', run_id: 'run-1', role: 'assistant', content: 'first' },
        { type: 'subagent_message', run_id: 'run-1', role: 'system', content: 'Orchestrator: focus on b.ts' },
        { type: 'subagent_message', run_id: 'run-1', role: 'assistant', content: 'second' },
      ],
      parentCalling(),
    );
    const items = childItems(s, 'run-1');
    assert.deepEqual(
      items.map((i) => [i.kind, i.kind === 'user' || i.kind === 'assistant' ? i.text : '']),
      [
        ['assistant', 'first'],
        ['user', 'Orchestrator: focus on b.ts'],
        ['assistant', 'second'],
      ],
    );
    assert.ok(items.every((i) => i.kind !== 'assistant' || !i.streaming));
  });

  test('an approval for a child target with no matching call never becomes the foreground run id', () => {
    const s = fold([
      { type: 'client:prompt', text: 'go', images: 0 },
      {
        type: 'approval_request',
        request_id: 'apv-1',
        run_id: 'subagent-worker-run5',
        tool_call_id: 'call_1',
        tool: 'bash',
        args: '{"command":"ls"}',
      },
    ]);
    assert.deepEqual(s.run, { status: 'waiting_approval' });
    const [approval] = approvals(s);
    assert.deepEqual([approval.args, approval.runId, approval.childRunId], ['{"command":"ls"}', undefined, undefined]);
    // A later foreground event still names the run.
    assert.equal(fold([{ type: 'delta', text: 'x', run_id: ROOT }], s).run.runId, ROOT);
  });
});

describe('reduceSubagents: worktrees', () => {
  test('worktree_ready comes before the start: the row it makes gets the run fields, then seeded, promoted, cleaned', () => {
    const path = '/ws/.catalyst-code/worktrees/run-1';
    const s = fold(
      [
        { type: 'worktree_ready', run_id: 'run-1', path, branch: 'catcode/wt/run-1' },
        { type: 'worktree_seeded', run_id: 'run-1', paths: ['deleted:old.ts'] },
        start('run-1', { agent: 'worker' }),
        { type: 'subagent_done', run_id: 'run-1', state: 'completed', duration_ms: 5, ended_at: 1 },
        { type: 'worktree_promoted', run_id: 'run-1', paths: ['a.ts'] },
        { type: 'worktree_cleaned', path },
      ],
      parentCalling(),
    );
    const rows = s.items.filter((i) => i.kind === 'subagent');
    assert.equal(rows.length, 1);
    const row = sub(s, 'run-1');
    assert.deepEqual([row.agent, row.target, row.parentToolCallId, row.state], ['worker', 'subagent-worker-run1', 'c-sub', 'completed']);
    assert.deepEqual(row.worktree, { path, branch: 'catcode/wt/run-1', seeded: ['deleted:old.ts'], promoted: ['a.ts'], cleaned: true });
  });
});

describe('reduceIntercom', () => {
  const target = subagentTarget('run-1', 'worker');
  const ask = (id: string, reason = 'need_decision'): WireEvent => ({
    type: 'intercom_message',
    id,
    from: target,
    to: 'orchestrator',
    reason,
    message: 'Which file?',
  });
  const base = () => fold([start('run-1', { agent: 'worker' })], parentCalling());

  test('a question waits for the user; the reply answers it and the run goes on', () => {
    let s = fold([ask('ask-1-1767225600000')], base());
    const item = s.items[s.items.length - 1] as IntercomItem;
    assert.deepEqual([item.kind, item.state, item.childRunId, item.agent, item.runId], ['intercom', 'pending', 'run-1', 'worker', ROOT]);
    assert.equal(s.run.status, 'waiting_input');
    s = fold([{ type: 'client:intercom_replied', id: 'ask-1-1767225600000', reply: 'b.ts' }], s);
    assert.deepEqual(
      [(s.items[s.items.length - 1] as IntercomItem).state, (s.items[s.items.length - 1] as IntercomItem).reply],
      ['answered', 'b.ts'],
    );
    assert.equal(s.run.status, 'running');
  });

  test('a progress update is info only', () => {
    const s = fold([ask('msg-2-1', 'progress_update')], base());
    assert.equal((s.items[s.items.length - 1] as IntercomItem).state, 'info');
    assert.equal(s.run.status, 'running');
  });

  test("a timeout is the child's failing contact_supervisor result", () => {
    const s = fold(
      [
        ask('ask-1-1'),
        {
          type: 'subagent_tool_result',
          run_id: 'run-1',
          call_id: 'call_1',
          name: 'contact_supervisor',
          ok: false,
          result: 'need_decision timed out after 5 min with no supervisor response; do NOT proceed…',
        },
      ],
      base(),
    );
    assert.equal((s.items.find((i) => i.kind === 'intercom') as IntercomItem).state, 'expired');
    assert.equal(s.run.status, 'running');
  });

  test('a reply to a gone ask: the core\'s "no pending intercom ask" error expires it', () => {
    const s = fold(
      [
        ask('ask-1-1'),
        { type: 'client:intercom_replied', id: 'ask-1-1', reply: 'late' },
        { type: 'error', message: 'no pending intercom ask for id ask-1-1' },
      ],
      base(),
    );
    assert.equal((s.items.find((i) => i.kind === 'intercom') as IntercomItem).state, 'expired');
  });

  test('an ask whose wait was interrupted is cancelled; so is a pending one when the turn is cancelled', () => {
    const interrupted = fold(
      [
        ask('ask-1-1'),
        { type: 'subagent_tool_result', run_id: 'run-1', call_id: 'c', name: 'contact_supervisor', ok: true, result: '[interrupted]' },
      ],
      base(),
    );
    assert.equal((interrupted.items.find((i) => i.kind === 'intercom') as IntercomItem).state, 'cancelled');
    const aborted = fold([ask('ask-1-1'), { type: 'run_cancelled', run_id: ROOT, reason: 'user_abort' }], base());
    assert.equal((aborted.items.find((i) => i.kind === 'intercom') as IntercomItem).state, 'cancelled');
    assert.equal(aborted.run.status, 'idle');
  });
});

import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { subagentTarget } from '../../protocol/subagents';
import type { AgentDefinition } from '../agents/types';
import { coreTools, toolRulesMatchPaths } from '../app/allTools';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { Escalations } from '../approvals/escalations';
import { PermissionRules } from '../approvals/permissionRules';
import { DEFAULT_SUBAGENT_SETTINGS } from '../config/coreConfig';
import { IntercomBus } from '../intercom/intercomBus';
import type { ResolvedProvider, StreamEvent, StreamRequest, StreamResult } from '../providers/types';
import { EventSink } from '../runtime/eventSink';
import { RunScope } from '../runtime/runScope';
import type { RunRecord } from '../sessions/sessionTypes';
import { ABORTED, CHILD_TOOL_CALL_CAP, NO_MODEL_MESSAGE, TOOL_CAP_MESSAGE, createSubagentHost, type ChildEnv } from './childRunner';
import { SubagentRegistry } from './subagentRegistry';
import { UsageTracker } from '../agent/usageTracker';

const KEY = 'sk-live-CHILDMARKER-0123456789';

interface Reply {
  text?: string;
  chunks?: string[];
  /** Provider reads: each read's chunks are delivered together, the next read once the child has emitted this one. */
  reads?: string[][];
  calls?: { id: string; name: string; args: object }[];
  /** The reply waits for it. */
  hold?: Promise<void>;
  /** The request fails with this error instead. */
  error?: string;
}

function agent(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    name: 'worker',
    description: 'does things',
    tools: ['read_file', 'write_file'],
    fallbackModels: [],
    thinking: 'high',
    systemPromptMode: 'replace',
    inheritProjectContext: false,
    defaultContext: 'fresh',
    skills: [],
    defaultReads: [],
    disabled: false,
    source: 'builtin',
    prompt: 'You are the worker.',
    ...overrides,
  };
}

const workspaces: TestWorkspace[] = [];
afterEach(() => workspaces.splice(0).forEach((w) => w.cleanup()));

function harness(replies: Reply[], mode: 'destructive' | 'never' = 'destructive') {
  const workspace = makeTestWorkspace();
  workspaces.push(workspace);
  const lines: any[] = [];
  const waiters: { match: (l: any) => boolean; resolve: (l: any) => void }[] = [];
  const push = (line: any) => {
    lines.push(line);
    for (const w of waiters.filter((w) => w.match(line))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  };
  /** The first line matching `match`, now or when the runner emits it. */
  const until = (match: (l: any) => boolean): Promise<any> =>
    lines.find(match) ?? new Promise((resolve) => waiters.push({ match, resolve }));
  const requests: StreamRequest[] = [];
  const records: RunRecord[] = [];
  const sink = new EventSink(
    (line) => push(JSON.parse(line)),
    () => 'session-a',
    undefined,
    () => [KEY],
  );
  const broker = new ApprovalBroker({ onExpired: () => undefined });
  const usage = new UsageTracker();
  const registry = new SubagentRegistry();
  const root = new RunScope('session-a', 'turn-1', 'turn');
  const env: ChildEnv = {
    sink,
    registry,
    approvals: {
      mode,
      rules: new PermissionRules({ allow: [], deny: [], ask: [] }, toolRulesMatchPaths),
      escalations: new Escalations(),
      broker,
    },
    usage: () => usage,
    secrets: () => [KEY],
    idleTimeoutMs: 0,
    settings: { ...DEFAULT_SUBAGENT_SETTINGS },
    agents: () => [agent()],
    parentModel: { model: 'parent-model', provider: { name: 'p', kind: 'openai', baseUrl: 'http://x', headers: {} } as ResolvedProvider },
    route: () => undefined,
    basePrompt: () => 'BASE PROMPT',
    parentMessages: () => [],
    toolContext: (child) => workspace.context({ signal: child.signal, depth: child.depth }),
    refuseTool: () => undefined,
    builtIns: coreTools,
    recordRun: (r) => records.push(r),
    stream: async (req: StreamRequest, onEvent: (e: StreamEvent) => void): Promise<StreamResult> => {
      requests.push({ ...req, messages: [...req.messages] });
      const reply = replies.shift();
      if (!reply) throw new Error('no scripted reply left');
      await reply.hold;
      if (req.signal.aborted) throw new Error('aborted');
      if (reply.error) throw new Error(reply.error);
      for (const read of reply.reads ?? [reply.chunks ?? (reply.text ? [reply.text] : [])]) {
        for (const chunk of read) onEvent({ type: 'text', text: chunk });
        if (reply.reads) await until((l) => l.type === 'subagent_delta' && l.text.endsWith(read.at(-1)));
      }
      return {
        text: (reply.reads?.flat() ?? reply.chunks ?? []).join('') || reply.text || '',
        reasoning: '',
        toolCalls: (reply.calls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
        usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 0 },
        finishReason: 'stop',
        ttftMs: 1,
        elapsedMs: 2,
      };
    },
  };
  const host = createSubagentHost(env, { root, depth: 0, maxDepth: 2 });
  const spec = (extra: object = {}) => ({
    agent: agent(),
    task: 'do the task',
    context: 'fresh' as const,
    depth: 1,
    maxDepth: 2,
    runId: 'run-a1',
    parentRunId: 'turn-1',
    toolCallId: 'call_sub',
    ...extra,
  });
  return { env, host, lines, until, requests, records, usage, root, broker, registry, workspace, spec };
}

test('a single child: start, its task, a tool through the gate in child mode, its answer, done — in order, with no tool_call events', async () => {
  const h = harness([{ calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }] }, { chunks: ['The file ', 'says hi.'] }]);
  h.workspace.write('a.txt', 'hi\n');
  const result = await h.host.runChild(h.spec());
  assert.deepEqual(result, { ok: true, output: 'The file says hi.', state: 'completed' });
  const shape = h.lines.map((l) =>
    l.type === 'subagent_progress' ? `progress:${l.phase}` : l.type === 'subagent_message' ? `message:${l.role}` : l.type,
  );
  assert.deepEqual(shape, [
    'subagent_start',
    'message:user',
    'progress:start',
    'progress:streaming',
    'progress:tool',
    'subagent_tool_call',
    'progress:tool_end',
    'subagent_tool_result',
    'subagent_delta',
    'progress:streaming',
    'message:assistant',
    'info',
    'progress:done',
    'subagent_done',
  ]);
  const start = h.lines[0];
  assert.equal(start.run_id, 'run-a1');
  assert.equal(start.mode, 'single');
  assert.equal(start.agent, 'worker');
  assert.equal(start.parent_run_id, 'turn-1');
  assert.equal(start.tool_call_id, 'call_sub');
  assert.ok(h.lines.every((l) => l.session_id === 'session-a'));
  assert.deepEqual(
    h.lines.map((l) => l.sequence),
    h.lines.map((_, i) => i + 1),
    'the root run counts the sequence',
  );
  const call = h.lines.find((l) => l.type === 'subagent_tool_call');
  assert.deepEqual(call.args, { path: 'a.txt' });
  assert.equal(call.tool_count, 1);
  assert.match(h.lines.find((l) => l.type === 'subagent_tool_result').result, /hi/);
  assert.equal(h.lines.find((l) => l.type === 'info').message, 'subagent done (parent-model): 200+20t');
  const done = h.lines.at(-1);
  assert.equal(done.state, 'completed');
  assert.equal(done.summary, 'The file says hi.');
  assert.equal(h.lines.at(-2).tokens_in, 0, 'progress{done} carries zero counters');
  assert.equal(h.usage.tokensIn, 200, "the child's tokens are added to the session's");
  assert.deepEqual(
    h.records.map((r) => [r.kind, r.state, r.parent_run_id, r.tool_call_id]),
    [
      ['subagent', 'started', 'turn-1', 'call_sub'],
      ['subagent', 'completed', 'turn-1', 'call_sub'],
    ],
  );
  assert.equal(h.records[1].detail, 'The file says hi.');
  const first = h.requests[0];
  assert.equal(first.model, 'parent-model', 'no model of its own: the parent model');
  assert.equal(first.reasoningEffort, 'high');
  assert.deepEqual(
    first.messages.map((m) => m.role),
    ['system', 'user'],
  );
  assert.equal(first.messages[0].content, 'You are the worker.', 'replace mode without the project context');
  assert.equal(first.messages[1].content, 'do the task', 'a fresh child reads the bare task');
  assert.deepEqual(first.tools.map((t) => t.name).sort(), ['finish', 'read_file', 'write_file']);
  assert.equal(h.registry.live('run-a1'), undefined, 'the child is no longer live');
  assert.equal(h.registry.get('run-a1')?.state, 'completed', 'it is kept among the ended runs');
});

test('the deltas of one provider read go out as one subagent_delta, in order, each read as it comes', async () => {
  // The scripted stream delivers the second read only once the first read's delta is out: nothing waits for a later read.
  const h = harness([
    {
      reads: [
        ['Plan: ', 'read ', 'the file.'],
        [' Then ', 'answer.'],
      ],
    },
  ]);
  const result = await h.host.runChild(h.spec());
  assert.deepEqual(
    h.lines.filter((l) => l.type === 'subagent_delta').map((l) => l.text),
    ['Plan: read the file.', ' Then answer.'],
  );
  assert.equal(result.output, 'Plan: read the file. Then answer.');
});

test("a tool outside the agent's schema is refused in upstream's words; an ask rule prompts for a child as for its parent", async () => {
  const h = harness([{ calls: [{ id: 'call_1', name: 'bash', args: { command: 'ls' } }] }, { text: 'ok' }]);
  h.env.approvals.rules = new PermissionRules({ allow: [], deny: [], ask: ['read_file'] }, toolRulesMatchPaths);
  await h.host.runChild(h.spec());
  const result = h.lines.find((l) => l.type === 'subagent_tool_result');
  assert.equal(result.ok, false);
  assert.equal(
    result.result,
    "tool 'bash' is not available to agent 'worker' (not in its tool schema). Declare it in the agent's tools: frontmatter if needed.",
  );
  const h2 = harness([{ calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }] }, { text: 'ok' }]);
  h2.workspace.write('a.txt', 'x');
  h2.env.approvals.rules = new PermissionRules({ allow: [], deny: [], ask: ['read_file'] }, toolRulesMatchPaths);
  const asking = h2.host.runChild(h2.spec());
  const request = await h2.until((l) => l.type === 'approval_request');
  assert.deepEqual([request.tool, request.tool_call_id], ['read_file', 'call_1'], 'the ask rule prompts the child too');
  assert.deepEqual(h2.broker.answer(request.request_id, { decision: 'yes' }), { ok: true });
  await asking;
  assert.equal(h2.lines.find((l) => l.type === 'subagent_tool_result').ok, true);
});

test("a child's approval is addressed by its target; denied, the child reads upstream's words", async () => {
  const h = harness([{ calls: [{ id: 'call_1', name: 'write_file', args: { path: 'b.txt', content: 'new' } }] }, { text: 'gave up' }]);
  const running = h.host.runChild(h.spec());
  const request = await h.until((l) => l.type === 'approval_request');
  const target = subagentTarget('run-a1', 'worker');
  assert.equal(request.run_id, target);
  assert.equal(request.tool_call_id, 'call_1');
  assert.ok(
    h.lines.indexOf(h.lines.find((l) => l.type === 'subagent_tool_call')) < h.lines.indexOf(request),
    'the call is announced first',
  );
  assert.deepEqual(h.broker.answer(request.request_id, { decision: 'no' }), { ok: true });
  await running;
  assert.equal(h.lines.find((l) => l.type === 'subagent_tool_result').result, "tool call 'write_file' was denied by the user");
  assert.ok(!h.workspace.exists('b.txt'));
});

test('cancelling the root cancels the child mid-approval: its approval goes stale and nothing of it follows', async () => {
  const h = harness([{ calls: [{ id: 'call_1', name: 'write_file', args: { path: 'b.txt', content: 'new' } }] }, { text: 'never' }]);
  const running = h.host.runChild(h.spec());
  const request = await h.until((l) => l.type === 'approval_request');
  const count = h.lines.length;
  h.root.cancel('abort');
  h.registry.cancelTree(h.broker, h.root);
  const result = await running;
  assert.deepEqual(result, { ok: false, output: ABORTED, state: 'cancelled' });
  assert.equal(h.broker.answer(request.request_id, { decision: 'yes' }).ok, false, 'a late approve cannot authorize a dead child');
  h.env.sink.emit({ type: 'info', message: 'marker' });
  assert.deepEqual(
    h.lines.slice(count).map((l) => l.type),
    ['info'],
  );
  assert.equal(h.records.at(-1)?.state, 'cancelled');
  assert.ok(!h.workspace.exists('b.txt'));
});

test('a secret in a child tool result and split across its deltas is redacted', async () => {
  const h = harness([
    { calls: [{ id: 'call_1', name: 'read_file', args: { path: 'k.txt' } }] },
    { chunks: [`key ${KEY.slice(0, 10)}`, `${KEY.slice(10)} end`] },
  ]);
  h.workspace.write('k.txt', `the key is ${KEY}\n`);
  const result = await h.host.runChild(h.spec());
  const text = JSON.stringify(h.lines);
  assert.ok(!text.includes(KEY.slice(0, 10)), 'no part of the key in any event');
  assert.equal(
    h.lines
      .filter((l) => l.type === 'subagent_delta')
      .map((l) => l.text)
      .join(''),
    'key [REDACTED] end',
  );
  assert.match(h.lines.find((l) => l.type === 'subagent_tool_result').result, /\[REDACTED\]/);
  assert.ok(result.ok);
});

test(`a child stops after ${CHILD_TOOL_CALL_CAP} tool calls with upstream's cap message`, async () => {
  const calls = (round: number) => [0, 1, 2, 3].map((i) => ({ id: `c${round}_${i}`, name: 'read_file', args: { path: 'a.txt' } }));
  const replies = Array.from({ length: CHILD_TOOL_CALL_CAP / 4 + 1 }, (_, round) => ({ calls: calls(round) }));
  const h = harness(replies);
  h.workspace.write('a.txt', 'x');
  const result = await h.host.runChild(h.spec());
  assert.deepEqual(result, { ok: false, output: TOOL_CAP_MESSAGE, state: 'failed' });
  assert.equal(h.lines.filter((l) => l.type === 'subagent_tool_call').length, CHILD_TOOL_CALL_CAP);
  assert.equal(h.lines.at(-1).state, 'failed');
});

test('finish ends the child with its last written text; a batch groups children under its run id', async () => {
  const h = harness([{ text: 'All done here.', calls: [{ id: 'call_1', name: 'finish', args: {} }] }]);
  const group = h.host.openGroup({
    runId: 'run-b',
    mode: 'parallel',
    agents: ['worker'],
    task: 'parallel (1 tasks)',
    toolCallId: 'call_sub',
  });
  const result = await h.host.runChild(h.spec({ runId: 'run-b-0', parentRunId: 'run-b' }));
  group.finish('completed');
  assert.deepEqual(result, { ok: true, output: 'All done here.', state: 'completed' });
  const starts = h.lines.filter((l) => l.type === 'subagent_start');
  assert.deepEqual(
    starts.map((s) => [s.run_id, s.mode, s.parent_run_id]),
    [
      ['run-b', 'parallel', 'turn-1'],
      ['run-b-0', 'single', 'run-b'],
    ],
  );
  const dones = h.lines.filter((l) => l.type === 'subagent_done');
  assert.deepEqual(
    dones.map((d) => [d.run_id, d.state, d.summary]),
    [
      ['run-b-0', 'completed', 'All done here.'],
      ['run-b', 'completed', undefined],
    ],
  );
});

test("the foreground host's worktree events keep the child's run_id, count against the root, and go stale with it", () => {
  const h = harness([]);
  h.host.emitWorktree({
    type: 'worktree_ready',
    run_id: 'run-a1',
    path: '/ws/.catalyst-code/worktrees/run-a1',
    branch: 'catcode/wt/run-a1',
  });
  h.host.emitWorktree({ type: 'worktree_cleaned', path: '/ws/.catalyst-code/worktrees/run-a1' });
  h.root.cancel('abort');
  h.host.emitWorktree({ type: 'worktree_promoted', run_id: 'run-a1', paths: ['late.txt'] });
  assert.deepEqual(
    h.lines.map((l) => [l.type, l.run_id, l.session_id, typeof l.sequence]),
    [
      ['worktree_ready', 'run-a1', 'session-a', 'number'],
      ['worktree_cleaned', 'turn-1', 'session-a', 'number'],
    ],
  );
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('interrupt stops one live child: paused until it stops, then cancelled, and its subagent_done is still sent', async () => {
  const gate = deferred();
  const h = harness([{ text: 'never seen', hold: gate.promise }]);
  const running = h.host.runChild(h.spec());
  await h.until((l) => l.type === 'subagent_progress' && l.phase === 'start');
  assert.equal(h.host.interrupt('run-nope'), false);
  assert.equal(h.host.interrupt('run-a1'), true);
  assert.equal(h.host.runs().find((r) => r.runId === 'run-a1')?.state, 'paused');
  gate.resolve();
  assert.deepEqual(await running, { ok: false, output: ABORTED, state: 'cancelled' });
  const done = h.lines.at(-1);
  assert.deepEqual([done.type, done.state], ['subagent_done', 'cancelled']);
  const run = h.host.runs().find((r) => r.runId === 'run-a1');
  assert.equal(run?.state, 'cancelled');
  assert.equal(typeof run?.endedAt, 'number');
  assert.equal(h.host.interrupt('run-a1'), false, 'an ended run is not live');
});

test("steer posts to a live child's mailbox: it reads `Orchestrator: …` before its next request, announced as steered", async () => {
  const gate = deferred();
  const h = harness([
    { calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }], hold: gate.promise },
    { text: 'steered answer' },
  ]);
  h.env.intercom = new IntercomBus({ toOrchestrator: () => undefined });
  h.workspace.write('a.txt', 'x');
  const running = h.host.runChild(h.spec());
  await h.until((l) => l.type === 'subagent_progress' && l.phase === 'start');
  assert.equal(h.host.steer('run-a1', 'focus on b.txt'), true);
  assert.equal(h.host.steer('run-gone', 'x'), false);
  gate.resolve();
  assert.equal((await running).output, 'steered answer');
  assert.deepEqual(h.requests[1].messages.at(-1), { role: 'user', content: 'Orchestrator: focus on b.txt' });
  const steered = h.lines.findIndex((l) => l.type === 'subagent_message' && l.role === 'system');
  assert.equal(h.lines[steered].content, 'Orchestrator: focus on b.txt');
  assert.equal(h.lines[steered + 1].phase, 'steered');
  const run = h.host.runs().find((r) => r.runId === 'run-a1');
  assert.deepEqual(run?.lastTools, ['read_file']);
  assert.deepEqual(run?.lastTurns, ['steered answer']);
  assert.equal(run?.estimatedTokens, 220);
});

test("a failing model falls back to the agent's next one, which the child keeps; with none left the stream error is the result", async () => {
  const h = harness([
    { error: `boom with ${KEY}` },
    { calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.txt' } }] },
    { text: 'on b' },
  ]);
  h.workspace.write('a.txt', 'x');
  const provider = h.env.parentModel.provider;
  h.env.route = (model) => (model === 'm-a' || model === 'm-b' ? { model, provider } : undefined);
  const result = await h.host.runChild(h.spec({ agent: agent({ model: 'm-a', fallbackModels: ['m-unserved', 'm-b'] }) }));
  assert.deepEqual(result, { ok: true, output: 'on b', state: 'completed' });
  assert.deepEqual(
    h.requests.map((r) => r.model),
    ['m-a', 'm-b', 'm-b'],
  );
  const info = h.lines.find((l) => l.type === 'info');
  assert.equal(info.message, "subagent model 'm-a' failed (boom with [REDACTED]); falling back to 'm-b'");
  assert.equal(h.lines.filter((l) => l.type === 'info').at(-1).message, 'subagent done (m-b): 200+20t');

  const last = harness([{ error: 'down' }]);
  assert.deepEqual(await last.host.runChild(last.spec()), { ok: false, output: 'subagent stream error: down', state: 'failed' });
  const unserved = harness([]);
  assert.deepEqual(await unserved.host.runChild(unserved.spec({ model: 'nobody-serves-this' })), {
    ok: false,
    output: NO_MODEL_MESSAGE,
    state: 'failed',
  });
});

test("a batch that failed before any child ran ends with the failure as its done's summary", () => {
  const h = harness([]);
  const group = h.host.openGroup({
    runId: 'run-b',
    mode: 'parallel',
    agents: ['worker'],
    task: 'parallel (1 tasks)',
    toolCallId: 'call_sub',
  });
  group.finish('failed', 'worktree setup failed for task 0: busy');
  const done = h.lines.find((l) => l.type === 'subagent_done');
  assert.deepEqual([done.run_id, done.state, done.summary], ['run-b', 'failed', 'worktree setup failed for task 0: busy']);
});

test('a child of a batch interrupted before its turn came never starts: no events, no records', async () => {
  const h = harness([]);
  const group = h.host.openGroup({
    runId: 'run-b',
    mode: 'parallel',
    agents: ['worker'],
    task: 'parallel (1 tasks)',
    toolCallId: 'call_sub',
  });
  assert.equal(h.host.interrupt('run-b'), true);
  const before = { lines: h.lines.length, records: h.records.length };
  const result = await h.host.runChild(h.spec({ runId: 'run-b-0', parentRunId: 'run-b' }));
  assert.deepEqual(result, { ok: false, output: ABORTED, state: 'cancelled' });
  assert.equal(h.lines.length, before.lines);
  assert.equal(h.records.length, before.records);
  assert.equal(h.requests.length, 0);
  group.finish('cancelled');
  assert.deepEqual(
    h.lines.slice(before.lines).map((l) => [l.type, l.run_id, l.state]),
    [['subagent_done', 'run-b', 'cancelled']],
  );
});

test('subagents.intercomBridge.mode: the bridge tools and instructions for every child, forked ones only, or none', async () => {
  const offered = async (mode: 'always' | 'fork-only' | 'off', context: 'fresh' | 'fork') => {
    const h = harness([{ text: 'done' }]);
    h.env.intercom = new IntercomBus({ toOrchestrator: () => undefined });
    h.env.settings = { ...h.env.settings, intercomBridge: mode };
    await h.host.runChild(h.spec({ context }));
    const names = (h.requests[0].tools ?? []).map((t) => t.name);
    const system = String(h.requests[0].messages[0].content);
    return [names.includes('contact_supervisor'), system.includes("Your supervisor is 'orchestrator'")];
  };
  assert.deepEqual(await offered('always', 'fresh'), [true, true]);
  assert.deepEqual(await offered('fork-only', 'fresh'), [false, false]);
  assert.deepEqual(await offered('fork-only', 'fork'), [true, true]);
  assert.deepEqual(await offered('off', 'fork'), [false, false]);
});

test("an agent's output file gets its final text through the child's gate: approved it is written, denied or outside the workspace it is not", async () => {
  const h = harness([{ text: 'the context' }]);
  const running = h.host.runChild(h.spec({ agent: agent({ output: 'context.md' }) }));
  const request = await h.until((l) => l.type === 'approval_request');
  assert.deepEqual([request.tool, request.tool_call_id, request.run_id], ['write_file', 'output', subagentTarget('run-a1', 'worker')]);
  h.broker.answer(request.request_id, { decision: 'yes' });
  assert.deepEqual(await running, { ok: true, output: 'the context', state: 'completed' });
  assert.equal(h.workspace.read('context.md'), 'the context');
  assert.ok(h.lines.some((l) => l.type === 'subagent_tool_result' && l.call_id === 'output' && l.ok));

  const denied = harness([{ text: 'the context' }]);
  const deniedRun = denied.host.runChild(denied.spec({ agent: agent({ output: 'context.md' }) }));
  denied.broker.answer((await denied.until((l) => l.type === 'approval_request')).request_id, { decision: 'no' });
  const result = await deniedRun;
  assert.equal(result.output, "the context\n\n(context.md was not written: tool call 'write_file' was denied by the user)");
  assert.ok(!denied.workspace.exists('context.md'));

  const outside = harness([{ text: 'the context' }], 'never');
  const outsideResult = await outside.host.runChild(outside.spec({ agent: agent({ output: '../escape.md' }) }));
  assert.match(outsideResult.output, /\(\.\.\/escape\.md was not written: refused: /);
});

// Subagents over stdio (issue #14): the real core as a child process, the parent and every child scripted through
// their own routes of the scripted model server (a child's route key is in its task, its last user message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { subagentTarget } from '../../src/protocol/subagents';
import type { CoreEvent } from '../support/coreProcess';
import { startScenario, TEST_KEY, TEST_MODEL, type Scenario } from '../support/coreScenario';
import { loadRoutedScenario, type ScriptedResponse } from '../support/scriptedModelServer';

const PARENT_CALL = 'call_sub_1';
/** A scenario that waits on a gate the core never reaches fails here instead of hanging. */
const SCENARIO = { timeout: 60_000 };

/** The parent's reply that calls `subagent` with `args`, and its answer once the tool result is back. */
function parentCalls(args: object, answer = 'Done.'): ScriptedResponse[] {
  return [{ steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: args } }] }, { steps: [{ text: answer }] }];
}

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });

/** Sends a prompt, approves the parent's `subagent` call (approval mode destructive), and returns the turn's events. */
async function turnApprovingSubagent(s: Scenario, prompt: string): Promise<CoreEvent[]> {
  const from = s.core.events.length;
  s.core.send({ type: 'send', prompt, model: TEST_MODEL });
  const request = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL, { from });
  s.core.send({ type: 'approve', request_id: request.request_id, decision: 'yes' });
  await s.core.waitForType('done', { from, timeoutMs: 30_000 });
  return s.core.answerSince(from);
}

/** A compact name for the events of §1's "order of one single run" (subagent_delta and unrelated events give undefined). */
function orderLabel(e: CoreEvent, childRunIds: ReadonlySet<string>): string | undefined {
  const mine = childRunIds.has(e.run_id);
  switch (e.type) {
    case 'tool_call':
    case 'tool_result':
      return e.id === PARENT_CALL ? `parent ${e.type}` : `other ${e.type}`;
    case 'approval_request':
      return e.tool_call_id === PARENT_CALL ? 'parent approval' : `approval ${e.tool_call_id}`;
    case 'subagent_start':
    case 'subagent_done':
    case 'subagent_tool_call':
    case 'subagent_tool_result':
      return mine ? e.type : undefined;
    case 'subagent_message':
      return mine ? `message ${e.role}` : undefined;
    case 'subagent_progress':
      return mine ? `progress ${e.phase}` : undefined;
    case 'info':
      return /^subagent done \(/.test(e.message) ? 'info subagent done' : undefined;
    case 'file_change':
      return 'file_change';
    default:
      return undefined;
  }
}

/** The tool results a request carried, in either dialect (OpenAI's role `tool`, Anthropic's tool_result blocks). */
const toolMessages = (request: { body: any }): string[] =>
  request.body.messages.flatMap((m: any) => {
    if (m.role === 'tool') return [String(m.content)];
    if (m.role !== 'user' || !Array.isArray(m.content)) return [];
    return m.content
      .filter((b: any) => b.type === 'tool_result')
      .map((b: any) => (typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text ?? '').join('')));
  });

const lastUserMessage = (request: { body: any }): string =>
  String(request.body.messages.filter((m: any) => m.role === 'user').at(-1)?.content ?? '');

for (const kind of ['openai', 'anthropic'] as const) {
  test(
    `a single child (${kind}): upstream order of events, its own conversation, and its answer as the tool result`,
    SCENARIO,
    async () => {
      const script = loadRoutedScenario('subagent-single');
      const s = await startScenario({ kind, script: script.default, routes: script.routes, files: { 'notes.txt': 'alpha\nbeta\n' } });
      try {
        const events = await turnApprovingSubagent(s, 'Ask a helper what notes.txt starts with.');
        const start = events.find((e) => e.type === 'subagent_start');
        assert.ok(start, 'the child started');
        const parentRun = events.find((e) => e.type === 'tool_call' && e.id === PARENT_CALL)!.run_id;
        assert.match(start.run_id, /^run-[0-9a-f]+$/);
        assert.deepEqual(
          [start.mode, start.agent, start.agents, start.depth, start.parent_run_id, start.tool_call_id],
          ['single', 'delegate', ['delegate'], 1, parentRun, PARENT_CALL],
        );
        assert.equal(start.task, '[child-A] Read notes.txt and report its first line.');
        const doneInfo = events.find((e) => e.type === 'info' && e.message.startsWith('subagent done ('));
        assert.ok(doneInfo && doneInfo.type === 'info', 'the child reported its tokens');
        assert.equal(
          `subagent done (${start.model}):`,
          doneInfo.message.split(' ').slice(0, 3).join(' '),
          'the start names the model the child ran on',
        );

        const labels = events.flatMap((e) => orderLabel(e, new Set([start.run_id])) ?? []);
        assert.deepEqual(labels, [
          'parent tool_call',
          'parent approval',
          'subagent_start',
          'message user',
          'progress start',
          'progress streaming',
          'message assistant',
          'progress tool',
          'subagent_tool_call',
          'progress tool_end',
          'subagent_tool_result',
          'progress streaming',
          'message assistant',
          'info subagent done',
          'progress done',
          'subagent_done',
          'parent tool_result',
        ]);

        const childCall = events.find((e) => e.type === 'subagent_tool_call')!;
        assert.deepEqual(
          [childCall.call_id, childCall.name, childCall.args, childCall.tool_count],
          ['call_1', 'read_file', { path: 'notes.txt' }, 1],
        );
        const childResult = events.find((e) => e.type === 'subagent_tool_result')!;
        assert.equal(childResult.ok, true);
        assert.match(childResult.result, /alpha/);
        const progress = events.filter((e) => e.type === 'subagent_progress' && e.run_id === start.run_id);
        assert.deepEqual(
          progress.map((p) => [p.phase, p.tool_count]),
          [
            ['start', 0],
            ['streaming', 0],
            ['tool', 1],
            ['tool_end', 1],
            ['streaming', 1],
            ['done', 0],
          ],
        );
        assert.deepEqual([progress[4].tokens_in, progress[4].tokens_out], [270, 24], "the child's tokens are cumulative over its requests");
        const done = events.find((e) => e.type === 'subagent_done')!;
        assert.deepEqual([done.state, done.parent_run_id, done.summary], ['completed', parentRun, 'The first line of notes.txt is: alpha']);
        const parentResult = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
        assert.deepEqual([parentResult.ok, parentResult.output], [true, 'The first line of notes.txt is: alpha']);
        assert.equal(
          events.filter((e) => ['tool_call', 'tool_result'].includes(e.type) && e.id !== PARENT_CALL).length,
          0,
          "a child's own calls are no tool_call/tool_result of the parent",
        );

        const [first, second] = s.model.requestsFor('[child-A]');
        assert.equal(first.body.model, TEST_MODEL, "the child runs on the parent's model");
        assert.ok(first.path.endsWith(kind === 'openai' ? '/chat/completions' : '/messages'), `${kind}'s endpoint, routed`);
        assert.ok(!JSON.stringify(first.body.messages).includes('Ask a helper'), 'a fresh child does not see the parent conversation');
        assert.match(toolMessages(second)[0], /alpha/, 'the file came back to the child');
        assert.equal(
          toolMessages(s.model.requests.at(-1)!)[0],
          'The first line of notes.txt is: alpha',
          "the parent read the child's answer",
        );
        assert.equal(s.model.pending, 0);
      } finally {
        await s.close();
      }
    },
  );
}

/** The events of one run, by its run_id, as order labels. */
const runLabels = (events: CoreEvent[], runId: string): string[] =>
  events.filter((e) => e.run_id === runId).flatMap((e) => orderLabel(e, new Set([runId])) ?? []);

test(
  'three children in parallel at concurrency 2: at most 2 in flight, interleaved, each in order, results as blocks',
  SCENARIO,
  async () => {
    const keys = ['[p-1]', '[p-2]', '[p-3]'];
    const s = await startScenario({
      approval: 'never',
      script: parentCalls({ tasks: keys.map((key) => ({ agent: 'delegate', task: `${key} say your number` })), concurrency: 2 }),
      routes: Object.fromEntries(keys.map((key, i) => [key, [{ holdUntil: 'fan-out', steps: [{ text: `number ${i + 1}` }] }]])),
    });
    try {
      const from = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'Fan out to three helpers.', model: TEST_MODEL });
      await s.model.held('fan-out', 2);
      assert.equal(s.model.inFlight(...keys), 2, 'two children are waiting on the model');
      // The core answers commands in order: every child it had started by now emitted subagent_start before this answer.
      const probeAt = s.core.events.length;
      s.core.send({ type: 'runtime_status' });
      const probe = await s.core.waitForType('runtime_status', { from: probeAt });
      const beforeProbe = s.core.events.slice(from, s.core.events.indexOf(probe));
      assert.equal(beforeProbe.filter((e) => e.type === 'subagent_start' && e.mode === 'single').length, 2, 'the third waits its turn');
      s.model.release('fan-out');
      await s.core.waitForType('done', { from, timeoutMs: 30_000 });
      const events = s.core.events.slice(from);
      assert.equal(s.model.peakInFlight(...keys), 2, 'never more than 2 child requests at once');
      assert.deepEqual(
        keys.map((key) => s.model.requestsFor(key).length),
        [1, 1, 1],
      );

      const batch = events.find((e) => e.type === 'subagent_start' && e.mode === 'parallel');
      assert.ok(batch, 'the batch run started');
      assert.deepEqual(
        [batch.task, batch.agents, batch.tool_call_id],
        ['parallel (3 tasks)', ['delegate', 'delegate', 'delegate'], PARENT_CALL],
      );
      const children = events.filter((e) => e.type === 'subagent_start' && e.mode === 'single');
      assert.deepEqual(
        children.map((c) => c.run_id).sort(),
        [0, 1, 2].map((i) => `${batch.run_id}-${i}`),
      );
      for (const child of children) {
        assert.equal(child.parent_run_id, batch.run_id);
        assert.deepEqual(runLabels(events, child.run_id), [
          'subagent_start',
          'message user',
          'progress start',
          'progress streaming',
          'message assistant',
          'progress done',
          'subagent_done',
        ]);
      }
      const startOf = (runId: string) => events.findIndex((e) => e.type === 'subagent_start' && e.run_id === runId);
      const doneOf = (runId: string) => events.findIndex((e) => e.type === 'subagent_done' && e.run_id === runId);
      const [a, b] = children.map((c) => c.run_id);
      assert.ok(startOf(b) < doneOf(a), "the children's events interleave");
      const batchDone = events.find((e) => e.type === 'subagent_done' && e.run_id === batch.run_id)!;
      assert.equal(batchDone.state, 'completed');
      assert.ok(
        children.every((c) => doneOf(c.run_id) < events.indexOf(batchDone)),
        'the batch ends after its children',
      );
      assert.deepEqual(
        children.map((c) => events.find((e) => e.type === 'subagent_done' && e.run_id === c.run_id)!.summary),
        children.map((c) => `number ${Number(c.run_id.split('-').at(-1)) + 1}`),
        "each child's done carries its own answer, as a single run's does",
      );
      assert.equal(batchDone.summary, undefined, "the batch's own done has none: its children's answers are in the tool result");
      const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
      assert.equal(
        result.output,
        '=== Parallel Task 1 (delegate) ===\nnumber 1\n\n=== Parallel Task 2 (delegate) ===\nnumber 2\n\n=== Parallel Task 3 (delegate) ===\nnumber 3',
      );
    } finally {
      await s.close();
    }
  },
);

test("a chain of 2: the second step's task carries the first step's output, the parent gets the last", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    script: parentCalls({
      chain: [
        { agent: 'delegate', task: '[step-1] pick a colour' },
        { agent: 'delegate', task: '[step-2] paint with {previous}' },
      ],
    }),
    routes: { '[step-1]': [says('vermilion')], '[step-2]': [says('painted it vermilion')] },
  });
  try {
    const events = await s.turn('Chain two helpers.', { timeoutMs: 30_000 });
    assert.equal(lastUserMessage(s.model.requestsFor('[step-2]')[0]), '[step-2] paint with vermilion');
    const chain = events.find((e) => e.type === 'subagent_start' && e.mode === 'chain');
    assert.ok(chain, 'the chain run started');
    assert.equal(chain.task, 'chain (2 steps)');
    const steps = events.filter((e) => e.type === 'subagent_start' && e.mode === 'single');
    assert.deepEqual(
      steps.map((e) => [e.run_id, e.parent_run_id, e.task]),
      [
        [`${chain.run_id}-0`, chain.run_id, '[step-1] pick a colour'],
        [`${chain.run_id}-1`, chain.run_id, '[step-2] paint with vermilion'],
      ],
    );
    const stepOneDone = events.findIndex((e) => e.type === 'subagent_done' && e.run_id === steps[0].run_id);
    assert.ok(stepOneDone < events.indexOf(steps[1]), 'the steps run one after the other');
    const doneOf = (runId: string) => events.find((e) => e.type === 'subagent_done' && e.run_id === runId)!;
    assert.deepEqual(
      [...steps.map((e) => doneOf(e.run_id).summary), doneOf(chain.run_id).summary],
      ['vermilion', 'painted it vermilion', undefined],
      "each step's done carries its answer; the chain's own has none",
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'info' && e.message.startsWith('chain step')).map((e) => e.message.split(':')[0]),
      ['chain step 0+1', 'chain step 1+1'],
    );
    const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
    assert.deepEqual([result.ok, result.output], [true, 'painted it vermilion']);
  } finally {
    await s.close();
  }
});

test("children's edits: approval_request.run_id is the child's target, one approved and written, the other denied", SCENARIO, async () => {
  const edit = (path: string, to: string) => calls('call_1', 'edit', { path, edits: [{ search: 'old', replace: to }] });
  const s = await startScenario({
    files: { 'a.txt': 'old a\n', 'b.txt': 'old b\n' },
    script: parentCalls({
      tasks: [
        { agent: 'worker', task: '[edit-a] change a.txt' },
        { agent: 'worker', task: '[edit-b] change b.txt' },
      ],
    }),
    routes: { '[edit-a]': [edit('a.txt', 'new'), says('a changed')], '[edit-b]': [edit('b.txt', 'new'), says('b was refused')] },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Have two workers edit.', model: TEST_MODEL });
    const parentApproval = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL, { from });
    s.core.send({ type: 'approve', request_id: parentApproval.request_id, decision: 'yes' });
    const answered: string[] = [];
    for (let n = 0; n < 2; n++) {
      const request = await s.core.waitFor(
        (e) => e.type === 'approval_request' && e.tool_call_id === 'call_1' && !answered.includes(e.request_id),
        { from },
      );
      const announced = s.core.events
        .slice(from, s.core.events.indexOf(request))
        .filter((e) => e.type === 'subagent_tool_call' && e.call_id === request.tool_call_id);
      const mine = announced.filter((e) => subagentTarget(e.run_id, 'worker') === request.run_id);
      assert.equal(mine.length, 1, `exactly one child announced ${request.tool_call_id} under target ${request.run_id}`);
      answered.push(request.request_id);
      s.core.send({ type: 'approve', request_id: request.request_id, decision: mine[0].args.path === 'a.txt' ? 'yes' : 'no' });
    }
    await s.core.waitForType('done', { from, timeoutMs: 30_000 });
    const events = s.core.events.slice(from);
    assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'new a\n');
    assert.equal(readFileSync(join(s.core.workspace, 'b.txt'), 'utf8'), 'old b\n');
    const resultOf = (path: string) => {
      const call = events.find((e) => e.type === 'subagent_tool_call' && e.args.path === path)!;
      return events.find((e) => e.type === 'subagent_tool_result' && e.run_id === call.run_id && e.call_id === 'call_1')!;
    };
    assert.equal(resultOf('a.txt').ok, true);
    assert.deepEqual([resultOf('b.txt').ok, resultOf('b.txt').result], [false, "tool call 'edit' was denied by the user"]);
    assert.equal(toolMessages(s.model.requestsFor('[edit-b]')[1])[0], "tool call 'edit' was denied by the user");
    assert.equal(events.filter((e) => e.type === 'file_change').length, 0, "a child's write is no file_change of the parent");
  } finally {
    await s.close();
  }
});

const NESTER = ['---', 'name: nester', 'description: delegates once more', 'tools: subagent, read_file', '---', 'You delegate.'].join('\n');

test('depth: a child may nest once under the default limit of 2; the grandchild is refused a nested call', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    files: { '.catalyst-code/agents/nester.md': NESTER },
    script: parentCalls({ agent: 'nester', task: '[depth-1] go deeper' }),
    routes: {
      '[depth-1]': [calls('call_n1', 'subagent', { agent: 'nester', task: '[depth-2] deeper still' }), says('depth 1 done')],
      '[depth-2]': [calls('call_n2', 'subagent', { agent: 'nester', task: '[depth-3] too deep' }), says('depth 2 done')],
    },
  });
  try {
    const events = await s.turn('Nest.', { timeoutMs: 30_000 });
    const starts = events.filter((e) => e.type === 'subagent_start');
    assert.deepEqual(
      starts.map((e) => [e.depth, e.task]),
      [
        [1, '[depth-1] go deeper'],
        [2, '[depth-2] deeper still'],
      ],
    );
    assert.equal(starts[1].parent_run_id, starts[0].run_id, 'ours names the true parent');
    const refused = events.find((e) => e.type === 'subagent_tool_result' && e.call_id === 'call_n2')!;
    assert.equal(refused.ok, false);
    assert.equal(
      refused.result,
      "tool 'subagent' is not available to agent 'nester' (not in its tool schema). Declare it in the agent's tools: frontmatter if needed.",
    );
    const offered = (request: { body: any }) => (request.body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
    assert.ok(offered(s.model.requestsFor('[depth-1]')[0]).includes('subagent'));
    assert.ok(!offered(s.model.requestsFor('[depth-2]')[0]).includes('subagent'), 'the grandchild is not offered subagent');
    assert.equal(s.model.requestsFor('[depth-3]').length, 0);
    const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
    assert.deepEqual([result.ok, result.output], [true, 'depth 1 done']);
  } finally {
    await s.close();
  }
});

test('depth: CATALYST_CODE_SUBAGENT_MAX_DEPTH=0 blocks every call', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    env: { CATALYST_CODE_SUBAGENT_MAX_DEPTH: '0' },
    script: parentCalls({ agent: 'delegate', task: '[never] should not run' }),
    routes: { '[never]': [says('should not run')] },
  });
  try {
    const events = await s.turn('Delegate.');
    const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
    assert.deepEqual(
      [result.ok, result.output],
      [false, 'subagent nesting blocked at depth 0 (max 0); complete the current task directly'],
    );
    assert.equal(events.filter((e) => e.type.startsWith('subagent_')).length, 0);
    assert.equal(s.model.requestsFor('[never]').length, 0);
  } finally {
    await s.close();
  }
});

test(
  "a secret in a child's bash output is redacted in subagent_tool_result, subagent_delta and the parent's tool_result",
  SCENARIO,
  async () => {
    const s = await startScenario({
      approval: 'never',
      files: { 'secret.txt': `${TEST_KEY}\n` },
      script: parentCalls({ agent: 'worker', task: '[leak] print the secret file' }),
      routes: { '[leak]': [calls('call_1', 'bash', { command: 'cat secret.txt' }), says(`The file holds ${TEST_KEY} as its only line.`)] },
    });
    try {
      const events = await s.turn('Show me the secret file via a helper.', { timeoutMs: 30_000 });
      const toolResult = events.find((e) => e.type === 'subagent_tool_result' && e.call_id === 'call_1')!;
      assert.equal(toolResult.ok, true);
      assert.match(toolResult.result, /\[REDACTED\]/);
      const streamed = events
        .filter((e) => e.type === 'subagent_delta')
        .map((e) => e.text)
        .join('');
      assert.equal(streamed, 'The file holds [REDACTED] as its only line.');
      const parentResult = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
      assert.equal(parentResult.output, 'The file holds [REDACTED] as its only line.');
      assert.ok(!s.core.rawStdout.join('').includes(TEST_KEY), 'the key is in no event');
      assert.ok(toolMessages(s.model.requestsFor('[leak]')[1])[0].includes(TEST_KEY), 'the child itself did read the file');
    } finally {
      await s.close();
    }
  },
);

test('list_agents, the agents in init and the capabilities', SCENARIO, async () => {
  const s = await startScenario({ files: { '.catalyst-code/agents/nester.md': NESTER }, handshake: false });
  try {
    const { hello } = await s.core.handshake();
    for (const capability of ['subagents', 'subagent_stream', 'intercom', 'worktree', 'worktree_review'])
      assert.ok(hello.capabilities.includes(capability), capability);
    const atInit = await s.core.waitForType('agents');
    const initOrder = s.core.events.map((e) => e.type).filter((t) => ['skills', 'agents'].includes(t));
    assert.deepEqual(initOrder.slice(0, 2), ['skills', 'agents'], 'agents come after skills in init');
    const from = s.core.events.length;
    s.core.send({ type: 'list_agents' });
    const listed = await s.core.waitForType('agents', { from });
    assert.deepEqual(listed.agents, atInit.agents);
    const names = listed.agents.map((a: any) => a.name);
    assert.deepEqual(names, [...names].sort(), 'sorted by name');
    for (const builtin of ['context-builder', 'delegate', 'oracle', 'planner', 'researcher', 'reviewer', 'scout', 'worker']) {
      assert.equal(listed.agents.find((a: any) => a.name === builtin)?.source, 'user', `${builtin}: staged into the user scope`);
      assert.ok(existsSync(join(s.core.home, '.catalyst-code', 'agents', `${builtin}.md`)), `${builtin}.md was staged`);
    }
    assert.ok(!existsSync(join(s.core.home, '.catalyst-code', '.staged')), "upstream's marker is left to upstream");
    assert.deepEqual(
      listed.agents.find((a: any) => a.name === 'nester'),
      { name: 'nester', description: 'delegates once more', source: 'project' },
    );
  } finally {
    await s.close();
  }
});

test('a forked child sees the recent conversation (scrubbed) and its route still follows its task', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    script: [
      says('Noted: the codeword is heron.'),
      ...parentCalls({ agent: 'delegate', task: '[fork] what is the codeword?', context: 'fork' }, 'The child knew it.'),
    ],
    routes: { '[fork]': [says('The codeword is heron.')] },
  });
  try {
    await s.turn(`Remember: the codeword is heron, and my key is ${TEST_KEY}.`);
    const events = await s.turn('Ask a forked helper for the codeword.', { timeoutMs: 30_000 });
    const [request] = s.model.requestsFor('[fork]');
    const sent = JSON.stringify(request.body.messages);
    assert.ok(sent.includes('--- inherited parent context ---'));
    assert.ok(
      sent.includes('Remember: the codeword is heron') && sent.includes('Noted: the codeword is heron.'),
      'the parent turn is inherited',
    );
    assert.ok(!sent.includes(TEST_KEY), 'a secret in the parent conversation is scrubbed before the child sees it');
    assert.equal(lastUserMessage(request), 'Task:\n[fork] what is the codeword?');
    const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
    assert.deepEqual([result.ok, result.output], [true, 'The codeword is heron.']);
  } finally {
    await s.close();
  }
});

// Issue #14 audit (E8): the less obvious promises over stdio — a nested child is cancelled with its processes, a
// child's secret never reaches the session file, and a child never gets more rights than its parent (deny rules,
// approval modes, an agent file that comes with the repository).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, startScenario, TEST_KEY, TEST_MODEL, type Scenario } from '../support/coreScenario';
import { pollUntil, processGone } from '../support/processState';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const PARENT_CALL = 'call_audit';
const SCENARIO = { timeout: 90_000 };

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const parentCalls = (args: object, answer = 'Done.'): ScriptedResponse[] => [calls(PARENT_CALL, 'subagent', args), says(answer)];
const agentFile = (name: string, tools: string, extra: string[] = []) =>
  ['---', `name: ${name}`, `description: ${name} (audit)`, `tools: ${tools}`, ...extra, '---', `You are ${name}.`].join('\n');

const toolMessages = (request: { body: any }): string[] =>
  request.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => String(m.content));

/** Starts a turn and resolves with the first event that matches, from that turn on. */
async function turnUntil(s: Scenario, prompt: string, match: (e: any) => boolean): Promise<{ from: number; event: any }> {
  const from = s.core.events.length;
  s.core.send({ type: 'send', prompt, model: TEST_MODEL });
  return { from, event: await s.core.waitFor(match, { from, timeoutMs: 30_000 }) };
}

test(
  'abort cancels a grandchild too: its bash process group is killed and nothing of the tree follows run_cancelled',
  SCENARIO,
  async () => {
    const command = 'sleep 600 & echo $! > grand-sleep.pid; echo $$ > grand-shell.pid; wait';
    const s = await startScenario({
      approval: 'never',
      files: { '.catalyst-code/agents/nester.md': agentFile('nester', 'subagent, bash') },
      script: [calls(PARENT_CALL, 'subagent', { agent: 'nester', task: '[depth-1] delegate the wait' }), says('after the abort')],
      routes: {
        '[depth-1]': [calls('call_n1', 'subagent', { agent: 'nester', task: '[depth-2] wait in bash' })],
        '[depth-2]': [calls('call_g1', 'bash', { command })],
      },
    });
    try {
      const from = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'Nest and wait.', model: TEST_MODEL });
      const files = ['grand-shell.pid', 'grand-sleep.pid'].map((f) => join(s.core.workspace, f));
      assert.ok(
        await pollUntil(() => files.every((f) => existsSync(f) && readFileSync(f, 'utf8').trim() !== '')),
        "the grandchild's bash runs",
      );
      const pids = files.map((f) => Number(readFileSync(f, 'utf8').trim()));
      const starts = s.core.events.slice(from).filter((e) => e.type === 'subagent_start');
      assert.deepEqual(
        starts.map((e) => e.depth),
        [1, 2],
      );

      const subagentResources = async (): Promise<any[]> => {
        const probeAt = s.core.events.length;
        s.core.send({ type: 'runtime_status' });
        const status = await s.core.waitForType('runtime_status', { from: probeAt });
        return status.resources.filter((r: any) => r.kind === 'subagent');
      };
      assert.deepEqual(
        (await subagentResources()).map((r) => r.cancelled),
        [false, false],
        'the child and the grandchild are live',
      );

      const abortAt = s.core.events.length;
      s.core.send({ type: 'abort' });
      const cancelled = await s.core.waitForType('run_cancelled', { from: abortAt });
      await s.core.waitForType('aborted', { from: abortAt, timeoutMs: 30_000 });
      assert.ok(await pollUntil(() => pids.every(processGone)), "the grandchild's shell and its sleep were killed");

      // A run still unwinding may be listed, but only as cancelled.
      assert.ok(
        (await subagentResources()).every((r) => r.cancelled === true),
        'no subagent run is listed as live after the abort',
      );
      await s.turn('Still there?');
      const after = s.core.events.slice(s.core.events.indexOf(cancelled));
      assert.deepEqual(
        after.filter((e) => e.type.startsWith('subagent_')).map((e) => `${e.type} ${e.run_id}`),
        [],
        'no event of the child or the grandchild after run_cancelled, up to the end of the next turn',
      );
    } finally {
      await s.close();
    }
  },
);

test("a secret in a child's output is redacted in the session file, which records the child", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    args: ['--session', 'sess.jsonl'],
    files: { 'secret.txt': `${TEST_KEY}\n` },
    script: parentCalls({ agent: 'worker', task: '[leak] print the secret file' }),
    routes: { '[leak]': [calls('call_1', 'bash', { command: 'cat secret.txt' }), says(`The file holds ${TEST_KEY} as its only line.`)] },
  });
  try {
    const events = await s.turn('Show me the secret file via a helper.', { timeoutMs: 30_000 });
    const child = events.find((e) => e.type === 'subagent_start')!;
    const message = events.find((e) => e.type === 'subagent_message' && e.role === 'assistant')!;
    assert.equal(message.content, 'The file holds [REDACTED] as its only line.');
    const file = readFileSync(join(s.core.workspace, 'sess.jsonl'), 'utf8');
    assert.ok(!file.includes(TEST_KEY), 'the key is nowhere in the session file');
    const runs = file
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((record) => record._run?.run_id === child.run_id)
      .map((record) => record._run);
    assert.deepEqual(
      runs.map((r) => r.state),
      ['started', 'completed'],
    );
    assert.equal(runs[1].detail, 'The file holds [REDACTED] as its only line.');
    const toolLine = file.split('\n').find((line) => line.includes(`"tool_call_id":"${PARENT_CALL}"`) && line.includes('"role":"tool"'));
    assert.ok(toolLine?.includes('[REDACTED]'), `the parent's tool result is stored redacted: ${toolLine}`);
  } finally {
    await s.close();
  }
});

test("a deny rule binds a child like its parent, whatever the child's agent file declares", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    config: { permissions: { deny: ['bash', 'write_file(locked/**)'] } },
    files: { '.catalyst-code/agents/rogue.md': agentFile('rogue', 'bash, write_file') },
    script: parentCalls({ agent: 'rogue', task: '[rogue] try the denied tools' }),
    routes: {
      '[rogue]': [
        { steps: [{ toolCall: { id: 'call_1', name: 'bash', arguments: { command: 'echo ran > ran.txt' } } }] },
        calls('call_2', 'write_file', { path: 'locked/x.txt', content: 'x' }),
        says('both refused'),
      ],
    },
  });
  try {
    const events = await s.turn('Let the rogue agent try.', { timeoutMs: 30_000 });
    const results = events.filter((e) => e.type === 'subagent_tool_result').map((e) => [e.call_id, e.ok, e.result]);
    assert.deepEqual(results, [
      ['call_1', false, "tool call 'bash' was denied by the user (blocked by a permission rule)"],
      ['call_2', false, "tool call 'write_file' was denied by the user (blocked by a permission rule)"],
    ]);
    assert.ok(!existsSync(join(s.core.workspace, 'ran.txt')) && !existsSync(join(s.core.workspace, 'locked/x.txt')));
  } finally {
    await s.close();
  }
});

for (const { mode, asks } of [
  { mode: 'always', asks: ['read_file', 'bash'] },
  { mode: 'destructive', asks: ['bash'] },
  { mode: 'never', asks: [] },
] as const) {
  test(`approval mode ${mode}: a child's read_file and bash are asked exactly as the parent's would be`, SCENARIO, async () => {
    const s = await startScenario({
      approval: mode,
      files: { 'a.txt': 'alpha\n' },
      script: parentCalls({ agent: 'delegate', task: '[modes] read then run' }),
      routes: {
        '[modes]': [calls('call_r', 'read_file', { path: 'a.txt' }), calls('call_b', 'bash', { command: 'echo ran' }), says('ok')],
      },
    });
    try {
      let cursor = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'Delegate.', model: TEST_MODEL });
      const asked: string[] = [];
      for (;;) {
        const e = await s.core.waitFor((x) => x.type === 'approval_request' || x.type === 'done', { from: cursor, timeoutMs: 30_000 });
        cursor = s.core.events.indexOf(e) + 1;
        if (e.type === 'done') break;
        if (e.tool_call_id !== PARENT_CALL) asked.push(e.tool);
        s.core.send({ type: 'approve', request_id: e.request_id, decision: 'yes' });
      }
      assert.deepEqual(asked, asks);
      const results = s.core.events.filter((e) => e.type === 'subagent_tool_result').map((e) => [e.call_id, e.ok]);
      assert.deepEqual(results, [
        ['call_r', true],
        ['call_b', true],
      ]);
    } finally {
      await s.close();
    }
  });
}

test("a project agent's defaultReads do not inline .env into the child's request", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'destructive',
    files: {
      '.env': `DB_PASSWORD=hunter2-from-env\n`,
      'plan.md': 'the plan\n',
      '.catalyst-code/agents/reader.md': agentFile('reader', 'read_file', ['defaultReads: plan.md, .env']),
    },
    script: parentCalls({ agent: 'reader', task: '[reader] summarise' }),
    routes: { '[reader]': [says('summarised')] },
  });
  try {
    const { event } = await turnUntil(s, 'Read.', (e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL);
    s.core.send({ type: 'approve', request_id: event.request_id, decision: 'yes' });
    await s.core.waitForType('done', { timeoutMs: 30_000 });
    const sent = JSON.stringify(s.model.requestsFor('[reader]')[0].body.messages);
    assert.ok(sent.includes('the plan'), 'the other reference file is read');
    assert.ok(!sent.includes('hunter2-from-env'), '.env is not inlined');
    assert.equal(toolMessages(s.model.requestsFor('[reader]')[0]).length, 0);
  } finally {
    await s.close();
  }
});

test('an ask rule prompts for a child as it would for its parent (upstream skips it for children)', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'destructive',
    config: { permissions: { ask: ['read_file(private/**)'] } },
    files: { 'private/notes.txt': 'private notes\n' },
    script: parentCalls({ agent: 'delegate', task: '[ask-rule] read the notes' }),
    routes: { '[ask-rule]': [calls('call_p', 'read_file', { path: 'private/notes.txt' }), says('refused, as asked')] },
  });
  try {
    const parent = await turnUntil(s, 'Read the notes through a helper.', (e) => e.type === 'approval_request');
    assert.equal(parent.event.tool_call_id, PARENT_CALL);
    s.core.send({ type: 'approve', request_id: parent.event.request_id, decision: 'yes' });
    const afterParent = s.core.events.indexOf(parent.event) + 1;
    const child = await s.core.waitFor((e) => e.type === 'approval_request' || e.type === 'done', { from: afterParent, timeoutMs: 30_000 });
    assert.deepEqual([child.type, child.tool_call_id, child.tool], ['approval_request', 'call_p', 'read_file'], 'the child is asked');
    s.core.send({ type: 'approve', request_id: child.request_id, decision: 'no' });
    await s.core.waitForType('done', { from: parent.from, timeoutMs: 30_000 });
    assert.equal(toolMessages(s.model.requestsFor('[ask-rule]')[1])[0], "tool call 'read_file' was denied by the user");
  } finally {
    await s.close();
  }
});

test("Accept for Session on a child's proposal: its next write of that tool runs unasked, as the parent's would", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'destructive',
    script: parentCalls({ agent: 'worker', task: '[session-allow] write two files' }),
    routes: {
      '[session-allow]': [
        calls('call_w1', 'write_file', { path: 'one.txt', content: 'one\n' }),
        calls('call_w2', 'write_file', { path: 'two.txt', content: 'two\n' }),
        says('both written'),
      ],
    },
  });
  try {
    const parent = await turnUntil(s, 'Write two files through a helper.', (e) => e.type === 'approval_request');
    s.core.send({ type: 'approve', request_id: parent.event.request_id, decision: 'yes' });
    const afterParent = s.core.events.indexOf(parent.event) + 1;
    const first = await s.core.waitFor((e) => e.type === 'approval_request', { from: afterParent, timeoutMs: 30_000 });
    assert.equal(first.tool_call_id, 'call_w1');
    s.core.send({ type: 'approve', request_id: first.request_id, decision: 'allow_session' });
    await s.core.waitForType('done', { from: parent.from, timeoutMs: 30_000 });
    const events = s.core.events.slice(parent.from);
    assert.deepEqual(
      events.filter((e) => e.type === 'approval_request').map((e) => e.tool_call_id),
      [PARENT_CALL, 'call_w1'],
      'the second write is not asked',
    );
    assert.ok(events.some((e) => e.type === 'approval_changed' && e.tool === 'write_file' && e.mode === 'allow_pattern'));
    assert.deepEqual(
      ['one.txt', 'two.txt'].map((f) => readFileSync(join(s.core.workspace, f), 'utf8')),
      ['one\n', 'two\n'],
    );
  } finally {
    await s.close();
  }
});

test('abort of a child in its worktree: its bash is killed, and the worktree and its branch are removed', SCENARIO, async () => {
  const command = 'sleep 600 & echo $! > ../wt-sleep.pid; wait';
  const s = await startScenario({
    approval: 'never',
    git: true,
    files: { 'a.txt': 'a\n' },
    script: [calls(PARENT_CALL, 'subagent', { agent: 'worker', task: '[wt-abort] wait in the worktree', worktree: true }), says('after')],
    routes: {
      '[wt-abort]': [calls('call_1', 'bash', { command: `echo $$ > "$(git rev-parse --show-toplevel)/../shell.pid"; ${command}` })],
    },
  });
  try {
    const { event: ready } = await turnUntil(s, 'Work in a worktree.', (e) => e.type === 'worktree_ready');
    assert.ok(existsSync(ready.path));
    const pidFiles = [join(ready.path, '..', 'shell.pid'), join(ready.path, '..', 'wt-sleep.pid')];
    assert.ok(await pollUntil(() => pidFiles.every((f) => existsSync(f) && readFileSync(f, 'utf8').trim() !== '')), 'the child runs bash');
    const pids = pidFiles.map((f) => Number(readFileSync(f, 'utf8').trim()));

    const abortAt = s.core.events.length;
    s.core.send({ type: 'abort' });
    await s.core.waitForType('aborted', { from: abortAt, timeoutMs: 30_000 });
    assert.ok(await pollUntil(() => pids.every(processGone)), "the child's bash was killed");
    const branches = () => execFileSync('git', ['branch', '--list', 'catcode/wt/*'], { cwd: s.core.workspace, env: gitEnv() }).toString();
    // No event says the cleanup is done (the tree's events are stale after the abort): the file system is polled.
    assert.ok(await pollUntil(() => !existsSync(ready.path) && branches().trim() === ''), 'the worktree and its branch are removed');
    assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'a\n');
  } finally {
    await s.close();
  }
});

test('a stricter approval mode set while a child runs binds its next call at once', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    script: parentCalls({ agent: 'worker', task: '[mode-change] run after the switch' }),
    routes: {
      '[mode-change]': [
        { holdUntil: 'switch', steps: [{ toolCall: { id: 'call_b', name: 'bash', arguments: { command: 'echo ran > ran.txt' } } }] },
        says('stopped'),
      ],
    },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Delegate, then I tighten the mode.', model: TEST_MODEL });
    await s.model.held('switch');
    const switchAt = s.core.events.length;
    s.core.send({ type: 'set_approval', mode: 'always' });
    await s.core.waitFor((e) => e.type === 'approval_changed' && e.mode === 'always', { from: switchAt });
    s.model.release('switch');
    const request = await s.core.waitFor((e) => e.type === 'approval_request' || e.type === 'done', { from, timeoutMs: 30_000 });
    assert.deepEqual([request.type, request.tool_call_id], ['approval_request', 'call_b'], "the child's bash asks under the new mode");
    s.core.send({ type: 'approve', request_id: request.request_id, decision: 'no' });
    await s.core.waitForType('done', { from, timeoutMs: 30_000 });
    assert.ok(!existsSync(join(s.core.workspace, 'ran.txt')), 'the denied command never ran');
  } finally {
    await s.close();
  }
});

// Abort during a fan-out (issue #14): the whole tree stops — every child's processes, its stream, its approvals and
// asks — and nothing of a child is emitted after the parent's run_cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { CoreProcess } from '../support/coreProcess';
import { join } from 'node:path';
import { startScenario, TEST_MODEL } from '../support/coreScenario';
import { pollUntil, processGone } from '../support/processState';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const PARENT_CALL = 'call_fan_out';
const BASH_CHILDREN = ['[bash-1]', '[bash-2]', '[bash-3]'];
const STREAMING_CHILD = '[stream-1]';

/** The child's bash: records its shell's pid and a background sleep's, then blocks on the sleep. */
function blockingBash(n: number): ScriptedResponse {
  const command = `sleep 600 & echo $! > sleep-${n}.pid; echo $$ > shell-${n}.pid; wait`;
  return { steps: [{ toolCall: { id: 'call_1', name: 'bash', arguments: { command } } }] };
}

/** How the whole tree gets cancelled, the run_cancelled reason it gives, and what the core answers first. */
const CANCELLATIONS = [
  { how: 'abort', command: { type: 'abort' }, reason: 'abort', settled: 'aborted' },
  {
    how: 'steer',
    command: { type: 'steer', prompt: 'Stop that and answer this.', model: TEST_MODEL },
    reason: 'steering',
    settled: 'done',
  },
  { how: 'new_session', command: { type: 'new_session' }, reason: 'new_session', settled: 'session_changed' },
  { how: 'reset', command: { type: 'reset' }, reason: 'reset', settled: 'reset' },
] as const;

for (const cancellation of CANCELLATIONS) {
  test(
    `${cancellation.how} during a fan-out: every child cancelled, its processes gone, nothing pending, no late subagent event`,
    { timeout: 90_000 },
    async () => {
      const tasks = [...BASH_CHILDREN, STREAMING_CHILD].map((key) => ({ agent: 'worker', task: `${key} work until stopped` }));
      const s = await startScenario({
        approval: 'never',
        script: [
          { steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: { tasks, concurrency: 4 } } }] },
          ...(cancellation.how === 'steer' ? [{ steps: [{ text: 'the steering prompt is answered' }] }] : []),
          { steps: [{ text: 'the next prompt is answered' }] },
        ],
        routes: {
          ...Object.fromEntries(BASH_CHILDREN.map((key, i) => [key, [blockingBash(i + 1)]])),
          [STREAMING_CHILD]: [{ steps: [{ text: 'streaming, then nothing more' }], hangAfterSteps: true }],
        },
      });
      try {
        const from = s.core.events.length;
        s.core.send({ type: 'send', prompt: 'Fan out and keep them busy.', model: TEST_MODEL });
        const pidFiles = BASH_CHILDREN.flatMap((_, i) => [`shell-${i + 1}.pid`, `sleep-${i + 1}.pid`]).map((f) =>
          join(s.core.workspace, f),
        );
        const written = (file: string) => existsSync(file) && readFileSync(file, 'utf8').trim() !== '';
        assert.ok(await pollUntil(() => pidFiles.every(written)), "every child's bash is running");
        await s.model.responseStalled(s.model.requestsFor(STREAMING_CHILD)[0]);
        const pids = pidFiles.map((file) => Number(readFileSync(file, 'utf8').trim()));
        assert.ok(
          pids.every((pid) => !processGone(pid)),
          'the processes are alive before the cancellation',
        );
        // Each child announced itself before its request or its bash ran; stdout and the server are two channels, so wait for it.
        const children = await Promise.all(
          [...BASH_CHILDREN, STREAMING_CHILD].map((key) =>
            s.core.waitFor((e) => e.type === 'subagent_start' && e.mode === 'single' && e.task.startsWith(key), { from }),
          ),
        );
        assert.equal(new Set(children.map((c) => c.run_id)).size, 4);

        const cancelAt = s.core.events.length;
        s.core.send(cancellation.command);
        const cancelled = await s.core.waitForType('run_cancelled', { from: cancelAt });
        await s.core.waitForType(cancellation.settled, { from: cancelAt, timeoutMs: 30_000 });
        assert.equal(cancelled.reason, cancellation.reason);
        assert.equal(
          await s.model.responseEnd(s.model.requestsFor(STREAMING_CHILD)[0]),
          'closed_by_client',
          'the streaming child left its stream',
        );
        assert.ok(await pollUntil(() => pids.every(processGone)), "every child's shell and its sleep were killed");

        const probeAt = s.core.events.length;
        s.core.send({ type: 'runtime_status' });
        const status = await s.core.waitForType('runtime_status', { from: probeAt });
        assert.deepEqual([status.pending_approvals, status.pending_asks], [0, 0], 'nothing is left pending');
        const next = await s.turn('Anything left?');
        assert.equal(
          next
            .filter((e) => e.type === 'delta')
            .map((e) => e.text)
            .join(''),
          'the next prompt is answered',
        );
        const afterCancel = s.core.events.slice(s.core.events.indexOf(cancelled));
        assert.deepEqual(
          afterCancel.filter((e) => e.type.startsWith('subagent_')).map((e) => `${e.type} ${e.run_id}`),
          [],
          'no child event after run_cancelled, up to the end of the next turn',
        );
        assert.equal(s.model.pending, 0, 'no child asked the model again');
      } finally {
        await s.close();
      }
    },
  );
}

test(
  'a core killed mid-fan-out: the session records the children, and the resumed call keeps the finished child',
  { timeout: 90_000 },
  async () => {
    const tasks = [
      { agent: 'delegate', task: '[quick] answer at once' },
      { agent: 'delegate', task: '[stuck] wait forever' },
    ];
    const s = await startScenario({
      approval: 'never',
      args: ['--session', 'sess.jsonl'],
      script: [{ steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: { tasks } } }] }],
      routes: { '[quick]': [{ steps: [{ text: 'the quick result' }] }], '[stuck]': [{ holdUntil: 'never', steps: [{ text: 'unsent' }] }] },
    });
    try {
      const from = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'Fan out to two.', model: TEST_MODEL });
      const quickStart = await s.core.waitFor((e) => e.type === 'subagent_start' && e.task === '[quick] answer at once', { from });
      await s.core.waitFor((e) => e.type === 'subagent_done' && e.run_id === quickStart.run_id, { from });
      await s.model.held('never');
      const stuckStart = await s.core.waitFor((e) => e.type === 'subagent_start' && e.task === '[stuck] wait forever', { from });
      await s.core.kill();

      const file = join(s.core.workspace, 'sess.jsonl');
      const runs = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .filter((record) => record._run?.kind === 'subagent')
        .map((record) => record._run);
      const statesOf = (runId: string) => runs.filter((r) => r.run_id === runId).map((r) => r.state);
      assert.deepEqual(statesOf(quickStart.run_id), ['started', 'completed']);
      assert.deepEqual(statesOf(stuckStart.run_id), ['started']);
      assert.ok(runs.every((r) => r.tool_call_id === PARENT_CALL));
      assert.equal(runs.find((r) => r.run_id === quickStart.run_id && r.state === 'completed').detail, 'the quick result');

      const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'sess.jsonl'] });
      try {
        await again.handshake();
        const recovered = await again.waitForType('session_recovered');
        assert.ok(recovered.interrupted_runs.includes(stuckStart.run_id), 'the unfinished child is marked interrupted');
        assert.ok(!recovered.interrupted_runs.includes(quickStart.run_id), 'the finished one is not');
        const history = await again.waitForType('history');
        const answer = history.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === PARENT_CALL);
        assert.ok(answer, 'the dangling subagent call is answered');
        assert.match(answer.content, new RegExp(`=== ${quickStart.run_id} \\(completed\\) ===\\nthe quick result`));
        assert.match(answer.content, new RegExp(`=== ${stuckStart.run_id} \\(interrupted\\) ===\\n\\[interrupted\\]`));
      } finally {
        await again.close();
      }
    } finally {
      await s.close();
    }
  },
);

test(
  "an abort while a child's edit waits for approval: the approval is withdrawn and a late yes writes nothing",
  { timeout: 90_000 },
  async () => {
    const s = await startScenario({
      files: { 'a.txt': 'old\n' },
      script: [
        { steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: { agent: 'worker', task: '[pending] edit a.txt' } } }] },
        { steps: [{ text: 'the next prompt is answered' }] },
      ],
      routes: {
        '[pending]': [
          { steps: [{ toolCall: { id: 'call_1', name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } } }] },
          { steps: [{ text: 'must never be asked' }] },
        ],
      },
    });
    try {
      const from = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'Have a worker edit.', model: TEST_MODEL });
      const parentApproval = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL, { from });
      s.core.send({ type: 'approve', request_id: parentApproval.request_id, decision: 'yes' });
      const childApproval = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === 'call_1', { from });
      s.core.send({ type: 'abort' });
      await s.core.waitForType('aborted', { from });
      s.core.send({ type: 'approve', request_id: childApproval.request_id, decision: 'yes' });
      const probeAt = s.core.events.length;
      s.core.send({ type: 'runtime_status' });
      const status = await s.core.waitForType('runtime_status', { from: probeAt });
      assert.equal(status.pending_approvals, 0);
      await s.turn('Anything left?');
      assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'old\n', 'the late approval wrote nothing');
      assert.equal(s.model.requestsFor('[pending]').length, 1);
    } finally {
      await s.close();
    }
  },
);

// Abort during a fan-out (issue #14): the whole tree stops — every child's processes, its stream, its approvals and
// asks — and nothing of a child is emitted after the parent's run_cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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

test(
  'abort during a fan-out: every child cancelled, its processes gone, nothing pending, no late subagent event',
  { timeout: 90_000 },
  async () => {
    const tasks = [...BASH_CHILDREN, STREAMING_CHILD].map((key) => ({ agent: 'worker', task: `${key} work until stopped` }));
    const s = await startScenario({
      approval: 'never',
      script: [
        { steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: { tasks, concurrency: 4 } } }] },
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
      const pidFiles = BASH_CHILDREN.flatMap((_, i) => [`shell-${i + 1}.pid`, `sleep-${i + 1}.pid`]).map((f) => join(s.core.workspace, f));
      const written = (file: string) => existsSync(file) && readFileSync(file, 'utf8').trim() !== '';
      assert.ok(await pollUntil(() => pidFiles.every(written)), "every child's bash is running");
      await s.model.responseStalled(s.model.requestsFor(STREAMING_CHILD)[0]);
      const pids = pidFiles.map((file) => Number(readFileSync(file, 'utf8').trim()));
      assert.ok(
        pids.every((pid) => !processGone(pid)),
        'the processes are alive before the abort',
      );
      const children = s.core.events.slice(from).filter((e) => e.type === 'subagent_start' && e.mode === 'single');
      assert.equal(children.length, 4);

      s.core.send({ type: 'abort' });
      const cancelled = await s.core.waitForType('run_cancelled', { from });
      await s.core.waitForType('aborted', { from });
      assert.equal(cancelled.reason, 'abort');
      assert.equal(
        await s.model.responseEnd(s.model.requestsFor(STREAMING_CHILD)[0]),
        'closed_by_client',
        'the streaming child left its stream',
      );
      assert.ok(await pollUntil(() => pids.every(processGone)), "every child's shell and its sleep were killed");

      const probeAt = s.core.events.length;
      s.core.send({ type: 'runtime_status' });
      const status = await s.core.waitForType('runtime_status', { from: probeAt });
      assert.deepEqual([status.run_id, status.pending_approvals, status.pending_asks], [null, 0, 0], 'nothing is left pending');
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

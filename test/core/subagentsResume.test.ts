// A resumed session's `subagent` card (issue #14): the session file keeps each child's start and end as `_run`
// records, and the replayed `history` carries them, so the card lists its ended children again — agent, task, state,
// summary — after a restart of the core and after load_session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreProcess, type CoreEvent } from '../support/coreProcess';
import { startScenario } from '../support/coreScenario';

const PARENT_CALL = 'call_sub_1';
const SCENARIO = { timeout: 60_000 };

function childRows(history: CoreEvent): unknown[] {
  return (history.subagents ?? []).map((r: any) => [r.mode, r.agent, r.task, r.state, r.summary, r.tool_call_id, r.depth]);
}

test('a resumed or loaded session replays its subagent runs: agent, task, state and summary of each', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    args: ['--session', 'sess.jsonl'],
    script: [
      {
        steps: [
          {
            toolCall: {
              id: PARENT_CALL,
              name: 'subagent',
              arguments: {
                tasks: [
                  { agent: 'delegate', task: '[r-1] name a colour' },
                  { agent: 'delegate', task: '[r-2] name a fruit' },
                ],
              },
            },
          },
        ],
      },
      { steps: [{ text: 'Both answered.' }] },
    ],
    routes: { '[r-1]': [{ steps: [{ text: 'vermilion' }] }], '[r-2]': [{ steps: [{ text: 'quince' }] }] },
  });
  try {
    const events = await s.turn('Ask two helpers.', { timeoutMs: 30_000 });
    const batch = events.find((e) => e.type === 'subagent_start' && e.mode === 'parallel')!;
    await s.core.close();

    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'sess.jsonl'] });
    try {
      await again.handshake();
      const history = await again.waitForType('history');
      const expected = [
        ['parallel', '', 'parallel (2 tasks)', 'completed', undefined, PARENT_CALL, 1],
        ['single', 'delegate', '[r-1] name a colour', 'completed', 'vermilion', PARENT_CALL, 1],
        ['single', 'delegate', '[r-2] name a fruit', 'completed', 'quince', PARENT_CALL, 1],
      ];
      assert.deepEqual(childRows(history), expected);
      assert.deepEqual(
        history.subagents.map((r: any) => [r.run_id, r.parent_run_id]),
        [
          [batch.run_id, batch.parent_run_id],
          [`${batch.run_id}-0`, batch.run_id],
          [`${batch.run_id}-1`, batch.run_id],
        ],
      );
      assert.ok(history.subagents.every((r: any) => r.ended_at >= r.started_at && r.started_at > 0));

      const from = again.events.length;
      again.send({ type: 'load_session', path: 'sess.jsonl' });
      assert.deepEqual(childRows(await again.waitForType('history', { from })), expected, 'load_session replays them too');
    } finally {
      await again.close();
    }
  } finally {
    await s.close();
  }
});

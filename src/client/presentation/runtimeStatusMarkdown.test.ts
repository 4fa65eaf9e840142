import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRuntimeStatusSection } from './runtimeStatusMarkdown';

test('a busy core: its run, what waits on the user, its resources and the last cancellation', () => {
  assert.deepEqual(
    formatRuntimeStatusSection({
      type: 'runtime_status',
      session_id: 's1',
      run_id: 'run-7',
      discarded_stale_results: 2,
      compactions: 1,
      last_cancellation: { session_id: 's1', run_id: 'run-6', reason: 'abort' },
      resources: [
        { id: 1, kind: 'task', label: 'foreground_agent_turn', session_id: 's1', run_id: 'run-7', cancelled: false },
        { id: 2, kind: 'checkpoint_compaction', label: 'git gc | shadow', session_id: 's1', run_id: null, cancelled: true },
      ],
      pending_approvals: 1,
      pending_asks: 0,
      pending_sudos: 2,
    }),
    [
      '## Core runtime',
      '',
      '- Active run: `run-7`',
      '- Waiting on you: 1 approval, 2 sudo passwords',
      '- Last cancellation: `run-6` (abort)',
      '- Compactions this session: 1',
      '- Late results of cancelled runs dropped: 2',
      '',
      '| Resource | Kind | Run | State |',
      '| --- | --- | --- | --- |',
      '| foreground_agent_turn | task | `run-7` | running |',
      '| git gc \\| shadow | checkpoint_compaction | — | cancelling |',
    ],
  );
});

test('an idle core, and no answer at all', () => {
  assert.deepEqual(
    formatRuntimeStatusSection({ type: 'runtime_status', run_id: null, resources: [], pending_approvals: 0, last_cancellation: null }),
    ['## Core runtime', '', '- Active run: none (idle)', '- Waiting on you: nothing', '', '_No cancellable resource is held._'],
  );
  assert.deepEqual(formatRuntimeStatusSection(undefined), [
    '## Core runtime',
    '',
    '_The core did not answer the runtime_status request in time._',
  ]);
});

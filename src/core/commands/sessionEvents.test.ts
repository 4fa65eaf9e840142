import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunRecord } from '../sessions/sessionTypes';
import { recoveredOutput } from './sessionEvents';

const record = (run_id: string, state: RunRecord['state'], extra: Partial<RunRecord> = {}): RunRecord => ({
  session_id: 's',
  run_id,
  kind: 'subagent',
  tool_call_id: 'call_sub',
  state,
  timestamp_ms: 1,
  ...extra,
});

test("a dangling subagent call is answered from its children's latest records, not from the batch that groups them", () => {
  const runs: RunRecord[] = [
    { session_id: 's', run_id: 'turn-1', kind: 'turn', state: 'started', timestamp_ms: 1 },
    record('run-1', 'started', { parent_run_id: 'turn-1', detail: 'parallel' }),
    record('run-1-0', 'started', { parent_run_id: 'run-1', detail: 'worker' }),
    record('run-1-1', 'started', { parent_run_id: 'run-1', detail: 'worker' }),
    record('run-1-0', 'completed', { parent_run_id: 'run-1', detail: 'child zero finished its part' }),
    record('run-9', 'completed', { tool_call_id: 'other_call', detail: 'not this call' }),
  ];
  assert.equal(
    recoveredOutput(runs, 'call_sub'),
    "[interrupted] the core stopped while this subagent call ran. Its subagents' results:\n\n" +
      '=== run-1-0 (completed) ===\nchild zero finished its part\n\n=== run-1-1 (interrupted) ===\n[interrupted]',
  );
  assert.equal(recoveredOutput(runs, 'call_none'), '[interrupted] the core stopped while this subagent call ran.');
});

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCli } from '../config/cli';
import { loadConfig } from '../config/config';
import { createCoreRuntime } from '../app/createCoreRuntime';
import type { RunRecord } from '../sessions/sessionTypes';
import { emitRecovered, recoveredOutput } from './sessionEvents';

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

test("a core that died in a subagent call resumes with the call answered from its children's records, in memory and on disk", () => {
  const root = mkdtempSync(join(tmpdir(), 'recover-sub-'));
  try {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const file = join(root, 'session.jsonl');
    const run = (r: Partial<RunRecord>) => JSON.stringify({ _run: { session_id: 'old', kind: 'subagent', timestamp_ms: 1, ...r } });
    writeFileSync(
      file,
      [
        JSON.stringify({ _session_version: 2 }),
        JSON.stringify({ role: 'user', content: 'delegate it' }),
        JSON.stringify({
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_sub', type: 'function', function: { name: 'subagent', arguments: '{"agent":"worker","task":"t"}' } }],
        }),
        run({ run_id: 'turn-1', kind: 'turn', state: 'started' }),
        run({ run_id: 'run-1', parent_run_id: 'turn-1', tool_call_id: 'call_sub', state: 'started', detail: 'worker' }),
        run({ run_id: 'run-1', parent_run_id: 'turn-1', tool_call_id: 'call_sub', state: 'completed', detail: 'the child did it' }),
      ].join('\n') + '\n',
    );
    const lines: string[] = [];
    const rt = createCoreRuntime(
      loadConfig(parseCli(['--session', file]), {}, { home: join(root, 'home'), cwd: ws }),
      {},
      (l) => lines.push(l),
      () => {},
    );
    emitRecovered(rt, rt.loadedAtStart!);
    const expected =
      "[interrupted] the core stopped while this subagent call ran. Its subagents' results:\n\n=== run-1 (completed) ===\nthe child did it";
    assert.equal(rt.conversation.all.find((m) => m.role === 'tool')?.content, expected);
    rt.conversation.close();
    const onDisk = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(onDisk.find((l) => l.role === 'tool')?.content, expected);
    const recovered = lines.map((l) => JSON.parse(l)).find((e) => e.type === 'session_recovered');
    assert.deepEqual(recovered.interrupted_runs, ['turn-1']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createCoreRuntime } from '../app/createCoreRuntime';
import { parseCli } from '../config/cli';
import { loadConfig } from '../config/config';
import { ChildScope } from '../runtime/childScope';
import { RunScope } from '../runtime/runScope';
import { handleRuntimeStatus } from './statusCommands';

test('runtime_status lists each live subagent run as a `subagent` resource, and no longer once it ended', () => {
  const root = mkdtempSync(join(tmpdir(), 'rt-child-'));
  try {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const lines: string[] = [];
    const rt = createCoreRuntime(
      loadConfig(parseCli([]), {}, { home: join(root, 'home'), cwd: ws }),
      {},
      (l) => lines.push(l),
      () => {},
    );
    const turn = new RunScope(rt.sessionId, 'turn-1', 'turn');
    const child = new ChildScope('run-1', 'turn-1', turn, 'subagent-worker-run1', 1, turn.signal);
    rt.subagents.add({ scope: child, agent: 'worker', agents: ['worker'], mode: 'single', task: 'read the notes' });
    const resources = () => {
      lines.length = 0;
      handleRuntimeStatus(rt);
      return JSON.parse(lines[0]).resources.filter((r: { kind: string }) => r.kind === 'subagent');
    };
    assert.deepEqual(resources(), [
      {
        id: child.resourceId,
        kind: 'subagent',
        label: 'worker: read the notes',
        session_id: rt.sessionId,
        run_id: 'run-1',
        cancelled: false,
      },
    ]);
    rt.subagents.end('run-1', 'completed');
    assert.deepEqual(resources(), []);
    rt.conversation.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

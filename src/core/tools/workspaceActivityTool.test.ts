import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { STALE_AFTER_MS } from './presenceRecords';
import { workspaceActivityTool } from './workspaceActivityTool';

describe('workspace_activity', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const nowSecs = () => Math.floor(Date.now() / 1000);
  const publish = (pid: number, record: object) => ws.write(path.join('.presence', `${pid}.json`), JSON.stringify({ pid, ...record }));

  test("no peers: says any error is the session's own or the environment's", async () => {
    const outcome = await workspaceActivityTool.execute({}, ws.context());
    assert.equal(
      outcome.output,
      'No other active catalyst-code sessions in this workspace. Any error you are seeing is from your own work or the environment.',
    );
  });

  test('lists live peers as upstream does, skips itself, and removes stale records', async () => {
    publish(4242, {
      session_id: 's1.jsonl',
      started_at: nowSecs() - 600,
      last_heartbeat: nowSecs() - 7200,
      goal: 'refactor auth',
      in_progress: ['core/src/main.rs'],
      next: [],
      recent_files: ['a.rs', 'b.rs'],
      last_activity: 'edit a.rs',
      model: 'm1',
    });
    publish(process.pid, { started_at: nowSecs(), last_heartbeat: nowSecs(), goal: 'me' });
    const stale = publish(777, { started_at: 0, last_heartbeat: 0, goal: 'dead' });
    const past = new Date(Date.now() - STALE_AFTER_MS - 60_000);
    fs.utimesSync(stale, past, past);
    const outcome = await workspaceActivityTool.execute({}, ws.context());
    assert.equal(
      outcome.output,
      '1 other active session(s) in this workspace:\n\n- pid 4242 (started 10m ago, last active 2h ago), session s1.jsonl, model m1\n' +
        '  goal: refactor auth\n  in progress: core/src/main.rs\n  recently touched: a.rs, b.rs\n  last: edit a.rs',
    );
    assert.ok(!fs.existsSync(stale), 'the stale record was removed');
  });

  test('targets nothing', () => assert.deepEqual(workspaceActivityTool.targets({}), { paths: [] }));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a64Hex } from '../../src/protocol/sessionLayout';
import { startScenario } from '../support/coreScenario';

const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });

test("workspace_activity lists the sessions upstream's cores publish in this workspace's presence folder", async () => {
  const s = await startScenario({
    script: [
      call('l1', 'load_tools', { tool: 'workspace_activity' }),
      call('w1', 'workspace_activity', {}),
      { steps: [{ text: 'a neighbour is at work' }] },
    ],
  });
  try {
    const dir = join(s.core.home, '.config', 'catalyst-code', 'presence', fnv1a64Hex(realpathSync(s.core.workspace)));
    mkdirSync(dir, { recursive: true });
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7200;
    writeFileSync(
      join(dir, '31337.json'),
      JSON.stringify({
        pid: 31337,
        started_at: twoHoursAgo,
        last_heartbeat: twoHoursAgo,
        goal: 'fix the build',
        in_progress: [],
        next: [],
        recent_files: ['Cargo.toml'],
        last_activity: '',
      }),
    );
    const events = await s.turn('is anyone else here?');
    const result = events.find((e) => e.type === 'tool_result' && e.id === 'w1');
    assert.equal(
      result.output,
      '1 other active session(s) in this workspace:\n\n- pid 31337 (started 2h ago, last active 2h ago)\n  goal: fix the build\n  recently touched: Cargo.toml',
    );
  } finally {
    await s.close();
  }
});

test('each core publishes its presence: a second core in the workspace is listed until it exits', async () => {
  const a = await startScenario({
    script: [
      call('l1', 'load_tools', { tool: 'workspace_activity' }),
      call('w1', 'workspace_activity', {}),
      { steps: [{ text: 'one neighbour' }] },
      call('w2', 'workspace_activity', {}),
      { steps: [{ text: 'alone' }] },
    ],
  });
  const b = await startScenario({ workspace: a.core.workspace, home: a.core.home, script: [] });
  let bClosed = false;
  try {
    const withB = await a.turn('who else is here?');
    const listed = withB.find((e) => e.type === 'tool_result' && e.id === 'w1').output;
    assert.match(listed, new RegExp(`^1 other active session\\(s\\) in this workspace:\\n\\n- pid ${b.core.child.pid} \\(started `));
    await b.core.close();
    bClosed = true;
    const alone = await a.turn('and now?');
    assert.match(
      alone.find((e) => e.type === 'tool_result' && e.id === 'w2').output,
      /^No other active catalyst-code sessions in this workspace\./,
      'an exiting core removes its record',
    );
  } finally {
    if (!bClosed) await b.core.close();
    await b.model.close();
    await a.close();
  }
});

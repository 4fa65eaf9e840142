import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';
import { pollUntil, processGone } from '../support/processState';

const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const twoDiagnostics = {
  steps: [{ toolCall: { id: 'd1', name: 'diagnostics', arguments: {} } }, { toolCall: { id: 'd2', name: 'diagnostics', arguments: {} } }],
};

/** A TypeScript project whose own node_modules/.bin/tsc is this shell script. */
async function typescriptProject(tscBody: string, script: object[]): Promise<Scenario> {
  const s = await startScenario({ files: { 'tsconfig.json': '{}', 'node_modules/.bin/tsc': `#!/bin/sh\n${tscBody}\n` }, script });
  chmodSync(join(s.core.workspace, 'node_modules/.bin/tsc'), 0o755);
  return s;
}

test('load_tools {"tools":["diagnostics"]} then two diagnostics calls: both run the project\'s checker', async () => {
  const s = await typescriptProject('echo "src/a.ts(3,1): error TS1005: \';\' expected."; exit 2', [
    call('l1', 'load_tools', { tools: ['diagnostics'] }),
    twoDiagnostics,
    { steps: [{ text: 'one error' }] },
  ]);
  try {
    const events = await s.turn('check the types');
    assert.equal(events.find((e) => e.type === 'tool_result' && e.id === 'l1').output.split('\n')[0], 'Enabled: diagnostics');
    for (const id of ['d1', 'd2']) {
      const result = events.find((e) => e.type === 'tool_result' && e.id === id);
      assert.deepEqual([result.ok, result.output], [false, "tsc --noEmit\nsrc/a.ts(3,1): error TS1005: ';' expected."], id);
    }
    assert.ok(!events.some((e) => e.type === 'approval_request'), 'diagnostics is read-only');
  } finally {
    await s.close();
  }
});

test('abort kills both running diagnostics processes', async () => {
  const s = await typescriptProject('echo $$ >> checkers.pid\nexec sleep 60', [
    call('l1', 'load_tools', { tools: ['diagnostics'] }),
    twoDiagnostics,
    { steps: [{ text: 'next turn' }] },
  ]);
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'check', model: TEST_MODEL });
    const pidFile = join(s.core.workspace, 'checkers.pid');
    const pids = () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : []);
    assert.ok(await pollUntil(() => pids().length === 2), 'both checkers started, at the same time');
    const [first, second] = pids();
    assert.ok(!processGone(first) && !processGone(second));
    s.core.send({ type: 'abort' });
    await s.core.waitForType('aborted', { from });
    assert.ok(await pollUntil(() => processGone(first) && processGone(second)), 'both checkers were killed');
    const next = await s.turn('again');
    assert.equal(
      next
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'next turn',
    );
  } finally {
    await s.close();
  }
});

test('a read wave asks for its approvals one at a time: the second prompt comes only once the first is answered', async () => {
  const s = await startScenario({
    git: true,
    approval: 'always',
    script: [
      call('l1', 'load_tools', { tools: ['git', 'diagnostics'] }),
      {
        steps: [
          { toolCall: { id: 'g1', name: 'git_status', arguments: {} } },
          { toolCall: { id: 'd1', name: 'diagnostics', arguments: {} } },
        ],
      },
      { steps: [{ text: 'done' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'status and types', model: TEST_MODEL });
    const load = await s.core.waitForType('approval_request', { from });
    s.core.send({ type: 'approve', request_id: load.request_id, decision: 'yes' });
    const first = await s.core.waitForType('approval_request', { from: s.core.events.indexOf(load) + 1 });
    assert.equal(first.tool, 'git_status');
    s.core.send({ type: 'approve', request_id: first.request_id, decision: 'allow_session' });
    const second = await s.core.waitForType('approval_request', { from: s.core.events.indexOf(first) + 1 });
    assert.equal(second.tool, 'diagnostics');
    const answered = s.core.events.findIndex(
      (e, i) => i > s.core.events.indexOf(first) && e.type === 'approval_changed' && e.tool === 'git_status',
    );
    assert.ok(
      answered >= 0 && answered < s.core.events.indexOf(second),
      'the diagnostics prompt came after the core took the git_status answer',
    );
    s.core.send({ type: 'approve', request_id: second.request_id, decision: 'yes' });
    await s.core.waitForType('done', { from });
    const results = s.core.events.slice(from).filter((e) => e.type === 'tool_result');
    assert.deepEqual(results.map((r) => r.id).sort(), ['d1', 'g1', 'l1']);
  } finally {
    await s.close();
  }
});

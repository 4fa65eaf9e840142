import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScenario, TEST_MODEL } from '../support/coreScenario';
import { pollUntil, processGone } from '../support/processState';

const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
test('bash timeout kills the whole process group and reports timed_out', async () => {
  const s = await startScenario({
    approval: 'never',
    script: [
      call('b1', 'bash', { command: '(sleep 60 & echo $! > child.pid; wait) ; echo never', timeout: 1 }),
      { steps: [{ text: 'ok' }] },
    ],
  });
  try {
    const events = await s.turn('run it', { timeoutMs: 20000 });
    const result = events.find((e) => e.type === 'tool_result');
    assert.equal(result.status, 'timed_out');
    const pid = Number(readFileSync(join(s.core.workspace, 'child.pid'), 'utf8'));
    assert.ok(await pollUntil(() => processGone(pid)), 'the grandchild sleep was killed');
  } finally {
    await s.close();
  }
});

test('abort during bash kills the process group and the result is cancelled', async () => {
  const s = await startScenario({
    approval: 'never',
    script: [call('b1', 'bash', { command: 'sleep 60 & echo $! > child.pid; wait' }), { steps: [{ text: 'next turn' }] }],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'run', model: TEST_MODEL });
    await s.core.waitForType('tool_call', { from });
    const pidFile = join(s.core.workspace, 'child.pid');
    assert.ok(await pollUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== ''));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(!processGone(pid));
    s.core.send({ type: 'abort' });
    await s.core.waitForType('aborted', { from });
    assert.ok(await pollUntil(() => processGone(pid)), 'the background sleep was killed');
    const next = await s.turn('again');
    assert.equal(
      next
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'next turn',
    );
    const history = s.model.requests.at(-1)!.body.messages;
    const toolMsg = history.find((m: any) => m.role === 'tool' && m.tool_call_id === 'b1');
    assert.ok(toolMsg, 'the cancelled call still has a result in the history');
  } finally {
    await s.close();
  }
});

test('path escapes are refused in every approval mode: .., absolute, and a symlink pointing out', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
  try {
    for (const approval of ['never', 'destructive', 'always'] as const) {
      const ws = mkdtempSync(join(tmpdir(), 'core-ws-'));
      symlinkSync(outside, join(ws, 'link'));
      mkdirSync(join(ws, 'sub'));
      const s = await startScenario({
        workspace: ws,
        approval,
        script: [
          call('r1', 'read_file', { path: '../outside.txt' }),
          call('r2', 'read_file', { path: join(outside, 'secret.txt') }),
          call('r3', 'read_file', { path: 'link/secret.txt' }),
          call('w1', 'write_file', { path: 'link/new.txt', content: 'x' }),
          call('w2', 'write_file', { path: 'sub/../../x.txt', content: 'x' }),
          { steps: [{ text: 'done' }] },
        ],
      });
      try {
        const events = await s.turn('escape');
        const results = events.filter((e) => e.type === 'tool_result');
        assert.equal(results.length, 5, approval);
        for (const r of results) {
          assert.equal(r.status, 'failed', `${approval}: ${r.id}`);
          assert.match(r.output, /refused/);
          assert.ok(!r.output.includes('top secret'));
        }
        assert.equal(events.filter((e) => e.type === 'approval_request').length, 0, 'escapes are refused before any prompt');
        assert.equal(existsSync(join(outside, 'new.txt')), false);
      } finally {
        await s.close();
      }
    }
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('grep of a restricted root given as a string in paths prompts under destructive', async () => {
  const s = await startScenario({
    files: { '.env': 'TOKEN=abc\n' },
    script: [call('g1', 'grep', { pattern: 'TOKEN', paths: '.env' }), { steps: [{ text: 'done' }] }],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'search', model: TEST_MODEL });
    const first = await s.core.waitFor((e) => e.type === 'approval_request' || e.type === 'tool_result', { from });
    assert.equal(first.type, 'approval_request', 'the restricted .env is searched only after a prompt');
    s.core.send({ type: 'approve', request_id: first.request_id, decision: 'no' });
    const result = await s.core.waitForType('tool_result', { from });
    assert.equal(result.status, 'denied');
    assert.doesNotMatch(result.output, /TOKEN=abc/);
  } finally {
    await s.close();
  }
});

test('restricted paths (.env, .git/config) prompt even for reads under destructive', async () => {
  const s = await startScenario({
    git: true,
    files: { '.env': 'TOKEN=abc\n', 'README.md': 'hi\n' },
    script: [
      call('r1', 'read_file', { path: 'README.md' }),
      call('r2', 'read_file', { path: '.env' }),
      call('r3', 'read_file', { path: '.git/config' }),
      { steps: [{ text: 'done' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'read', model: TEST_MODEL });
    const first = await s.core.waitForType('approval_request', { from });
    assert.equal(JSON.parse(first.args).path, '.env');
    s.core.send({ type: 'approve', request_id: first.request_id, decision: 'no' });
    const second = await s.core.waitForType('approval_request', { from: s.core.events.indexOf(first) + 1 });
    assert.equal(JSON.parse(second.args).path, '.git/config');
    s.core.send({ type: 'approve', request_id: second.request_id, decision: 'yes' });
    await s.core.waitForType('done', { from });
    const results = s.core.ofType('tool_result', from).map((r) => r.status);
    assert.deepEqual(results, ['success', 'denied', 'success']);
  } finally {
    await s.close();
  }
});

test("a read wave's results come in the model's order, though its second call failed before the first could run", async () => {
  // Under "always" the first read waits for the user, while the second is refused at once (outside the workspace):
  // it has failed long before the first runs, and its result still comes second.
  const s = await startScenario({
    approval: 'always',
    files: { 'a.txt': 'alpha\n' },
    script: [
      {
        steps: [
          { toolCall: { id: 'wave-a', name: 'read_file', arguments: { path: 'a.txt' } } },
          { toolCall: { id: 'wave-b', name: 'read_file', arguments: { path: '../outside.txt' } } },
        ],
      },
      { steps: [{ text: 'read both' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'read a and b', model: TEST_MODEL });
    const request = await s.core.waitForType('approval_request', { from });
    assert.equal(request.tool_call_id, 'wave-a', 'only the first call asks');
    s.core.send({ type: 'approve', request_id: request.request_id, decision: 'yes' });
    await s.core.waitForType('done', { from });
    const events = s.core.events.slice(from);
    const results = events.filter((e) => e.type === 'tool_result');
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [
        ['wave-a', 'success'],
        ['wave-b', 'failed'],
      ],
    );
    assert.match(results[0].output, /alpha/);
    const calls = events.filter((e) => e.type === 'tool_call').map((e) => events.indexOf(e));
    assert.ok(calls.length === 2 && calls.every((i) => i < events.indexOf(results[0])), 'one wave: both calls start before any result');
    const answer = events
      .filter((e) => e.type === 'delta')
      .map((e) => e.text)
      .join('');
    assert.equal(answer, 'read both', 'the turn goes on after the wave');
  } finally {
    await s.close();
  }
});

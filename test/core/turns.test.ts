import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, types, TEST_MODEL } from '../support/coreScenario';

test('a plain streamed answer: deltas and thinking in one run with increasing sequence, then done', async () => {
  const s = await startScenario({
    script: [
      {
        steps: [{ reasoning: 'Let me think about greetings.' }, { text: 'Hello there, this is a streamed answer.' }],
        usage: { prompt: 120, completion: 9 },
      },
    ],
  });
  try {
    const events = await s.turn('say hello');
    const inRun = events.filter((e) => e.run_id);
    const runId = inRun[0].run_id;
    assert.match(runId, /^run-[0-9a-f]{16}-[0-9a-f]{16}$/);
    assert.ok(inRun.every((e) => e.run_id === runId));
    assert.deepEqual(
      inRun.map((e) => e.sequence),
      inRun.map((_, i) => i + 1),
    );
    assert.equal(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'Hello there, this is a streamed answer.',
    );
    assert.ok(events.filter((e) => e.type === 'delta').length > 1, 'streamed in several deltas');
    assert.equal(
      events
        .filter((e) => e.type === 'thinking')
        .map((e) => e.text)
        .join(''),
      'Let me think about greetings.',
    );
    const metrics = events.find((e) => e.type === 'metrics');
    assert.equal(metrics.tokens_in, 120);
    assert.equal(metrics.tokens_out, 9);
    assert.equal(types(events).at(-1), 'done');
    const req = s.model.requests.find((r) => r.path.endsWith('/chat/completions'))!;
    assert.equal(req.body.model, TEST_MODEL);
    assert.equal(req.body.stream, true);
    assert.equal(req.body.messages[0].role, 'system');
    assert.deepEqual(req.body.messages.at(-1), { role: 'user', content: 'say hello' });
    assert.ok(req.body.tools.some((t: any) => t.function?.name === 'edit'));
  } finally {
    await s.close();
  }
});

test('a tool-using turn: read_file runs unprompted, edit asks, yes applies it with a diff and file_change', async () => {
  const s = await startScenario({
    files: { 'src/app.ts': 'export const greeting = "hello";\nexport const n = 1;\n' },
    script: [
      { steps: [{ text: 'Reading.' }, { toolCall: { id: 'call_read', name: 'read_file', arguments: { path: 'src/app.ts' } } }] },
      {
        steps: [
          {
            toolCall: { id: 'call_edit', name: 'edit', arguments: { path: 'src/app.ts', edits: [{ search: '"hello"', replace: '"hi"' }] } },
          },
        ],
      },
      { steps: [{ text: 'Done: greeting is now hi.' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'change the greeting', model: TEST_MODEL });
    const approval = await s.core.waitForType('approval_request', { from });
    assert.equal(approval.tool, 'edit');
    assert.equal(approval.tool_call_id, 'call_edit');
    assert.equal(approval.request_id, `apv-1-call_edit`);
    assert.equal(approval.risk, 'destructive');
    assert.equal(approval.requested_permission, 'destructive');
    assert.equal(typeof approval.created_at, 'number');
    assert.ok(approval.args.length <= 2000);
    assert.match(approval.diff, /^--- a\/src\/app\.ts\n\+\+\+ b\/src\/app\.ts\n@@/);
    assert.match(approval.diff, /-export const greeting = "hello";\n\+export const greeting = "hi";/);
    assert.equal(readFileSync(join(s.core.workspace, 'src/app.ts'), 'utf8').includes('"hello"'), true, 'nothing written before approval');
    s.core.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    await s.core.waitForType('done', { from });
    const events = s.core.events.slice(from);
    const seq = types(events).filter((t) =>
      ['tool_call', 'approval_request', 'checkpoint_created', 'tool_result', 'file_change', 'done'].includes(t),
    );
    assert.deepEqual(seq, [
      'tool_call',
      'tool_result',
      'tool_call',
      'approval_request',
      'checkpoint_created',
      'tool_result',
      'file_change',
      'done',
    ]);
    const [readResult, editResult] = events.filter((e) => e.type === 'tool_result');
    assert.equal(readResult.status, 'success');
    assert.match(readResult.output, /greeting/);
    assert.equal(editResult.status, 'success');
    assert.match(editResult.diff, /\+export const greeting = "hi";/);
    const change = events.find((e) => e.type === 'file_change')!;
    assert.equal(change.path, 'src/app.ts');
    assert.equal(change.tool, 'edit');
    assert.match(change.unified_diff, /\+export const greeting = "hi";/);
    assert.equal(readFileSync(join(s.core.workspace, 'src/app.ts'), 'utf8'), 'export const greeting = "hi";\nexport const n = 1;\n');
    const third = s.model.requests.filter((r) => r.path.endsWith('/chat/completions'))[2].body.messages;
    assert.deepEqual(
      third.slice(-2).map((m: any) => m.role),
      ['assistant', 'tool'],
    );
  } finally {
    await s.close();
  }
});

test('approval no: the tool does not run, the result is denied and the model sees the denial', async () => {
  const s = await startScenario({
    script: [
      { steps: [{ toolCall: { id: 'call_w', name: 'write_file', arguments: { path: 'new.txt', content: 'x\n' } } }] },
      { steps: [{ text: 'OK, I will not write it.' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'write a file', model: TEST_MODEL });
    const approval = await s.core.waitForType('approval_request', { from });
    assert.match(approval.diff, /\+\+\+ b\/new\.txt\n@@ -0,0 \+1(,1)? @@\n\+x/);
    s.core.send({ type: 'approve', request_id: approval.request_id, decision: 'no' });
    await s.core.waitForType('done', { from });
    const result = s.core.ofType('tool_result', from)[0];
    assert.equal(result.status, 'denied');
    assert.equal(result.ok, false);
    assert.match(result.output, /denied by the user/);
    assert.equal(existsSync(join(s.core.workspace, 'new.txt')), false);
    assert.equal(s.core.ofType('file_change', from).length, 0);
    const last = s.model.requests.at(-1)!.body.messages.at(-1);
    assert.equal(last.role, 'tool');
    assert.match(last.content, /denied by the user/);
  } finally {
    await s.close();
  }
});

test("edited_content: the user-edited proposal is written instead of the model's, and the model is told", async () => {
  const s = await startScenario({
    files: { 'a.txt': 'one\ntwo\nthree\n' },
    script: [
      { steps: [{ toolCall: { id: 'call_e', name: 'write_file', arguments: { path: 'a.txt', content: 'ONE\nTWO\nTHREE\n' } } }] },
      { steps: [{ text: 'noted' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'uppercase', model: TEST_MODEL });
    const approval = await s.core.waitForType('approval_request', { from });
    s.core.send({ type: 'approve', request_id: approval.request_id, decision: 'yes', edited_content: 'ONE\ntwo\nTHREE\n' });
    await s.core.waitForType('done', { from });
    assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'ONE\ntwo\nTHREE\n');
    const result = s.core.ofType('tool_result', from)[0];
    assert.equal(result.status, 'success');
    assert.match(result.output, /modified/i);
    const change = s.core.ofType('file_change', from)[0];
    assert.ok(!change.unified_diff.includes('+TWO'), 'file_change reflects what was written');
    assert.match(s.model.requests.at(-1)!.body.messages.at(-1).content, /modified/i);
  } finally {
    await s.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario } from '../support/coreScenario';

const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });

test('bulk_edit over two files asks for approval per file, each an edit call of its own with its diff', async () => {
  const rename = [{ search: 'oldName', replace: 'newName' }];
  const s = await startScenario({
    git: true,
    files: { 'src/a.ts': 'export const oldName = 1;\n', 'src/b.ts': 'import { oldName } from "./a";\n' },
    script: [
      call('l1', 'load_tools', { tool: 'bulk' }),
      call('be', 'bulk_edit', {
        edits: [
          { path: 'src/a.ts', edits: rename },
          { path: 'src/b.ts', edits: rename },
        ],
      }),
      { steps: [{ text: 'renamed in a' }] },
    ],
  });
  try {
    const events = await s.turnAnswering('rename oldName', ['yes', 'no']);
    const approvals = events.filter((e) => e.type === 'approval_request');
    assert.deepEqual(
      approvals.map((a) => [a.tool, a.tool_call_id, JSON.parse(a.args).path]),
      [
        ['edit', 'be.1', 'src/a.ts'],
        ['edit', 'be.2', 'src/b.ts'],
      ],
    );
    assert.match(approvals[0].diff, /^-export const oldName = 1;\n\+export const newName = 1;$/m);
    for (const approval of approvals) {
      const innerCall = events.find((e) => e.type === 'tool_call' && e.id === approval.tool_call_id);
      assert.ok(
        events.indexOf(innerCall) < events.indexOf(approval),
        'the inner call is announced, with its full args, before its approval',
      );
      assert.equal(innerCall.name, 'edit');
    }
    assert.equal(readFileSync(join(s.core.workspace, 'src/a.ts'), 'utf8'), 'export const newName = 1;\n');
    assert.equal(
      readFileSync(join(s.core.workspace, 'src/b.ts'), 'utf8'),
      'import { oldName } from "./a";\n',
      'the denied file is unchanged',
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'file_change').map((e) => [e.path, e.tool]),
      [['src/a.ts', 'edit']],
    );
    const outer = events.find((e) => e.type === 'tool_result' && e.id === 'be');
    assert.equal(outer.status, 'partially_completed', outer.output);
    assert.equal(outer.output, "src/a.ts: applied 1 edit to src/a.ts\nsrc/b.ts: denied: tool call 'edit' was denied by the user");
    assert.equal(
      events.filter((e) => e.type === 'approval_request' && e.tool === 'bulk_edit').length,
      0,
      'no approval of the bulk call itself',
    );
  } finally {
    await s.close();
  }
});

test('each inner call of bulk is gated on its own: one the session has not loaded fails alone', async () => {
  const s = await startScenario({
    git: true,
    approval: 'never',
    script: [
      call('l1', 'load_tools', { tool: 'bulk' }),
      call('b1', 'bulk', {
        calls: [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: 'fetch', args: { url: 'http://example.com' } },
        ],
      }),
      { steps: [{ text: 'done' }] },
    ],
    files: { 'a.txt': 'alpha\n' },
  });
  try {
    const events = await s.turn('read');
    const outer = events.find((e) => e.type === 'tool_result' && e.id === 'b1');
    assert.equal(outer.status, 'partially_completed', outer.output);
    assert.match(outer.output, /^1\. read_file: alpha\n\n2\. fetch: failed: tool 'fetch' is deferred and not enabled this session/);
  } finally {
    await s.close();
  }
});

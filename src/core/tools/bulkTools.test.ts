import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { bulkEditTool } from './bulkEditTool';
import { bulkReadTool } from './bulkReadTool';
import { bulkTool } from './bulkTool';
import { bulkWriteTool } from './bulkWriteTool';
import { failed, succeeded } from './outcome';
import type { ToolContext, ToolOutcome } from './types';

describe('bulk tools', () => {
  let ws: TestWorkspace;
  let inner: { name: string; args: Record<string, unknown> }[];
  /** A context whose inner calls are recorded and answered in turn with the given outcomes. */
  const withInner = (...outcomes: ToolOutcome[]): ToolContext =>
    ws.context({ runInner: async (name, args) => (inner.push({ name, args }), outcomes.shift() ?? succeeded('ok')) });
  beforeEach(() => {
    ws = makeTestWorkspace();
    inner = [];
  });
  afterEach(() => ws.cleanup());

  test('bulk_write and bulk_edit run one write_file / edit call per file, and sum them up one line each', async () => {
    const written = await bulkWriteTool.execute(
      {
        files: [
          { path: 'a.txt', content: 'A' },
          { path: 'b.txt', content: 'B' },
        ],
      },
      withInner(succeeded('created a.txt (1 bytes)'), succeeded('created b.txt (1 bytes)')),
    );
    assert.deepEqual(inner, [
      { name: 'write_file', args: { path: 'a.txt', content: 'A' } },
      { name: 'write_file', args: { path: 'b.txt', content: 'B' } },
    ]);
    assert.deepEqual(
      [written.ok, written.status, written.output],
      [true, 'success', 'a.txt: created a.txt (1 bytes)\nb.txt: created b.txt (1 bytes)'],
    );
    inner = [];
    const edits = [{ search: 'x', replace: 'y' }];
    const edited = await bulkEditTool.execute(
      {
        edits: [
          { path: 'a.txt', edits },
          { path: 'b.txt', edits },
        ],
      },
      withInner(succeeded('applied 1 edit to a.txt'), failed("tool call 'edit' was denied by the user", 'denied')),
    );
    assert.deepEqual(
      inner.map((c) => [c.name, c.args.path]),
      [
        ['edit', 'a.txt'],
        ['edit', 'b.txt'],
      ],
    );
    assert.deepEqual(
      [edited.ok, edited.status, edited.output],
      [false, 'partially_completed', "a.txt: applied 1 edit to a.txt\nb.txt: denied: tool call 'edit' was denied by the user"],
    );
  });

  test("bulk runs any of upstream's inner tools by name, and refuses others before running anything", async () => {
    const outcome = await bulkTool.execute(
      {
        calls: [
          { name: 'list_dir', args: { path: '.' } },
          { name: 'bash', args: { command: 'true' } },
        ],
      },
      withInner(),
    );
    assert.deepEqual(inner, [
      { name: 'list_dir', args: { path: '.' } },
      { name: 'bash', args: { command: 'true' } },
    ]);
    assert.equal(outcome.output, '1. list_dir: ok\n2. bash: ok');
    inner = [];
    assert.match(
      (
        await bulkTool.execute(
          {
            calls: [
              { name: 'read_file', args: {} },
              { name: 'bulk', args: {} },
            ],
          },
          withInner(),
        )
      ).output,
      /calls\[1\]\.name must be one of/,
    );
    assert.deepEqual(inner, []);
  });

  test('a cancelled run stops the inner calls; malformed entries are refused', async () => {
    const abort = new AbortController();
    const ctx = ws.context({
      signal: abort.signal,
      runInner: async (name, args) => (inner.push({ name, args }), abort.abort(), succeeded('done')),
    });
    const outcome = await bulkWriteTool.execute(
      {
        files: [
          { path: 'a', content: '' },
          { path: 'b', content: '' },
        ],
      },
      ctx,
    );
    assert.deepEqual([outcome.status, outcome.output], ['partially_completed', 'a: done\nb: not run (cancelled)']);
    assert.match((await bulkWriteTool.execute({ files: [] }, withInner())).output, /'files' is required/);
    assert.match((await bulkEditTool.execute({ edits: [{ path: 'a' }] }, withInner())).output, /edits\[0\] must be \{path, edits/);
  });

  test('bulk_read gives each file as a headed block, errors inline', async () => {
    ws.write('a.txt', 'alpha\n');
    ws.write('b.txt', 'beta\n');
    const outcome = await bulkReadTool.execute({ paths: ['a.txt', 'missing.txt', 'b.txt'] }, ws.context());
    assert.equal(outcome.ok, true);
    assert.equal(
      outcome.output,
      '==> a.txt <==\nalpha\n\n\n==> missing.txt <==\n[error] read_file: no such file or directory\n\n==> b.txt <==\nbeta\n',
    );
  });

  test('targets: the files of bulk_read/bulk_write/bulk_edit, none for bulk (its inner calls are gated)', () => {
    assert.deepEqual(bulkReadTool.targets({ paths: ['a', 1] }), { paths: ['a'] });
    assert.deepEqual(bulkWriteTool.targets({ files: [{ path: 'a', content: '' }, { content: '' }] }), { paths: ['a'] });
    assert.deepEqual(bulkEditTool.targets({ edits: [{ path: 'b', edits: [] }] }), { paths: ['b'] });
    assert.deepEqual(bulkTool.targets({ calls: [{ name: 'write_file', args: { path: 'x' } }] }), { paths: [] });
  });
});

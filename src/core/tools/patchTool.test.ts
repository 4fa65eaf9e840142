import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { patchTool } from './patchTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('patch', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('applies a unified diff and reports the resulting diff', async () => {
    ws.write('a.txt', 'one\ntwo\nthree\n');
    const outcome = await patchTool.execute(
      { path: 'a.txt', patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n' },
      ws.context(),
    );
    assert.equal(outcome.status, 'success');
    assert.equal(ws.read('a.txt'), 'one\nTWO\nthree\n');
    assert.equal(outcome.diff, '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n');
    assert.deepEqual(
      outcome.fileChanges.map((c) => [c.path, c.tool]),
      [['a.txt', 'patch']],
    );
  });

  test('creates a missing file from a zero-count hunk', async () => {
    const outcome = await patchTool.execute({ path: 'new/f.txt', patch: '@@ -0,0 +1,2 @@\n+a\n+b\n' }, ws.context());
    assert.equal(outcome.ok, true);
    assert.equal(ws.read('new/f.txt'), 'a\nb\n');
  });

  test('a patch that does not apply fails and leaves the file alone', async () => {
    ws.write('a.txt', 'one\n');
    const outcome = await patchTool.execute({ path: 'a.txt', patch: '@@ -1 +1 @@\n-uno\n+one!\n' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.status], [false, 'failed']);
    assert.match(outcome.output, /does not apply/);
    assert.equal(ws.read('a.txt'), 'one\n');
  });

  test('targets the path it patches', () => {
    assert.deepEqual(patchTool.targets({ path: 'a.txt', patch: '' }), { paths: ['a.txt'] });
  });
});

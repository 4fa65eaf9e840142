import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteTool } from './deleteTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('delete', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const del = (p: string) => deleteTool.execute({ path: p }, ws.context());

  test('deletes a file; the file change carries its content as removals', async () => {
    ws.write('a.txt', 'bye\n');
    const outcome = await del('a.txt');
    assert.deepEqual([outcome.ok, outcome.output, ws.exists('a.txt')], [true, 'deleted a.txt', false]);
    assert.deepEqual(outcome.fileChanges, [
      { path: 'a.txt', unified_diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +0,0 @@\n-bye\n', tool: 'delete' },
    ]);
  });

  test('deletes an empty directory but refuses a non-empty one', async () => {
    fs.mkdirSync(path.join(ws.root, 'empty'));
    ws.write('full/x.txt', 'x');
    assert.equal((await del('empty')).output, 'deleted directory empty/');
    const refused = await del('full');
    assert.deepEqual([refused.ok, refused.status], [false, 'failed']);
    assert.match(refused.output, /not empty/);
    assert.equal(ws.exists('full/x.txt'), true);
  });

  test('removes a symlink itself, never its target', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'catalyst-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'keep.txt'), 'keep');
      fs.symlinkSync(path.join(outside, 'keep.txt'), path.join(ws.root, 'link'));
      assert.equal((await del('link')).ok, true);
      assert.equal(fs.existsSync(path.join(ws.root, 'link')), false);
      assert.equal(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8'), 'keep');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('refuses missing paths, the workspace root and escapes', async () => {
    assert.match((await del('missing.txt')).output, /no such file/);
    assert.match((await del('.')).output, /workspace root/);
    assert.match((await del('../x')).output, /'\.\.'/);
  });

  test('targets the path it deletes, and nothing for a path that is not a string', () => {
    assert.deepEqual(deleteTool.targets({ path: 'old' }), { paths: ['old'] });
    assert.deepEqual(deleteTool.targets({ path: 7 }), { paths: [] });
  });
});

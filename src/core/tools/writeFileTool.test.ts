import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { writeFileTool } from './writeFileTool';

describe('write_file', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('creates a file with its parent directories; diff and file change are all additions', async () => {
    const outcome = await writeFileTool.execute({ path: 'deep/er/new.txt', content: 'hi\n' }, ws.context());
    assert.equal(outcome.status, 'success');
    assert.equal(ws.read('deep/er/new.txt'), 'hi\n');
    const diff = '--- a/deep/er/new.txt\n+++ b/deep/er/new.txt\n@@ -0,0 +1,1 @@\n+hi\n';
    assert.equal(outcome.diff, diff);
    assert.deepEqual(outcome.fileChanges, [{ path: 'deep/er/new.txt', unified_diff: diff, tool: 'write_file' }]);
    assert.match(outcome.output, /created deep\/er\/new\.txt/);
  });

  test('overwrites atomically, keeping the file mode and leaving no temp files', async () => {
    const abs = ws.write('run.sh', 'echo old\n');
    fs.chmodSync(abs, 0o751);
    const outcome = await writeFileTool.execute({ path: 'run.sh', content: 'echo new\n' }, ws.context());
    assert.equal(outcome.ok, true);
    assert.equal(ws.read('run.sh'), 'echo new\n');
    assert.equal(fs.statSync(abs).mode & 0o777, 0o751);
    assert.deepEqual(fs.readdirSync(ws.root), ['run.sh']);
    assert.match(outcome.diff ?? '', /-echo old\n\+echo new/);
  });

  test('content is required (an empty string is fine)', async () => {
    const missing = await writeFileTool.execute({ path: 'x.txt' }, ws.context());
    assert.deepEqual([missing.ok, missing.status], [false, 'failed']);
    assert.match(missing.output, /'content' is required/);
    assert.equal((await writeFileTool.execute({ path: 'x.txt', content: '' }, ws.context())).ok, true);
    assert.equal(ws.read('x.txt'), '');
  });

  test('refuses paths outside the workspace and directories', async () => {
    ws.write('d/f', '');
    assert.match((await writeFileTool.execute({ path: '../escape.txt', content: 'x' }, ws.context())).output, /'\.\.'/);
    assert.match((await writeFileTool.execute({ path: 'd', content: 'x' }, ws.context())).output, /is a directory/);
    assert.equal(fs.existsSync(path.join(ws.root, '..', 'escape.txt')), false);
  });

  test('writes the user-edited content instead, and tells the model with the diff of what was written', async () => {
    ws.write('a.txt', 'old\n');
    const outcome = await writeFileTool.execute({ path: 'a.txt', content: 'model\n' }, ws.context({ editedContent: 'user\n' }));
    assert.equal(ws.read('a.txt'), 'user\n');
    assert.match(outcome.output, /^The user modified your proposal before applying it/);
    assert.match(outcome.output, /-old\n\+user\n/);
    assert.equal(outcome.fileChanges[0].unified_diff, outcome.diff);
  });

  test('edited content equal to the proposal is not reported as a modification', async () => {
    const outcome = await writeFileTool.execute({ path: 'a.txt', content: 'same\n' }, ws.context({ editedContent: 'same\n' }));
    assert.doesNotMatch(outcome.output, /modified/);
  });

  test('writing identical content changes nothing', async () => {
    ws.write('a.txt', 'same\n');
    const outcome = await writeFileTool.execute({ path: 'a.txt', content: 'same\n' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.fileChanges], [true, []]);
    assert.match(outcome.output, /nothing was written/);
  });

  test('targets the path it writes', () => {
    assert.deepEqual(writeFileTool.targets({ path: 'a.txt', content: 'x' }), { paths: ['a.txt'] });
  });
});

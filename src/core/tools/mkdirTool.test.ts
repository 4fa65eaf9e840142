import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { mkdirTool } from './mkdirTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('mkdir', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('creates nested directories', async () => {
    const outcome = await mkdirTool.execute({ path: 'a/b/c' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.output], [true, 'created directory a/b/c/']);
    assert.equal(fs.statSync(path.join(ws.root, 'a/b/c')).isDirectory(), true);
    assert.deepEqual(outcome.fileChanges, [{ path: 'a/b/c', tool: 'mkdir' }]);
  });

  test('an existing directory is fine, an existing file is not', async () => {
    fs.mkdirSync(path.join(ws.root, 'd'));
    ws.write('f', '');
    assert.match((await mkdirTool.execute({ path: 'd' }, ws.context())).output, /already exists/);
    const onFile = await mkdirTool.execute({ path: 'f' }, ws.context());
    assert.deepEqual([onFile.ok, onFile.status], [false, 'failed']);
  });

  test('targets the directory it creates', () => {
    assert.deepEqual(mkdirTool.targets({ path: 'new/dir' }), { paths: ['new/dir'] });
  });
});

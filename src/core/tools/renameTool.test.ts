import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renameTool } from './renameTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('rename', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const rename = (from: string, to: string) => renameTool.execute({ from, to }, ws.context());

  test('moves a file into new directories and reports both paths', async () => {
    ws.write('a.txt', 'A');
    const outcome = await rename('a.txt', 'sub/dir/b.txt');
    assert.equal(outcome.output, 'renamed a.txt → sub/dir/b.txt');
    assert.deepEqual([ws.exists('a.txt'), ws.read('sub/dir/b.txt')], [false, 'A']);
    assert.deepEqual(outcome.fileChanges, [
      { path: 'a.txt', tool: 'rename' },
      { path: 'sub/dir/b.txt', tool: 'rename' },
    ]);
  });

  test('refuses to overwrite, a missing source, and moving a directory into itself', async () => {
    ws.write('a.txt', 'A');
    ws.write('b.txt', 'B');
    ws.write('d/x', 'x');
    const overwrite = await rename('a.txt', 'b.txt');
    assert.deepEqual([overwrite.ok, overwrite.status], [false, 'failed']);
    assert.match(overwrite.output, /already exists/);
    assert.equal(ws.read('b.txt'), 'B');
    assert.match((await rename('nope', 'x')).output, /does not exist/);
    assert.match((await rename('d', 'd/inner')).output, /into itself/);
  });

  test('refuses destinations outside the workspace', async () => {
    ws.write('a.txt', 'A');
    assert.match((await rename('a.txt', '../a.txt')).output, /'\.\.'/);
    assert.match((await rename('a.txt', '/tmp/a.txt')).output, /absolute/);
    assert.equal(ws.exists('a.txt'), true);
  });

  test('targets both the source and the destination, each when it is a string', () => {
    assert.deepEqual(renameTool.targets({ from: 'a', to: 'b' }), { paths: ['a', 'b'] });
    assert.deepEqual(renameTool.targets({ from: 'a', to: 42 }), { paths: ['a'] });
  });
});

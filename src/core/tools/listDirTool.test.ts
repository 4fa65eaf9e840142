import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { listDirTool } from './listDirTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('list_dir', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('lists sorted entries with "/" after directories (symlinked ones too)', async () => {
    ws.write('b.txt', '');
    ws.write('a/x', '');
    ws.write('.hidden', '');
    fs.symlinkSync('a', path.join(ws.root, 'c-link'));
    const outcome = await listDirTool.execute({ path: '.' }, ws.context());
    assert.equal(outcome.output, '.hidden\na/\nb.txt\nc-link/');
  });

  test('caps at 1000 entries with a note', async () => {
    for (let i = 0; i < 1005; i++) ws.write(`many/f${String(i).padStart(4, '0')}`, '');
    const lines = (await listDirTool.execute({ path: 'many' }, ws.context())).output.split('\n');
    assert.equal(lines.length, 1001);
    assert.equal(lines.at(-1), '… 5 more entries not shown (1005 in total)');
  });

  test('refuses files and escapes; an empty directory says so', async () => {
    ws.write('f.txt', '');
    fs.mkdirSync(path.join(ws.root, 'empty'));
    assert.match((await listDirTool.execute({ path: 'f.txt' }, ws.context())).output, /not a directory/);
    assert.match((await listDirTool.execute({ path: '..' }, ws.context())).output, /'\.\.'/);
    assert.equal((await listDirTool.execute({ path: 'empty' }, ws.context())).output, '(empty is empty)');
  });

  test('targets the directory it lists, the workspace root by default', () => {
    assert.deepEqual(listDirTool.targets({}), { paths: ['.'] });
    assert.deepEqual(listDirTool.targets({ path: 'src' }), { paths: ['src'] });
  });
});

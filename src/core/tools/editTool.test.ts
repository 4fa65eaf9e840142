import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { editTool } from './editTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('edit', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('applies the edits, returns the diff and a file change', async () => {
    ws.write('src/a.ts', 'const a = 1;\nconst b = 2;\n');
    const outcome = await editTool.execute({ path: 'src/a.ts', edits: [{ search: 'b = 2', replace: 'b = 3' }] }, ws.context());
    assert.equal(outcome.status, 'success');
    assert.equal(outcome.output, 'applied 1 edit to src/a.ts');
    assert.equal(ws.read('src/a.ts'), 'const a = 1;\nconst b = 3;\n');
    assert.match(
      outcome.diff ?? '',
      /^--- a\/src\/a\.ts\n\+\+\+ b\/src\/a\.ts\n@@ -1,2 \+1,2 @@\n const a = 1;\n-const b = 2;\n\+const b = 3;\n$/,
    );
    assert.deepEqual(outcome.fileChanges, [{ path: 'src/a.ts', unified_diff: outcome.diff, tool: 'edit' }]);
  });

  test('keeps CRLF line endings', async () => {
    ws.write('w.txt', 'one\r\ntwo\r\n');
    await editTool.execute({ path: 'w.txt', edits: [{ search: 'one\ntwo', replace: 'uno\ndos' }] }, ws.context());
    assert.equal(ws.read('w.txt'), 'uno\r\ndos\r\n');
  });

  test('a failing edit leaves the file untouched and says which edit failed', async () => {
    ws.write('a.txt', 'x\n');
    const outcome = await editTool.execute(
      {
        path: 'a.txt',
        edits: [
          { search: 'x', replace: 'y' },
          { search: 'zzz', replace: 'w' },
        ],
      },
      ws.context(),
    );
    assert.deepEqual([outcome.ok, outcome.status], [false, 'failed']);
    assert.match(outcome.output, /^edit: edit 2: search text not found/);
    assert.equal(ws.read('a.txt'), 'x\n');
  });

  test('rejects malformed edits and missing files', async () => {
    ws.write('a.txt', 'x\n');
    assert.match((await editTool.execute({ path: 'a.txt', edits: [] }, ws.context())).output, /non-empty array/);
    assert.match(
      (await editTool.execute({ path: 'a.txt', edits: [{ search: 'x' }] }, ws.context())).output,
      /edit 1: 'replace' must be a string/,
    );
    assert.match(
      (await editTool.execute({ path: 'none.txt', edits: [{ search: 'x', replace: 'y' }] }, ws.context())).output,
      /does not exist; use write_file/,
    );
  });

  test('refuses binary files', async () => {
    ws.write('b.bin', Buffer.from([0x41, 0, 0x42]));
    assert.match((await editTool.execute({ path: 'b.bin', edits: [{ search: 'A', replace: 'C' }] }, ws.context())).output, /binary/);
  });

  test('writes the user-edited content even when the model edit no longer applies', async () => {
    ws.write('a.txt', 'changed meanwhile\n');
    const outcome = await editTool.execute(
      { path: 'a.txt', edits: [{ search: 'original', replace: 'x' }] },
      ws.context({ editedContent: 'user version\n' }),
    );
    assert.equal(outcome.ok, true);
    assert.equal(ws.read('a.txt'), 'user version\n');
    assert.match(outcome.output, /^The user modified your proposal/);
  });

  test('targets the path it edits, and nothing for an empty path', () => {
    assert.deepEqual(editTool.targets({ path: 'a.ts', edits: [] }), { paths: ['a.ts'] });
    assert.deepEqual(editTool.targets({ path: '', edits: [] }), { paths: [] });
  });
});

import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { previewFileEdit } from './filePreview';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('previewFileEdit', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('computes old and new content and the diff without writing', async () => {
    ws.write('a.txt', 'one\ntwo\n');
    const preview = await previewFileEdit('edit', { path: './a.txt', edits: [{ search: 'two', replace: 'TWO' }] }, ws.root);
    assert.deepEqual(preview, {
      path: 'a.txt',
      oldContent: 'one\ntwo\n',
      newContent: 'one\nTWO\n',
      diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n',
    });
    assert.equal(ws.read('a.txt'), 'one\ntwo\n');
  });

  test('a new file has null old content', async () => {
    const preview = await previewFileEdit('write_file', { path: 'n/new.txt', content: 'x\n' }, ws.root);
    assert.ok(preview && 'newContent' in preview);
    assert.equal(preview.oldContent, null);
    assert.equal(ws.exists('n'), false);
    const patched = await previewFileEdit('patch', { path: 'p.txt', patch: '@@ -0,0 +1 @@\n+p\n' }, ws.root);
    assert.ok(patched && 'newContent' in patched);
    assert.equal(patched.newContent, 'p\n');
  });

  test('gives an error when the change would not apply, and null for other tools', async () => {
    ws.write('a.txt', 'one\n');
    const preview = await previewFileEdit('edit', { path: 'a.txt', edits: [{ search: 'missing', replace: 'x' }] }, ws.root);
    assert.ok(preview && 'error' in preview);
    assert.match(preview.error, /edit 1: search text not found/);
    assert.deepEqual(await previewFileEdit('write_file', { path: '../x', content: '' }, ws.root), {
      error: `path "../x" contains '..'; leaving the workspace is not allowed`,
    });
    assert.equal(await previewFileEdit('bash', { command: 'ls' }, ws.root), null);
  });
});

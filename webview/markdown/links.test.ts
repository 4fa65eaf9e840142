import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileLinkOf } from './links';

test('relative paths become file links, with an optional line', () => {
  assert.deepEqual(fileLinkOf('src/app.ts'), { path: 'src/app.ts' });
  assert.deepEqual(fileLinkOf('./src/app.ts'), { path: 'src/app.ts' });
  assert.deepEqual(fileLinkOf('src/app.ts#L42'), { path: 'src/app.ts', line: 42 });
  assert.deepEqual(fileLinkOf('src/app.ts#L42-L50'), { path: 'src/app.ts', line: 42 });
  assert.deepEqual(fileLinkOf('src/app.ts:7'), { path: 'src/app.ts', line: 7 });
  assert.deepEqual(fileLinkOf('src/my%20file.ts'), { path: 'src/my file.ts' });
});

test('everything else is not a file link', () => {
  for (const href of [
    'https://example.com',
    'mailto:a@b.c',
    'javascript:alert(1)',
    'vscode:extension/x',
    'command:workbench.action.quit',
    '/etc/passwd',
    '\\\\server\\share',
    'C:\\Windows',
    '#anchor',
    '../outside.txt',
    'a/../../b',
    '',
    null,
    undefined,
  ]) {
    assert.equal(fileLinkOf(href), undefined, String(href));
  }
});

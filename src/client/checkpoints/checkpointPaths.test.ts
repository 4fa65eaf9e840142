import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpointDocPath, parseCheckpointDocPath, relativeToFolder } from './checkpointPaths';

describe('checkpoint document paths', () => {
  test('round trip, with characters that need encoding; the file name ends the path', () => {
    for (const ref of [
      { folderIndex: 0, id: 'cp-1767225600-0123456789abcdef', path: 'src/a.ts' },
      { folderIndex: 3, id: 'cp-1/odd#id?', path: 'dir with space/ü#%.md' },
      { folderIndex: 12, id: 'x', path: '.env' },
    ]) {
      const p = checkpointDocPath(ref);
      assert.ok(p.endsWith(encodeURIComponent(ref.path.split('/').pop() as string)), p);
      assert.deepEqual(parseCheckpointDocPath(p), ref);
    }
  });

  test('malformed or escaping paths are refused', () => {
    for (const bad of [
      '',
      '/',
      '/0',
      '/0/cp-1',
      'x/0/cp-1/a',
      '/a/cp-1/x',
      '/-1/cp-1/x',
      '/0/cp-1/../x',
      '/0/cp-1/a/%2E%2E/b',
      '/0//x',
      '/0/cp-1/%E0%A4%A',
      '/12345/cp/x',
    ]) {
      assert.equal(parseCheckpointDocPath(bad), undefined, bad);
    }
  });
});

describe('relativeToFolder', () => {
  test('inside the folder only', () => {
    assert.equal(relativeToFolder('/w/app', '/w/app/src/a.ts'), 'src/a.ts');
    assert.equal(relativeToFolder('/w/app/', '/w/app/a'), 'a');
    assert.equal(relativeToFolder('/w/app', '/w/app'), undefined);
    assert.equal(relativeToFolder('/w/app', '/w/apple/a'), undefined);
    assert.equal(relativeToFolder('/w/app', '/w/other/a'), undefined);
    assert.equal(relativeToFolder('C:\\w\\App', 'c:\\w\\app\\src\\a.ts', true), 'src/a.ts');
    assert.equal(relativeToFolder('C:\\w\\App', 'c:\\w\\app\\src\\a.ts', false), undefined);
  });
});

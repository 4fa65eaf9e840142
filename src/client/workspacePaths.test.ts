import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { isInside, resolveInsideWorkspace, toWorkspaceRelative } from './workspacePaths';

const ROOT = path.resolve('/work/project');
const OTHER = path.resolve('/work/other');

describe('resolveInsideWorkspace', () => {
  test('resolves relative paths against the folder', () => {
    assert.equal(resolveInsideWorkspace('src/a.ts', ROOT, [ROOT]), path.join(ROOT, 'src/a.ts'));
    assert.equal(resolveInsideWorkspace('@src/a.ts', ROOT, [ROOT]), path.join(ROOT, 'src/a.ts'));
    assert.equal(resolveInsideWorkspace('@"my notes.md"', ROOT, [ROOT]), path.join(ROOT, 'my notes.md'));
  });

  test('accepts absolute paths inside any workspace root', () => {
    assert.equal(resolveInsideWorkspace(path.join(OTHER, 'x.ts'), ROOT, [ROOT, OTHER]), path.join(OTHER, 'x.ts'));
  });

  test('refuses escapes', () => {
    for (const p of ['../secret', 'src/../../secret', '/etc/passwd', path.join(ROOT, '..', 'x'), 'a\0b', '']) {
      assert.equal(resolveInsideWorkspace(p, ROOT, [ROOT]), undefined, p);
    }
  });
});

describe('isInside', () => {
  test('the root itself and descendants are inside; siblings with a common prefix are not', () => {
    assert.ok(isInside(ROOT, ROOT));
    assert.ok(isInside(ROOT, path.join(ROOT, 'a/b')));
    assert.ok(isInside(ROOT, path.join(ROOT, '..hidden')));
    assert.ok(!isInside(ROOT, `${ROOT}-evil/x`));
    assert.ok(!isInside(ROOT, path.dirname(ROOT)));
  });
});

describe('toWorkspaceRelative', () => {
  test('uses forward slashes', () => {
    assert.equal(toWorkspaceRelative(ROOT, path.join(ROOT, 'src', 'a.ts')), 'src/a.ts');
  });
});

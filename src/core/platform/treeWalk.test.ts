import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { NO_SKIPPED_DIRS, skippingAlso, walkBreadthFirst, walkTree, walkTreeAsync, WORKSPACE_SKIPPED_DIRS } from './treeWalk';

function tree(t: { after: (fn: () => void) => void }, files: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-walk-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), rel);
  }
  return root;
}

const FILES = ['a/x.md', 'b.md', 'node_modules/m.md', '.git/HEAD', 'c/d/y.md', 'dist/z.md'];

test("a folder's files come before its subfolders' by default, and in path order when asked", (t) => {
  const root = tree(t, FILES);
  assert.deepEqual(walkTree(root, '', { skipDirNames: WORKSPACE_SKIPPED_DIRS }).files, ['b.md', 'a/x.md', 'c/d/y.md', 'dist/z.md']);
  assert.deepEqual(walkTree(root, '', { skipDirNames: skippingAlso(['dist']), order: 'path' }).files, ['a/x.md', 'b.md', 'c/d/y.md']);
  assert.deepEqual(walkTree(root, '', { skipDirNames: NO_SKIPPED_DIRS, maxDepth: 1, order: 'path' }).files, [
    '.git/HEAD',
    'a/x.md',
    'b.md',
    'dist/z.md',
    'node_modules/m.md',
  ]);
});

test('a symlinked folder is listed, not followed, unless asked; a loop through one ends at maxDepth', (t) => {
  const root = tree(t, ['real/f.md']);
  fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'), 'dir');
  fs.symlinkSync(root, path.join(root, 'real', 'loop'), 'dir');
  assert.deepEqual(walkTree(root, '', { skipDirNames: NO_SKIPPED_DIRS, includeSymlinks: true }).files, ['link', 'real/f.md', 'real/loop']);
  const followed = walkTree(root, '', { skipDirNames: NO_SKIPPED_DIRS, followDirSymlinks: true, order: 'path', maxDepth: 3 }).files;
  assert.deepEqual(followed, [
    'link/f.md',
    'link/loop/link/f.md',
    'link/loop/real/f.md',
    'real/f.md',
    'real/loop/link/f.md',
    'real/loop/real/f.md',
  ]);
});

test('the limit stops the walk and says so', (t) => {
  const root = tree(t, FILES);
  assert.deepEqual(walkTree(root, '', { skipDirNames: WORKSPACE_SKIPPED_DIRS, limit: 2 }), { files: ['b.md', 'a/x.md'], truncated: true });
});

test('the streamed walk goes in path order, prunes what the filter excludes, and stops on an abort', async (t) => {
  const root = tree(t, FILES);
  const walked: string[] = [];
  const excluded = async (rel: string, isDirectory: boolean) => isDirectory && rel === 'c';
  for await (const rel of walkTreeAsync(root, '', { skipDirNames: WORKSPACE_SKIPPED_DIRS, isExcluded: excluded })) walked.push(rel);
  assert.deepEqual(walked, ['a/x.md', 'b.md', 'dist/z.md']);
  const controller = new AbortController();
  controller.abort(new Error('stopped'));
  await assert.rejects(walkTreeAsync(root, '', { skipDirNames: WORKSPACE_SKIPPED_DIRS, signal: controller.signal }).next(), /stopped/);
});

test('the breadth-first walk visits shallow folders first and stops at maxDirs', async (t) => {
  const root = tree(t, ['a/b/c/f', 'z/f']);
  const walk = (maxDirs: number) =>
    walkBreadthFirst(
      { abs: root },
      {
        maxDirs,
        batch: 2,
        read: async (frame) => fs.readdirSync(frame.abs, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name)),
        visit: (frame, entries) => entries.filter((e) => e.isDirectory()).map((e) => ({ abs: path.join(frame.abs, e.name) })),
      },
    );
  const all = await walk(10);
  assert.deepEqual(
    all.visited.map((f) => path.relative(root, f.abs)),
    ['', 'a', 'z', path.join('a', 'b'), path.join('a', 'b', 'c')],
  );
  assert.equal(all.limited, false);
  const cut = await walk(3);
  assert.deepEqual(
    cut.visited.map((f) => path.relative(root, f.abs)),
    ['', 'a', 'z'],
  );
  assert.equal(cut.limited, true);
});

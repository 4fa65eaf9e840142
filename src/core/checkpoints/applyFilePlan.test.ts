import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyFilePlan } from './applyFilePlan';
import { exists, read, writeTree } from '../../../test/support/gitTestSupport';

let tmp: string;
let root: string;
let src: string;
let scratch: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-apply-'));
  root = path.join(tmp, 'root');
  src = path.join(tmp, 'src');
  scratch = path.join(tmp, 'scratch');
  for (const d of [root, src, scratch]) fs.mkdirSync(d);
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('applyFilePlan', () => {
  test('deletes, writes, creates parents and prunes emptied directories', () => {
    writeTree(root, { 'keep.txt': 'old\n', 'gone/deep/x.txt': 'x\n', 'was-dir/inner.txt': 'i\n' });
    writeTree(src, { 'keep.txt': 'new\n', 'made/y.txt': 'y\n', 'was-dir': 'now a file\n' });
    const result = applyFilePlan(
      root,
      {
        writes: [
          { rel: 'keep.txt', source: path.join(src, 'keep.txt') },
          { rel: 'made/y.txt', source: path.join(src, 'made/y.txt'), mode: 0o700 },
          { rel: 'was-dir', source: path.join(src, 'was-dir') },
        ],
        deletes: ['gone/deep/x.txt', 'was-dir/inner.txt', 'not-there.txt'],
      },
      { scratchDir: scratch, consumeSources: false },
    );
    assert.deepEqual(result, { written: ['keep.txt', 'made/y.txt', 'was-dir'], removed: ['gone/deep/x.txt', 'was-dir/inner.txt'] });
    assert.equal(read(root, 'keep.txt'), 'new\n');
    assert.equal(read(root, 'made/y.txt'), 'y\n');
    assert.equal(fs.statSync(path.join(root, 'made/y.txt')).mode & 0o777, 0o700);
    assert.equal(read(root, 'was-dir'), 'now a file\n');
    assert.equal(exists(root, 'gone'), false);
    assert.equal(read(src, 'keep.txt'), 'new\n', 'sources are copied, not consumed');
  });

  test('a failure part-way rolls every change back', () => {
    writeTree(root, { 'a.txt': 'a-old\n', 'gone.txt': 'still here\n', blocker: 'a file where a directory is needed\n' });
    writeTree(src, { 'a.txt': 'a-new\n', 'n.txt': 'n\n', 'x.txt': 'x\n' });
    assert.throws(
      () =>
        applyFilePlan(
          root,
          {
            writes: [
              { rel: 'a.txt', source: path.join(src, 'a.txt') },
              { rel: 'sub/n.txt', source: path.join(src, 'n.txt') },
              { rel: 'blocker/x.txt', source: path.join(src, 'x.txt') },
            ],
            deletes: ['gone.txt'],
          },
          { scratchDir: scratch, consumeSources: false },
        ),
      /rolled back: cannot restore blocker\/x\.txt: blocker is not a directory/,
    );
    assert.equal(read(root, 'a.txt'), 'a-old\n');
    assert.equal(read(root, 'gone.txt'), 'still here\n');
    assert.equal(exists(root, 'sub'), false);
    assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt', 'blocker', 'gone.txt']);
  });
});

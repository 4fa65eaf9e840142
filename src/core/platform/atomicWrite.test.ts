import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomicWrite';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('writeFileAtomic', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('replaces the file through a rename: a reader holding the old inode keeps the old content', async () => {
    const abs = ws.write('f.txt', 'old');
    const before = fs.statSync(abs).ino;
    await writeFileAtomic(abs, 'new ✓');
    assert.equal(fs.readFileSync(abs, 'utf8'), 'new ✓');
    assert.notEqual(fs.statSync(abs).ino, before);
    assert.deepEqual(fs.readdirSync(ws.root), ['f.txt']);
  });

  test('keeps permission bits, even ones the umask would strip', async () => {
    const abs = ws.write('x.sh', '');
    fs.chmodSync(abs, 0o777);
    await writeFileAtomic(abs, 'echo');
    assert.equal(fs.statSync(abs).mode & 0o777, 0o777);
  });

  test('fails without leaving a temp file when the directory is missing', async () => {
    await assert.rejects(writeFileAtomic(path.join(ws.root, 'missing', 'f.txt'), 'x'), { code: 'ENOENT' });
    assert.deepEqual(fs.readdirSync(ws.root), []);
  });
});

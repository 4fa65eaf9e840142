import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { isRestrictedPath, PathError, resolveWorkspaceEntry, resolveWorkspacePath, toWorkspaceRelative } from './workspace';

describe('resolveWorkspacePath', () => {
  let ws: TestWorkspace;
  let outside: string;
  beforeEach(() => {
    ws = makeTestWorkspace();
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catalyst-outside-')));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  });
  afterEach(() => {
    ws.cleanup();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  test('resolves existing files and non-existing nested paths inside the workspace', () => {
    ws.write('src/a.ts', 'x');
    assert.equal(resolveWorkspacePath(ws.root, 'src/a.ts'), path.join(ws.root, 'src/a.ts'));
    assert.equal(resolveWorkspacePath(ws.root, './src/./a.ts'), path.join(ws.root, 'src/a.ts'));
    assert.equal(resolveWorkspacePath(ws.root, 'new/deeper/file.txt'), path.join(ws.root, 'new/deeper/file.txt'));
    assert.equal(resolveWorkspacePath(ws.root, '.'), ws.root);
  });

  test('rejects "..", absolute paths, "~" and NUL bytes', () => {
    for (const bad of ['../x', 'src/../../x', 'a/..', '/etc/passwd', path.join(ws.root, 'a.txt'), '~', '~/x', 'a\0b']) {
      assert.throws(() => resolveWorkspacePath(ws.root, bad), PathError, bad);
    }
  });

  test('rejects a symlink pointing out of the workspace', () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    assert.throws(() => resolveWorkspacePath(ws.root, 'link.txt'), PathError);
  });

  test('rejects a path under a symlinked directory pointing out, even when the file does not exist yet', () => {
    fs.symlinkSync(outside, path.join(ws.root, 'linkdir'));
    assert.throws(() => resolveWorkspacePath(ws.root, 'linkdir/secret.txt'), PathError);
    assert.throws(() => resolveWorkspacePath(ws.root, 'linkdir/new/file.txt'), PathError);
  });

  test('rejects a dangling symlink that would write outside', () => {
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws.root, 'dangling'));
    assert.throws(() => resolveWorkspacePath(ws.root, 'dangling'), PathError);
  });

  test('follows symlinks that stay inside, to the real file', () => {
    ws.write('real/target.txt', 'x');
    fs.symlinkSync('real', path.join(ws.root, 'alias'));
    assert.equal(resolveWorkspacePath(ws.root, 'alias/target.txt'), path.join(ws.root, 'real/target.txt'));
  });

  test('resolveWorkspaceEntry keeps a final symlink unresolved but still confines its directory', () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    assert.equal(resolveWorkspaceEntry(ws.root, 'link.txt'), path.join(ws.root, 'link.txt'));
    fs.symlinkSync(outside, path.join(ws.root, 'linkdir'));
    assert.throws(() => resolveWorkspaceEntry(ws.root, 'linkdir/secret.txt'), PathError);
    assert.throws(() => resolveWorkspaceEntry(ws.root, '.'), PathError);
  });

  test('toWorkspaceRelative uses forward slashes and "." for the root', () => {
    assert.equal(toWorkspaceRelative(ws.root, path.join(ws.root, 'a', 'b.txt')), 'a/b.txt');
    assert.equal(toWorkspaceRelative(ws.root, ws.root), '.');
  });
});

describe('isRestrictedPath', () => {
  test('matches the upstream list at any depth, case-insensitively', () => {
    for (const p of [
      '.git',
      '.git/config',
      'sub/.git/HEAD',
      '.GIT/config',
      '.env',
      'app/.ENV',
      '.env.local',
      '.env.production',
      '.ssh/id_rsa',
      'home/.ssh/config',
      '.gnupg/x',
      'id_rsa',
      'keys/id_ed25519',
      '.bashrc',
      'u/.zshrc',
      '.profile',
      '.bash_profile',
      './/.git/config',
      'a/./.env',
      'a\\.ssh\\k',
    ]) {
      assert.equal(isRestrictedPath(p), true, p);
    }
  });

  test('does not match look-alikes', () => {
    for (const p of ['.github/workflows/ci.yml', 'mygit/file', '.envrc', '.env.example', 'src/env.ts', 'id_rsa.pub', 'README.md', '.']) {
      assert.equal(isRestrictedPath(p), false, p);
    }
  });
});

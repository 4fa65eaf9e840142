import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { isAnyFileProposalTool, isFileProposalTool, parseEditSpecs, proposeFileContent } from './proposal';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

test('write_file proposes its content, for a new or an existing file', () => {
  assert.deepEqual(proposeFileContent('write_file', { path: 'a', content: 'new\n' }, null), { ok: true, content: 'new\n' });
  assert.deepEqual(proposeFileContent('write_file', { path: 'a', content: '' }, 'old\n'), { ok: true, content: '' });
  assert.deepEqual(proposeFileContent('write_file', { path: 'a' }, 'old'), {
    ok: false,
    error: "'content' is required and must be a string",
  });
});

test('edit applies the edits in order to the current text, with every option', () => {
  const old = 'alpha beta\nalpha   gamma\n';
  const r = proposeFileContent(
    'edit',
    {
      path: 'f',
      edits: [
        { search: 'beta', replace: 'BETA' },
        { search: 'alpha gamma', replace: 'G', normalize_whitespace: true },
      ],
    },
    old,
  );
  assert.deepEqual(r, { ok: true, content: 'alpha BETA\nG\n' });
  assert.deepEqual(proposeFileContent('edit', { path: 'f', edits: [{ search: 'alpha', replace: 'A', replace_all: true }] }, old), {
    ok: true,
    content: 'A beta\nA   gamma\n',
  });
  const ambiguous = proposeFileContent('edit', { path: 'f', edits: [{ search: 'alpha', replace: 'A' }] }, old);
  assert.equal(ambiguous.ok, false);
  assert.deepEqual(proposeFileContent('edit', { path: 'src/x.ts', edits: [{ search: 'a', replace: 'b' }] }, null), {
    ok: false,
    error: 'src/x.ts does not exist; use write_file to create it',
  });
});

test('patch applies a unified diff, also to a file that does not exist yet', () => {
  const patch = '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n';
  assert.deepEqual(proposeFileContent('patch', { path: 'f', patch }, 'one\ntwo\n'), { ok: true, content: 'one\nTWO\n' });
  assert.deepEqual(proposeFileContent('patch', { path: 'n', patch: '--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+hi\n' }, null), {
    ok: true,
    content: 'hi\n',
  });
  assert.equal(proposeFileContent('patch', { path: 'f', patch }, 'something else\n').ok, false);
  assert.deepEqual(proposeFileContent('patch', { path: 'f', patch: '' }, 'x'), { ok: false, error: "'patch' must not be empty" });
});

test('parseEditSpecs validates shapes with numbered messages', () => {
  assert.equal(parseEditSpecs([]), "'edits' is required and must be a non-empty array of {search, replace}");
  assert.equal(parseEditSpecs([{ search: 'a', replace: 'b' }, { search: 'c' }]), `edit 2: 'replace' must be a string (use "" to delete)`);
  assert.equal(parseEditSpecs([{ search: 'a', replace: 'b', replace_all: 'yes' }]), "edit 1: 'replace_all' must be a boolean");
  assert.deepEqual(parseEditSpecs([{ search: 'a', replace: 'b' }]), [
    { search: 'a', replace: 'b', replace_all: false, normalize_whitespace: false },
  ]);
});

test("isFileProposalTool names exactly the three Catalyst file tools; isAnyFileProposalTool adds SCV's write", () => {
  const names = ['write_file', 'edit', 'patch', 'write', 'read', 'delete', 'bash'];
  assert.deepEqual(names.filter(isFileProposalTool), ['write_file', 'edit', 'patch']);
  assert.deepEqual(names.filter(isAnyFileProposalTool), ['write_file', 'edit', 'patch', 'write']);
});

test('SCV write: create makes a new file, replace rewrites an existing one', () => {
  assert.deepEqual(proposeFileContent('write', { path: 'n.txt', content: 'hi\n', mode: 'create' }, null), { ok: true, content: 'hi\n' });
  assert.deepEqual(proposeFileContent('write', { path: 'f.txt', content: '', mode: 'replace' }, 'old\n'), { ok: true, content: '' });
});

test('SCV write fails where SCV fails: create on an existing file, replace on a missing one', () => {
  assert.deepEqual(proposeFileContent('write', { path: 'f.txt', content: 'x', mode: 'create' }, ''), {
    ok: false,
    error: 'f.txt already exists, and SCV\'s write with mode "create" fails on an existing file',
  });
  assert.deepEqual(proposeFileContent('write', { path: 'n.txt', content: 'x', mode: 'replace' }, null), {
    ok: false,
    error: 'n.txt does not exist, and SCV\'s write with mode "replace" fails on a missing file',
  });
});

test('SCV write: arguments are validated (content, mode, expected_sha256 shape)', () => {
  assert.deepEqual(proposeFileContent('write', { path: 'f', mode: 'create' }, null), {
    ok: false,
    error: "'content' is required and must be a string",
  });
  assert.deepEqual(proposeFileContent('write', { path: 'f', content: 'x' }, null), {
    ok: false,
    error: '\'mode\' must be "create" or "replace"',
  });
  assert.deepEqual(proposeFileContent('write', { path: 'f', content: 'x', mode: 'overwrite' }, 'old'), {
    ok: false,
    error: '\'mode\' must be "create" or "replace"',
  });
  assert.deepEqual(proposeFileContent('write', { path: 'f', content: 'x', mode: 'replace', expected_sha256: 'abc' }, 'old'), {
    ok: false,
    error: "'expected_sha256' must be a hex SHA-256",
  });
});

test('SCV write: expected_sha256 matching the current text (any hex case) passes; a changed file is refused', () => {
  const old = 'héllo\r\nwörld\n';
  const args = { path: 'src/a.ts', content: 'new\n', mode: 'replace' };
  assert.deepEqual(proposeFileContent('write', { ...args, expected_sha256: sha256(old) }, old), { ok: true, content: 'new\n' });
  assert.deepEqual(proposeFileContent('write', { ...args, expected_sha256: sha256(old).toUpperCase() }, old), {
    ok: true,
    content: 'new\n',
  });
  assert.deepEqual(proposeFileContent('write', { ...args, expected_sha256: sha256(old) }, `${old}edited\n`), {
    ok: false,
    error: 'src/a.ts changed since the model read it (its SHA-256 no longer matches expected_sha256), so SCV would refuse this write',
  });
  assert.deepEqual(proposeFileContent('write', { ...args, expected_sha256: null }, 'anything'), { ok: true, content: 'new\n' });
});

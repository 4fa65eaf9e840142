import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFileProposalTool, parseEditSpecs, proposeFileContent } from './proposal';

test('write_file proposes its content, for a new or an existing file', () => {
  assert.deepEqual(proposeFileContent('write_file', { path: 'a', content: 'new\n' }, null), { ok: true, content: 'new\n' });
  assert.deepEqual(proposeFileContent('write_file', { path: 'a', content: '' }, 'old\n'), { ok: true, content: '' });
  assert.deepEqual(proposeFileContent('write_file', { path: 'a' }, 'old'), { ok: false, error: "'content' is required and must be a string" });
});

test('edit applies the edits in order to the current text, with every option', () => {
  const old = 'alpha beta\nalpha   gamma\n';
  const r = proposeFileContent('edit', { path: 'f', edits: [{ search: 'beta', replace: 'BETA' }, { search: 'alpha gamma', replace: 'G', normalize_whitespace: true }] }, old);
  assert.deepEqual(r, { ok: true, content: 'alpha BETA\nG\n' });
  assert.deepEqual(proposeFileContent('edit', { path: 'f', edits: [{ search: 'alpha', replace: 'A', replace_all: true }] }, old), { ok: true, content: 'A beta\nA   gamma\n' });
  const ambiguous = proposeFileContent('edit', { path: 'f', edits: [{ search: 'alpha', replace: 'A' }] }, old);
  assert.equal(ambiguous.ok, false);
  assert.deepEqual(proposeFileContent('edit', { path: 'src/x.ts', edits: [{ search: 'a', replace: 'b' }] }, null), { ok: false, error: 'src/x.ts does not exist; use write_file to create it' });
});

test('patch applies a unified diff, also to a file that does not exist yet', () => {
  const patch = '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n';
  assert.deepEqual(proposeFileContent('patch', { path: 'f', patch }, 'one\ntwo\n'), { ok: true, content: 'one\nTWO\n' });
  assert.deepEqual(proposeFileContent('patch', { path: 'n', patch: '--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+hi\n' }, null), { ok: true, content: 'hi\n' });
  assert.equal(proposeFileContent('patch', { path: 'f', patch }, 'something else\n').ok, false);
  assert.deepEqual(proposeFileContent('patch', { path: 'f', patch: '' }, 'x'), { ok: false, error: "'patch' must not be empty" });
});

test('parseEditSpecs validates shapes with numbered messages', () => {
  assert.equal(parseEditSpecs([]), "'edits' is required and must be a non-empty array of {search, replace}");
  assert.equal(parseEditSpecs([{ search: 'a', replace: 'b' }, { search: 'c' }]), `edit 2: 'replace' must be a string (use "" to delete)`);
  assert.equal(parseEditSpecs([{ search: 'a', replace: 'b', replace_all: 'yes' }]), "edit 1: 'replace_all' must be a boolean");
  assert.deepEqual(parseEditSpecs([{ search: 'a', replace: 'b' }]), [{ search: 'a', replace: 'b', replace_all: false, normalize_whitespace: false }]);
});

test('isFileProposalTool names exactly the three file tools', () => {
  assert.deepEqual(['write_file', 'edit', 'patch', 'delete', 'bash'].filter(isFileProposalTool), ['write_file', 'edit', 'patch']);
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeUnifiedDiff } from '../../protocol/edits';
import { buildProposal } from './proposalBuilder';

const json = (value: unknown) => JSON.stringify(value);
const FILE = 'one\ntwo\nthree\nfour\nfive\n';

describe('buildProposal: write_file', () => {
  test('a new file gets the content', () => {
    assert.deepEqual(buildProposal({ tool: 'write_file', argsJson: json({ path: 'n.txt', content: 'hi\n' }), currentText: null }), {
      ok: true,
      content: 'hi\n',
      source: 'tool_call',
    });
  });

  test('an overwrite replaces the whole text, even with an empty content', () => {
    assert.deepEqual(buildProposal({ tool: 'write_file', argsJson: json({ path: 'f', content: 'new\r\n' }), currentText: FILE }), {
      ok: true,
      content: 'new\r\n',
      source: 'tool_call',
    });
    const empty = buildProposal({ tool: 'write_file', argsJson: json({ path: 'f', content: '' }), currentText: FILE });
    assert.deepEqual(empty, { ok: true, content: '', source: 'tool_call' });
  });

  test('missing content: an error without a diff, the core diff when there is one', () => {
    const failed = buildProposal({ tool: 'write_file', argsJson: json({ path: 'f' }), currentText: FILE });
    assert.equal(failed.ok, false);
    assert.match(!failed.ok ? failed.error : '', /'content' is required/);
    assert.match(!failed.ok ? failed.error : '', /no diff/);
    const coreDiff = makeUnifiedDiff('f', FILE, 'replaced\n');
    const rebuilt = buildProposal({ tool: 'write_file', argsJson: json({ path: 'f' }), currentText: FILE, coreDiff });
    assert.equal(rebuilt.ok && rebuilt.content, 'replaced\n');
    assert.equal(rebuilt.ok && rebuilt.source, 'core_diff');
    assert.match((rebuilt.ok && rebuilt.note) || '', /'content' is required/);
  });
});

describe('buildProposal: SCV write', () => {
  const write = (args: Record<string, unknown>, currentText: string | null) =>
    buildProposal({ tool: 'write', argsJson: json({ path: 'src/a.txt', ...args }), currentText });

  test('create on a missing file and replace on an existing one give the content', () => {
    assert.deepEqual(write({ content: 'new\n', mode: 'create' }, null), { ok: true, content: 'new\n', source: 'tool_call' });
    assert.deepEqual(write({ content: 'new\n', mode: 'replace' }, FILE), { ok: true, content: 'new\n', source: 'tool_call' });
  });

  test('the cases SCV would fail are errors that say so, with no diff fallback to mention', () => {
    assert.deepEqual(write({ content: 'x', mode: 'create' }, FILE), {
      ok: false,
      error: 'src/a.txt already exists, and SCV\'s write with mode "create" fails on an existing file.',
    });
    assert.deepEqual(write({ content: 'x', mode: 'replace' }, null), {
      ok: false,
      error: 'src/a.txt does not exist, and SCV\'s write with mode "replace" fails on a missing file.',
    });
    const drift = write({ content: 'x', mode: 'replace', expected_sha256: '0'.repeat(64) }, FILE);
    assert.equal(drift.ok, false);
    assert.match(!drift.ok ? drift.error : '', /^src\/a\.txt changed since the model read it/);
  });

  test('bad JSON is reported for write as for the others', () => {
    const r = buildProposal({ tool: 'write', argsJson: '{"path":', currentText: null });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error : '', /not valid JSON/);
  });
});

describe('buildProposal: edit', () => {
  const edit = (edits: unknown[], currentText: string | null = FILE, coreDiff?: string) =>
    buildProposal({ tool: 'edit', argsJson: json({ path: 'src/f.txt', edits }), currentText, coreDiff });

  test('a single edit', () => {
    assert.deepEqual(edit([{ search: 'two\n', replace: 'TWO\n' }]), {
      ok: true,
      content: 'one\nTWO\nthree\nfour\nfive\n',
      source: 'tool_call',
    });
  });

  test('replace_all rewrites every match', () => {
    assert.deepEqual(edit([{ search: 'o', replace: '0', replace_all: true }]), {
      ok: true,
      content: '0ne\ntw0\nthree\nf0ur\nfive\n',
      source: 'tool_call',
    });
  });

  test('normalize_whitespace matches despite different spacing', () => {
    const r = edit([{ search: 'a   b\n    c', replace: 'X', normalize_whitespace: true }], 'start\n  a b\n  c\nend\n');
    assert.deepEqual(r, { ok: true, content: 'start\n  X\nend\n', source: 'tool_call' });
  });

  test('several edits apply in order, each to the result of the previous', () => {
    const r = edit([
      { search: 'two', replace: 'deux' },
      { search: 'deux\nthree', replace: 'deux\ntrois' },
      { search: 'five\n', replace: '' },
    ]);
    assert.deepEqual(r, { ok: true, content: 'one\ndeux\ntrois\nfour\n', source: 'tool_call' });
  });

  test('a CRLF file is edited with LF searches and keeps its line endings', () => {
    const r = edit([{ search: 'a\nb', replace: 'a\nB' }], 'a\r\nb\r\nc\r\n');
    assert.deepEqual(r, { ok: true, content: 'a\r\nB\r\nc\r\n', source: 'tool_call' });
  });

  test('search not found → the core diff is used, with a note saying why', () => {
    const intended = FILE.replace('three', 'THREE');
    const r = edit([{ search: 'tree', replace: 'THREE' }], FILE, makeUnifiedDiff('src/f.txt', FILE, intended));
    assert.equal(r.ok, true);
    if (!r.ok) return;
    assert.equal(r.content, intended);
    assert.equal(r.source, 'core_diff');
    assert.match(r.note ?? '', /search text not found/);
  });

  test('search not found and no usable diff → a clear error', () => {
    const r = edit([{ search: 'tree', replace: 'THREE' }]);
    assert.equal(r.ok, false);
    assert.match(
      !r.ok ? r.error : '',
      /^Cannot rebuild the proposed edit change: edit 1: search text not found.*\(and the approval carried no diff\)\.$/s,
    );
  });

  test('placeholder and truncated diffs are refused', () => {
    const placeholder =
      '--- a/src/f.txt\n+++ b/src/f.txt\n@@ -1,3000 +1,3000 @@\n… large change (3000 → 3000 lines); diff omitted for size …\n';
    const omitted = edit([{ search: 'tree', replace: 'X' }], FILE, placeholder);
    assert.equal(omitted.ok, false);
    assert.match(!omitted.ok ? omitted.error : '', /omitted for size/);
    const truncated = `${makeUnifiedDiff('src/f.txt', FILE, FILE.replace('three', 'THREE'))}… diff truncated …\n`;
    const cut = edit([{ search: 'tree', replace: 'X' }], FILE, truncated);
    assert.equal(cut.ok, false);
    assert.match(!cut.ok ? cut.error : '', /truncated/);
    const noHunks = edit([{ search: 'tree', replace: 'X' }], FILE, 'not a diff at all');
    assert.match(!noHunks.ok ? noHunks.error : '', /no hunks/);
  });

  test('a diff that does not apply to the current text is an error, not a guess', () => {
    const stale = makeUnifiedDiff('src/f.txt', 'other\ncontent\n', 'other\nCONTENT\n');
    const r = edit([{ search: 'tree', replace: 'X' }], FILE, stale);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error : '', /the core's diff does not apply/);
  });

  test('an ambiguous search without replace_all falls back too', () => {
    const intended = FILE.replace('one', 'ONE');
    const r = edit([{ search: 'o', replace: '0' }], FILE, makeUnifiedDiff('src/f.txt', FILE, intended));
    assert.equal(r.ok && r.source, 'core_diff');
    assert.match((r.ok && r.note) || '', /found 3 times/);
  });

  test('editing a file that does not exist names the path', () => {
    const r = edit([{ search: 'a', replace: 'b' }], null);
    assert.match(!r.ok ? r.error : '', /src\/f\.txt does not exist/);
  });

  test('the tool call tells the truth even when the core diff disagrees (args win)', () => {
    const r = edit([{ search: 'two\n', replace: 'TWO\n' }], FILE, makeUnifiedDiff('src/f.txt', FILE, 'something else\n'));
    assert.deepEqual(r, { ok: true, content: FILE.replace('two', 'TWO'), source: 'tool_call' });
  });
});

describe('buildProposal: patch', () => {
  const patch = (text: string, currentText: string | null = FILE, coreDiff?: string) =>
    buildProposal({ tool: 'patch', argsJson: json({ path: 'f', patch: text }), currentText, coreDiff });

  test('a normal patch', () => {
    const r = patch('--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n');
    assert.deepEqual(r, { ok: true, content: 'one\ntwo\nTHREE\nfour\nfive\n', source: 'tool_call' });
  });

  test('a zero-count insertion inserts after the given line', () => {
    assert.deepEqual(patch('@@ -2,0 +3,1 @@\n+inserted\n'), {
      ok: true,
      content: 'one\ntwo\ninserted\nthree\nfour\nfive\n',
      source: 'tool_call',
    });
    assert.deepEqual(patch('@@ -0,0 +1,1 @@\n+top\n'), { ok: true, content: `top\n${FILE}`, source: 'tool_call' });
  });

  test('a patch creating a new file', () => {
    assert.deepEqual(patch('--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n', null), {
      ok: true,
      content: 'a\nb\n',
      source: 'tool_call',
    });
  });

  test('a bad patch falls back to the core diff', () => {
    const intended = FILE.replace('four', 'FOUR');
    const r = patch('@@ -2,2 +2,2 @@\n nope\n-missing\n+x\n', FILE, makeUnifiedDiff('f', FILE, intended));
    assert.equal(r.ok && r.content, intended);
    assert.equal(r.ok && r.source, 'core_diff');
    assert.match((r.ok && r.note) || '', /does not apply/);
  });

  test('a bad patch without a diff is an error', () => {
    const r = patch('this is not a patch');
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error : '', /has no hunks/);
  });
});

describe('buildProposal: arguments', () => {
  test('bad JSON (e.g. the truncated preview) falls back to the core diff', () => {
    const intended = FILE.replace('one', 'uno');
    const truncated = '{"path":"f","edits":[{"search":"one","replace":"uno"…';
    const r = buildProposal({ tool: 'edit', argsJson: truncated, currentText: FILE, coreDiff: makeUnifiedDiff('f', FILE, intended) });
    assert.equal(r.ok && r.content, intended);
    assert.equal(r.ok && r.source, 'core_diff');
    assert.match((r.ok && r.note) || '', /not valid JSON/);
  });

  test('bad JSON without a diff is an error', () => {
    const r = buildProposal({ tool: 'write_file', argsJson: '{oops', currentText: null });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error : '', /not valid JSON/);
  });

  test('a non-object is refused; a double-encoded object is accepted', () => {
    const array = buildProposal({ tool: 'write_file', argsJson: '[1,2]', currentText: null });
    assert.match(!array.ok ? array.error : '', /not a JSON object/);
    const doubled = buildProposal({ tool: 'write_file', argsJson: json(json({ path: 'f', content: 'x' })), currentText: null });
    assert.deepEqual(doubled, { ok: true, content: 'x', source: 'tool_call' });
  });

  test('a new file from the core diff when the arguments are unreadable', () => {
    const r = buildProposal({ tool: 'write_file', argsJson: '', currentText: null, coreDiff: makeUnifiedDiff('n', '', 'a\nb\n') });
    assert.deepEqual(r.ok && [r.content, r.source], ['a\nb\n', 'core_diff']);
  });

  test('a CRLF file rebuilt from the core diff keeps its line endings', () => {
    const crlf = 'a\r\nb\r\nc\r\n';
    const r = buildProposal({ tool: 'edit', argsJson: '{', currentText: crlf, coreDiff: makeUnifiedDiff('f', crlf, 'a\r\nB\r\nc\r\n') });
    assert.equal(r.ok && r.content, 'a\r\nB\r\nc\r\n');
  });

  test('a tool that is not a file tool is refused', () => {
    const r = buildProposal({
      tool: 'bash',
      argsJson: json({ command: 'ls' }),
      currentText: null,
      coreDiff: makeUnifiedDiff('f', '', 'x\n'),
    });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error : '', /only write_file, edit, patch and SCV's write/);
  });
});

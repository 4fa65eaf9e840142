import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolItem } from '../../src/shared/sessionState';
import { prettyArgs, stringField, summarizeTool, toolStatusLabel, toolStatusTone, visibleProgress } from './toolSummary';
import { diffStats, parseDiffLines } from './diffLines';

test('file tools show their path; bash its command; rename both paths', () => {
  assert.deepEqual(summarizeTool('edit', '{"path":"src/a.ts","edits":[]}'), { icon: 'edit', detail: 'src/a.ts', path: 'src/a.ts' });
  assert.deepEqual(summarizeTool('bash', '{"command":"npm test\\nnpm run lint"}'), { icon: 'terminal', detail: 'npm test …' });
  assert.deepEqual(summarizeTool('rename', '{"from":"a.ts","to":"b.ts"}'), { icon: 'arrow-swap', detail: 'a.ts → b.ts', path: 'b.ts' });
  assert.deepEqual(summarizeTool('grep', '{"pattern":"TODO","path":"src"}'), { icon: 'search', detail: 'TODO in src' });
  assert.deepEqual(summarizeTool('mystery', '{}'), { icon: 'tools', detail: '' });
});

test("SCV's tools: write and read show their path, web_fetch its URL", () => {
  assert.deepEqual(summarizeTool('write', '{"path":"src/a.ts","content":"x","mode":"replace"}'), {
    icon: 'new-file',
    detail: 'src/a.ts',
    path: 'src/a.ts',
  });
  assert.deepEqual(summarizeTool('read', '{"path":"README.md"}'), { icon: 'file', detail: 'README.md', path: 'README.md' });
  assert.deepEqual(summarizeTool('web_fetch', '{"url":"https://example.com/a"}'), { icon: 'globe', detail: 'https://example.com/a' });
  assert.deepEqual(summarizeTool('web_search', '{"query":"node streams"}'), { icon: 'search', detail: 'node streams' });
});

test('progress lines show while the tool waits or runs, and give way to the output once it finished', () => {
  const tool = (status: ToolItem['status'], progress?: string[]): ToolItem => ({
    kind: 'tool',
    id: 't',
    name: 'bash',
    args: '{}',
    status,
    files: [],
    ...(progress ? { progress } : {}),
  });
  assert.deepEqual(visibleProgress(tool('running', ['compiling', 'linking'])), ['compiling', 'linking']);
  assert.deepEqual(visibleProgress(tool('pending', ['queued'])), ['queued']);
  assert.deepEqual(visibleProgress(tool('running')), []);
  for (const done of ['success', 'failed', 'denied', 'cancelled', 'timed_out'] as const)
    assert.deepEqual(visibleProgress(tool(done, ['compiling'])), [], done);
  // Same (empty) value each time: the card skips re-rendering.
  assert.equal(visibleProgress(tool('success', ['a'])), visibleProgress(tool('failed')));
});

test('arguments still streaming (incomplete JSON) are read leniently', () => {
  assert.deepEqual(summarizeTool('write_file', '{"path":"docs/rea'), { icon: 'new-file', detail: 'docs/rea', path: 'docs/rea' });
  assert.equal(stringField('{"command":"echo \\"hi\\" && ls', 'command'), 'echo "hi" && ls');
  assert.equal(stringField('{"command":"a\\', 'command'), 'a');
  assert.equal(stringField('{"path": 3}', 'path'), undefined);
  assert.equal(stringField('', 'path'), undefined);
});

test('prettyArgs indents valid JSON and leaves the rest alone', () => {
  assert.equal(prettyArgs('{"a":1}'), '{\n  "a": 1\n}');
  assert.equal(prettyArgs('{"a":'), '{"a":');
});

test('status labels and tones', () => {
  assert.equal(toolStatusLabel('timed_out'), 'timed out');
  assert.equal(toolStatusTone('success'), 'ok');
  assert.equal(toolStatusTone('failed'), 'error');
  assert.equal(toolStatusTone('running'), 'busy');
});

test('unified diff lines are classified, with file paths from the headers', () => {
  const lines = parseDiffLines('--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n\\ No newline at end of file\n');
  assert.deepEqual(
    lines.map((l) => l.kind),
    ['file', 'file', 'hunk', 'context', 'del', 'add', 'meta'],
  );
  assert.equal(lines[1].path, 'src/x.ts');
  assert.deepEqual(diffStats(lines), { added: 1, removed: 1 });
  assert.equal(parseDiffLines('--- /dev/null\n+++ b/new.txt\n')[0].path, undefined);
});

test("upstream's deferred tools show their key argument, each with an icon of its own", () => {
  assert.deepEqual(summarizeTool('git_commit', '{"message":"Fix the parser\\n\\nIt dropped the last token.","all":true}'), {
    icon: 'git-commit',
    detail: 'Fix the parser … · all tracked changes',
  });
  assert.deepEqual(summarizeTool('git_commit', '{"message":"Fix the par'), { icon: 'git-commit', detail: 'Fix the par' });
  assert.deepEqual(summarizeTool('git_diff', '{"path":"src/a.ts","staged":true}'), { icon: 'git-compare', detail: 'src/a.ts · staged' });
  assert.deepEqual(summarizeTool('git_diff', '{}'), { icon: 'git-compare', detail: '' });
  assert.deepEqual(summarizeTool('git_log', '{"limit":5}'), { icon: 'history', detail: 'last 5' });
  assert.deepEqual(summarizeTool('git_status', '{"path":"src"}'), { icon: 'source-control', detail: 'src' });
  assert.deepEqual(summarizeTool('git_add', '{"paths":["a.ts","b.ts"]}'), { icon: 'diff-added', detail: 'a.ts, b.ts' });
  assert.deepEqual(summarizeTool('load_tools', '{"tools":["git","diagnostics"],"tool":"bulk"}'), {
    icon: 'extensions',
    detail: 'git, diagnostics, bulk',
  });
  assert.deepEqual(summarizeTool('memory', '{"action":"save","name":"test-command","content":"npm test"}'), {
    icon: 'bookmark',
    detail: 'save test-command',
  });
  assert.deepEqual(summarizeTool('memory', '{"action":"list"}'), { icon: 'bookmark', detail: 'list' });
  assert.deepEqual(summarizeTool('finish', '{}'), { icon: 'pass', detail: '' });
  assert.deepEqual(summarizeTool('finish', '{"summary":"Renamed everywhere"}'), { icon: 'pass', detail: 'Renamed everywhere' });
  assert.deepEqual(summarizeTool('workspace_activity', '{}'), { icon: 'pulse', detail: '' });
});

test('diagnostics names its path, and the checker once its output does', () => {
  assert.deepEqual(summarizeTool('diagnostics', '{"path":"web"}'), { icon: 'warning', detail: 'web' });
  assert.deepEqual(summarizeTool('diagnostics', '{"path":"web"}', 'tsc --noEmit\n(no diagnostics — clean)'), {
    icon: 'warning',
    detail: 'tsc --noEmit in web',
  });
  assert.deepEqual(summarizeTool('diagnostics', '{}', 'cargo check\nerror[E0308]'), { icon: 'warning', detail: 'cargo check' });
  assert.deepEqual(summarizeTool('diagnostics', '{}', 'diagnostics aborted'), { icon: 'warning', detail: '' });
});

test('a bulk call counts its entries and names them; nothing while its arguments stream', () => {
  const rename = [{ search: 'a', replace: 'b' }];
  assert.deepEqual(
    summarizeTool(
      'bulk_edit',
      JSON.stringify({
        edits: [
          { path: 'a.ts', edits: rename },
          { path: 'b.ts', edits: rename },
        ],
      }),
    ),
    { icon: 'replace-all', detail: '2 files: a.ts, b.ts' },
  );
  assert.deepEqual(summarizeTool('bulk_write', JSON.stringify({ files: [{ path: 'x.md', content: '# x' }] })), {
    icon: 'save-all',
    detail: '1 file: x.md',
  });
  assert.deepEqual(summarizeTool('bulk_read', '{"paths":["a.ts","b.ts","c.ts"]}'), { icon: 'files', detail: '3 files: a.ts, b.ts, c.ts' });
  assert.deepEqual(
    summarizeTool(
      'bulk',
      JSON.stringify({
        calls: [
          { name: 'read_file', args: {} },
          { name: 'bash', args: {} },
        ],
      }),
    ),
    { icon: 'layers', detail: '2 calls: read_file, bash' },
  );
  assert.deepEqual(summarizeTool('bulk_edit', '{"edits":[{"path":"a.ts"'), { icon: 'replace-all', detail: '' });
});

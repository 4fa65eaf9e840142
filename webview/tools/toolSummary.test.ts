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
  assert.deepEqual(summarizeTool('write', '{"path":"src/a.ts","content":"x","mode":"replace"}'), { icon: 'new-file', detail: 'src/a.ts', path: 'src/a.ts' });
  assert.deepEqual(summarizeTool('read', '{"path":"README.md"}'), { icon: 'file', detail: 'README.md', path: 'README.md' });
  assert.deepEqual(summarizeTool('web_fetch', '{"url":"https://example.com/a"}'), { icon: 'globe', detail: 'https://example.com/a' });
  assert.deepEqual(summarizeTool('web_search', '{"query":"node streams"}'), { icon: 'search', detail: 'node streams' });
});

test('progress lines show while the tool waits or runs, and give way to the output once it finished', () => {
  const tool = (status: ToolItem['status'], progress?: string[]): ToolItem => ({ kind: 'tool', id: 't', name: 'bash', args: '{}', status, files: [], ...(progress ? { progress } : {}) });
  assert.deepEqual(visibleProgress(tool('running', ['compiling', 'linking'])), ['compiling', 'linking']);
  assert.deepEqual(visibleProgress(tool('pending', ['queued'])), ['queued']);
  assert.deepEqual(visibleProgress(tool('running')), []);
  for (const done of ['success', 'failed', 'denied', 'cancelled', 'timed_out'] as const) assert.deepEqual(visibleProgress(tool(done, ['compiling'])), [], done);
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
  assert.deepEqual(lines.map((l) => l.kind), ['file', 'file', 'hunk', 'context', 'del', 'add', 'meta']);
  assert.equal(lines[1].path, 'src/x.ts');
  assert.deepEqual(diffStats(lines), { added: 1, removed: 1 });
  assert.equal(parseDiffLines('--- /dev/null\n+++ b/new.txt\n')[0].path, undefined);
});

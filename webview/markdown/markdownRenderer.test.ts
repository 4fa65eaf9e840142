import { test } from 'node:test';
import assert from 'node:assert/strict';
import { highlightCode } from './highlight';
import { renderMarkdown } from './markdownRenderer';

test('raw HTML and script tags are escaped, never emitted as elements', () => {
  const html = renderMarkdown('Hi <script>alert(1)</script> and <img src=x onerror=alert(1)>\n\n<div onclick="x()">block</div>');
  assert.ok(!/<script/i.test(html), html);
  assert.ok(!/<img/i.test(html), html);
  assert.ok(!/<div onclick/i.test(html), html);
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
});

test('javascript:, vbscript:, data: and file: links are not rendered as links', () => {
  for (const href of [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'file:///etc/passwd',
  ]) {
    const html = renderMarkdown(`[click](${href})`);
    assert.ok(!/<a /.test(html), `${href} → ${html}`);
  }
});

test('attribute injection through a link title or href stays inside the quoted attribute', () => {
  const html = renderMarkdown('[x](https://e.com/" onmouseover="alert(1) "title")');
  assert.ok(!/ onmouseover="/.test(html), html);
});

test('images are not rendered (no requests to model-chosen URLs)', () => {
  const html = renderMarkdown('![alt](https://evil.example/track.png)');
  assert.ok(!/<img/i.test(html), html);
});

test('code inside fences is escaped and highlighted with the given highlighter, with copy and insert buttons', () => {
  const html = renderMarkdown('```ts\nconst a: string = "<b>";\n```', highlightCode);
  assert.ok(html.includes('data-testid="code-block"'));
  assert.ok(html.includes('data-code-action="copy"') && html.includes('data-code-action="insert"'));
  assert.ok(html.includes('hljs-keyword'), 'typescript is highlighted');
  assert.ok(html.includes('&lt;b&gt;') && !html.includes('<b>'));
});

test('without highlighting, code is plain escaped text; unknown languages stay plain', () => {
  const plain = renderMarkdown('```ts\nconst a = 1 < 2;\n```');
  assert.ok(!plain.includes('hljs-keyword') && plain.includes('1 &lt; 2'));
  const unknown = renderMarkdown('```brainfuck\n<script>\n```');
  assert.ok(unknown.includes('&lt;script&gt;') && !unknown.includes('<script>'));
  assert.ok(unknown.includes('<span class="code-lang">brainfuck</span>'));
});

test('a fence info string cannot break out of its attribute or element', () => {
  const html = renderMarkdown('```"><script>alert(1)</script>\ncode\n```');
  assert.ok(!/<script/i.test(html), html);
});

test('linkify takes URLs with a scheme but not bare file names', () => {
  const html = renderMarkdown('See https://example.com/docs and main.rs or README.md');
  assert.ok(html.includes('<a href="https://example.com/docs"'));
  assert.ok(!html.includes('http://main.rs') && !html.includes('http://README.md'), html);
});

test('relative links keep their href and get a title for hover', () => {
  const html = renderMarkdown('[the file](src/app.ts#L10)');
  assert.ok(html.includes('<a href="src/app.ts#L10" title="src/app.ts#L10">the file</a>'), html);
});

test('GFM tables and strikethrough render', () => {
  const html = renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~');
  assert.ok(html.includes('<table>') && html.includes('<s>gone</s>'));
});

test('plain code in a known language is marked for the idle-time highlighter; unknown languages are not', () => {
  assert.ok(renderMarkdown('```TS\nlet a = 1;\n```').includes('<code class="hljs" data-lang="ts">'));
  assert.ok(!renderMarkdown('```nolang\nx\n```').includes('data-lang'));
  assert.ok(!renderMarkdown('```ts\nlet a = 1;\n```', highlightCode).includes('data-lang'), 'already highlighted');
});

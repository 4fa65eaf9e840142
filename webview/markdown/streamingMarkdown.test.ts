import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockSplitter, splitMarkdownBlocks } from './streamingMarkdown';

test('splits at blank lines followed by an unindented line', () => {
  assert.deepEqual(splitMarkdownBlocks('# Title\n\nFirst para\nstill first.\n\nSecond para.'), [
    '# Title\n\n',
    'First para\nstill first.\n\n',
    'Second para.',
  ]);
});

test('an indented line after a blank line continues the block (list item continuation)', () => {
  assert.deepEqual(splitMarkdownBlocks('- item\n\n  more of the item\n\nNext'), ['- item\n\n  more of the item\n\n', 'Next']);
});

test('never splits inside a fenced code block, even at blank lines', () => {
  const text = 'Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
  assert.deepEqual(splitMarkdownBlocks(text), ['Intro\n\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n', 'After']);
});

test('a top-level fence interrupting a paragraph starts its own block, and its closing line ends it', () => {
  assert.deepEqual(splitMarkdownBlocks('Run this:\n```sh\nnpm test\n```\nThen look.'), [
    'Run this:\n',
    '```sh\nnpm test\n```\n',
    'Then look.',
  ]);
});

test('tilde fences and longer closing fences close; a shorter one does not', () => {
  assert.deepEqual(splitMarkdownBlocks('~~~\na\n~~~~\nb'), ['~~~\na\n~~~~\n', 'b']);
  const split = new BlockSplitter().update('````\na\n```\nstill code\n');
  assert.equal(split.completed.length, 0);
  assert.deepEqual(split.openFence, { lang: '', body: 'a\n```\nstill code\n' });
});

test('an unclosed fence is reported as the open tail with its language and body', () => {
  const split = new BlockSplitter().update('Here:\n\n```python\nprint(1)\nprint(');
  assert.deepEqual(split.completed, ['Here:\n\n']);
  assert.equal(split.tail, '```python\nprint(1)\nprint(');
  assert.deepEqual(split.openFence, { lang: 'python', body: 'print(1)\nprint(' });
});

test('a fence inside a list item stays in the tail and is not an open top-level fence', () => {
  const split = new BlockSplitter().update('1. Install:\n   ```sh\n   npm i\n');
  assert.equal(split.openFence, undefined);
  assert.equal(split.tail, '1. Install:\n   ```sh\n   npm i\n');
});

test('streaming: completed blocks are stable and equal the one-shot split, whatever the chunking', () => {
  const text = '# Plan\n\nStep one.\n\n```js\nlet x = 1;\n\nx++;\n```\n\n- a\n- b\n\n  continued\n\nDone.\n';
  const oneShot = splitMarkdownBlocks(text);
  for (const chunk of [1, 2, 3, 7, 50]) {
    const splitter = new BlockSplitter();
    let seen: string[] = [];
    let last: ReturnType<BlockSplitter['update']> | undefined;
    for (let i = chunk; i < text.length + chunk; i += chunk) {
      last = splitter.update(text.slice(0, i));
      assert.equal(last.reset, false);
      assert.deepEqual(last.completed.slice(0, seen.length), seen, 'completed blocks never change');
      seen = [...last.completed];
    }
    const all = last!.tail.trim() ? [...last!.completed, last!.tail] : [...last!.completed];
    assert.deepEqual(all, oneShot, `chunk size ${chunk}`);
  }
});

test('a boundary is known as soon as the first character of the next block arrives', () => {
  const splitter = new BlockSplitter();
  assert.deepEqual(splitter.update('Para one.\n\n').completed, []);
  assert.deepEqual(splitter.update('Para one.\n\nP').completed, ['Para one.\n\n']);
  assert.equal(splitter.update('Para one.\n\nPara two').tail, 'Para two');
});

test('text that is not an extension of the previous one starts over', () => {
  const splitter = new BlockSplitter();
  splitter.update('A\n\nB');
  const split = splitter.update('X\n\nY');
  assert.equal(split.reset, true);
  assert.deepEqual(split.completed, ['X\n\n']);
  assert.equal(split.tail, 'Y');
});

test('CRLF line endings are handled like LF', () => {
  assert.deepEqual(splitMarkdownBlocks('A\r\n\r\n```\r\ncode\r\n```\r\nB'), ['A\r\n\r\n', '```\r\ncode\r\n```\r\n', 'B']);
});

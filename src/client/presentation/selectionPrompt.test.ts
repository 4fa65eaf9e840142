import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPathMention, formatSelectionForPrompt, selectionLineRange } from './selectionPrompt';

describe('formatSelectionForPrompt', () => {
  test('mentions the path and line range, then fences the code with its language', () => {
    const text = formatSelectionForPrompt({
      relativePath: 'src/a.ts',
      startLine: 10,
      endLine: 12,
      languageId: 'typescript',
      text: 'const a = 1;\nconst b = 2;\nconst c = 3;',
    });
    assert.equal(text, '@src/a.ts:10-12\n```typescript\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```\n');
  });

  test('a single line shows one number; a trailing newline is not doubled', () => {
    const text = formatSelectionForPrompt({ relativePath: 'a.py', startLine: 3, endLine: 3, languageId: 'python', text: 'x = 1\n' });
    assert.equal(text, '@a.py:3\n```python\nx = 1\n```\n');
  });

  test('the fence is longer than any backtick run inside the code', () => {
    const text = formatSelectionForPrompt({
      relativePath: 'README.md',
      startLine: 1,
      endLine: 3,
      languageId: 'markdown',
      text: '```ts\nx\n````',
    });
    assert.ok(text.includes('\n`````markdown\n'));
    assert.ok(text.endsWith('\n`````\n'));
  });

  test('maps VS Code language ids to fence names and drops unsafe ones', () => {
    const lang = (languageId: string) =>
      formatSelectionForPrompt({ relativePath: 'f', startLine: 1, endLine: 1, languageId, text: 'x' }).split('\n')[1];
    assert.equal(lang('typescriptreact'), '```tsx');
    assert.equal(lang('shellscript'), '```bash');
    assert.equal(lang('plaintext'), '```');
    assert.equal(lang('weird lang`'), '```');
  });
});

describe('formatPathMention', () => {
  test('quotes paths with whitespace', () => {
    assert.equal(formatPathMention('src/main.ts'), '@src/main.ts');
    assert.equal(formatPathMention('docs/my notes.md'), '@"docs/my notes.md"');
  });
});

describe('selectionLineRange', () => {
  test('is 1-based and inclusive', () => {
    assert.deepEqual(selectionLineRange({ line: 4, character: 2 }, { line: 6, character: 5 }), { startLine: 5, endLine: 7 });
  });

  test('a selection ending at column 0 of a later line excludes that line', () => {
    assert.deepEqual(selectionLineRange({ line: 4, character: 0 }, { line: 7, character: 0 }), { startLine: 5, endLine: 7 });
  });

  test('an empty selection at column 0 stays on its line', () => {
    assert.deepEqual(selectionLineRange({ line: 2, character: 0 }, { line: 2, character: 0 }), { startLine: 3, endLine: 3 });
  });
});

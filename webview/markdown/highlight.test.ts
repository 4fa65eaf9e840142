import { test } from 'node:test';
import assert from 'node:assert/strict';
import hljs from 'highlight.js/lib/core';
import { highlightCode } from './highlight';
import { KNOWN_LANGUAGES, isKnownLanguage } from './languages';

test("the chat's list of known languages is exactly the highlighter's names and aliases", () => {
  const registered = new Set<string>();
  for (const name of hljs.listLanguages()) {
    registered.add(name);
    for (const alias of hljs.getLanguage(name)?.aliases ?? []) registered.add(alias.toLowerCase());
  }
  assert.deepEqual([...KNOWN_LANGUAGES].sort(), [...registered].sort());
  assert.ok(isKnownLanguage('TS') && isKnownLanguage('py') && !isKnownLanguage('brainfuck') && !isKnownLanguage(''));
});

test('code is highlighted and escaped; unknown languages and oversized blocks stay plain escaped text', () => {
  const html = highlightCode('const a: string = "<b>";', 'ts');
  assert.ok(html.includes('hljs-keyword'), 'typescript is highlighted');
  assert.ok(html.includes('&lt;b&gt;') && !html.includes('<b>'));
  assert.equal(highlightCode('<script>', 'brainfuck'), '&lt;script&gt;');
  const huge = 'let a = 1;\n'.repeat(20_000);
  assert.ok(!highlightCode(huge, 'ts').includes('hljs-keyword'), 'a block above the size limit is shown plain');
});

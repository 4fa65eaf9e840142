import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHtml } from '../infra/html';

/**
 * A common subset only: each language adds to the highlighter's bundle (dist/highlighter.js, loaded on the first code
 * block). Aliases (ts, py, sh, html…) come with them; languages.ts lists them all for the chat.
 */
const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Above this size a block is shown plain: highlighting it would be a long task. */
const MAX_HIGHLIGHT_CHARS = 200_000;

/** Highlighted HTML for `code` in `lang`, or the escaped code when the language is unknown or the block too large. */
export function highlightCode(code: string, lang: string): string {
  const language = lang ? hljs.getLanguage(lang.toLowerCase()) : undefined;
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return escapeHtml(code);
  return hljs.highlight(code, { language: lang.toLowerCase(), ignoreIllegals: true }).value;
}

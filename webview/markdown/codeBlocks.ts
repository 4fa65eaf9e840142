import { escapeHtml } from '../infra/html';
import type { CodeHighlighter } from './highlighterLoader';
import { isKnownLanguage } from './languages';
import { TEST_IDS } from '../../src/shared/webviewMessages';

export type CodeAction = 'copy' | 'insert';

/**
 * The HTML of a code block: a header with the language and Copy / Insert-at-cursor buttons, then the code. The buttons
 * carry `data-code-action`; the transcript handles their clicks by delegation (no listener per block).
 */
export function codeBlockHtml(code: string, lang: string, highlight: CodeHighlighter | undefined): string {
  const body = highlight ? highlight(code, lang) : escapeHtml(code);
  // Plain code in a known language is marked for the idle-time highlighter (HighlightQueue).
  const deferred = !highlight && isKnownLanguage(lang) ? ` data-lang="${escapeHtml(lang.toLowerCase())}"` : '';
  return `<div class="code-block" data-testid="${TEST_IDS.codeBlock}">${codeHeaderHtml(lang)}<pre><code class="hljs"${deferred}>${body}</code></pre></div>`;
}

function codeHeaderHtml(lang: string): string {
  return (
    `<div class="code-header"><span class="code-lang">${escapeHtml(lang)}</span><span class="code-actions">` +
    actionButton('copy', 'copy', 'Copy code') +
    actionButton('insert', 'insert', 'Insert code at cursor') +
    '</span></div>'
  );
}

function actionButton(action: CodeAction, icon: string, label: string): string {
  return `<button type="button" class="icon-button" data-code-action="${action}" title="${label}" aria-label="${label}"><span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`;
}

/** A streaming (unclosed) code block: plain text the caller appends to, highlighted once the fence closes. */
export function createStreamingCodeBlock(doc: Document, lang: string): { root: HTMLElement; text: Text } {
  const root = doc.createElement('div');
  root.className = 'code-block streaming';
  root.dataset.testid = TEST_IDS.codeBlock;
  root.innerHTML = `${codeHeaderHtml(lang)}<pre><code class="hljs"></code></pre>`;
  const text = doc.createTextNode('');
  root.querySelector('code')!.appendChild(text);
  return { root, text };
}

/** The code a Copy / Insert button acts on: its block's text without the trailing newline. */
export function codeOfAction(button: Element): { action: CodeAction; code: string } | undefined {
  const action = button.getAttribute('data-code-action');
  const code = button.closest('.code-block')?.querySelector('code')?.textContent;
  if ((action !== 'copy' && action !== 'insert') || code == null) return undefined;
  return { action, code: code.replace(/\n$/, '') };
}

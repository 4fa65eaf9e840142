import { createStreamingCodeBlock } from './codeBlocks';
import { renderMarkdown } from './markdownRenderer';
import type { HighlightQueue } from './highlightQueue';
import { RenderCache } from './renderCache';
import { BlockSplitter } from './streamingMarkdown';
import { startsWithText } from '../../src/shared/statePatch';

/** Completed blocks of every message share one cache (about 4 MB of text). */
const completedBlocks = new RenderCache(2_000_000);
const renderPlain = (source: string) => renderMarkdown(source);

type Tail =
  | { kind: 'markdown'; el: HTMLElement; source: string; html: string }
  | { kind: 'fence'; el: HTMLElement; text: Text; lang: string; shown: string }
  | { kind: 'final'; el: HTMLElement; source: string };

/**
 * Renders a (possibly still streaming) Markdown text as blocks: completed blocks are rendered once, highlighted, and
 * kept as DOM; only the tail block is re-rendered per frame. An unclosed code fence in the tail is plain text that
 * grows by appending, highlighted once it closes.
 */
export class MarkdownView {
  readonly root: HTMLElement;
  private readonly splitter = new BlockSplitter();
  private rendered = 0;
  private tail: Tail | undefined;

  constructor(
    doc: Document,
    private readonly highlighter: HighlightQueue,
  ) {
    this.root = doc.createElement('div');
    this.root.className = 'markdown';
  }

  update(text: string, streaming: boolean): void {
    // No `content-visibility: auto` on completed blocks: measured in code-server, the intersection checks it costs for
    // hundreds of blocks per frame exceeded the layout it saved (appending a block only lays out that block anyway).
    const split = this.splitter.update(text);
    if (split.reset) this.clear();
    for (; this.rendered < split.completed.length; this.rendered++) this.appendCompleted(split.completed[this.rendered]);
    if (!streaming) this.showFinalTail(split.tail);
    else if (split.openFence) this.showOpenFence(split.openFence.lang, split.openFence.body);
    else this.showMarkdownTail(split.tail);
  }

  private clear(): void {
    this.root.textContent = '';
    this.rendered = 0;
    this.tail = undefined;
  }

  private appendCompleted(block: string): void {
    const el = this.blockElement(completedBlocks.get(block, renderPlain));
    this.highlighter.highlightWithin(el);
    if (this.tail) this.root.replaceChild(el, this.tail.el);
    else this.root.appendChild(el);
    this.tail = undefined;
  }

  private showFinalTail(source: string): void {
    if (this.tail?.kind === 'final' && this.tail.source === source) return;
    const el = source.trim() ? this.blockElement(completedBlocks.get(source, renderPlain)) : undefined;
    if (el) this.highlighter.highlightWithin(el);
    this.setTail(el ? { kind: 'final', el, source } : undefined);
  }

  /**
   * The growing block: rendered again per frame, plain (the code in it is highlighted once the block completes). When
   * its paragraph only grew by plain text, the text goes into the existing nodes instead: no new elements to style.
   */
  private showMarkdownTail(source: string): void {
    if (this.tail?.kind === 'markdown') {
      if (this.tail.source !== source) {
        const html = stripDeferred(renderMarkdown(source));
        if (!appendPlainText(this.tail.el, this.tail.html, html)) this.tail.el.innerHTML = html;
        this.tail.html = html;
      }
      this.tail.source = source;
      return;
    }
    const html = stripDeferred(renderMarkdown(source));
    this.setTail(source ? { kind: 'markdown', el: this.blockElement(html), source, html } : undefined);
  }

  private showOpenFence(lang: string, body: string): void {
    const tail = this.tail;
    if (tail?.kind === 'fence' && tail.lang === lang && startsWithText(body, tail.shown)) {
      if (body.length > tail.shown.length) tail.text.appendData(body.slice(tail.shown.length));
      tail.shown = body;
      return;
    }
    const doc = this.root.ownerDocument;
    const block = createStreamingCodeBlock(doc, lang);
    block.text.data = body;
    const el = doc.createElement('div');
    el.className = 'md-block';
    el.appendChild(block.root);
    this.setTail({ kind: 'fence', el, text: block.text, lang, shown: body });
  }

  private setTail(next: Tail | undefined): void {
    if (this.tail && next) this.root.replaceChild(next.el, this.tail.el);
    else if (this.tail) this.root.removeChild(this.tail.el);
    else if (next) this.root.appendChild(next.el);
    this.tail = next;
  }

  private blockElement(html: string): HTMLElement {
    const el = this.root.ownerDocument.createElement('div');
    el.className = 'md-block';
    el.innerHTML = html;
    return el;
  }
}

const PARAGRAPH_END = '</p>\n';

/**
 * When `next` is `prev` with plain text (no markup, no entity) added at the end of its last paragraph, adds that text to
 * the paragraph in `el` (rendered from `prev`) and returns true: the DOM is then the one `next` would give.
 */
function appendPlainText(el: HTMLElement, prev: string, next: string): boolean {
  if (!prev.endsWith(PARAGRAPH_END) || !next.endsWith(PARAGRAPH_END) || next.length <= prev.length) return false;
  const kept = prev.length - PARAGRAPH_END.length;
  if (!next.startsWith(prev.slice(0, kept))) return false;
  const added = next.slice(kept, next.length - PARAGRAPH_END.length);
  if (/[<>&"]/.test(added)) return false;
  const paragraph = el.lastElementChild;
  if (paragraph?.tagName !== 'P') return false;
  const last = paragraph.lastChild;
  if (last instanceof Text) last.appendData(added);
  else paragraph.append(added);
  return true;
}

/** The tail is replaced next frame: its code must not wait in the highlight queue. */
function stripDeferred(html: string): string {
  return html.replace(/ data-lang="[^"]*"/g, '');
}

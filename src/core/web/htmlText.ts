/**
 * A fetched HTML page as readable markdown-like text. htmlparser2 (a well-kept, forgiving HTML tokenizer) does the
 * parsing — malformed markup, entities, raw-text elements — and this streams its tags into text: headings as `#`, list
 * items as `-` / `1.`, links as `[text](url)` resolved against the page, `pre` kept verbatim, table cells split by
 * ` | `. What a reader never sees (scripts, styles, templates, the head) is dropped.
 */
import { Parser } from 'htmlparser2';

/** Elements whose content is not part of the readable page. */
const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'svg', 'iframe', 'object', 'head', 'canvas', 'select']);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'main',
  'nav',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'tr',
  'ul',
  'caption',
]);
const PARAGRAPHS = new Set(['p', 'blockquote', 'table', 'ul', 'ol', 'pre', 'figure', 'dl']);
const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

export function htmlToText(html: string, baseUrl?: string): string {
  const out = new TextBuilder();
  let skipDepth = 0;
  let preDepth = 0;
  const lists: { ordered: boolean; next: number }[] = [];
  const links: { start: number; href?: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (skipDepth > 0 || SKIPPED.has(name)) {
          if (SKIPPED.has(name)) skipDepth++;
          return;
        }
        if (name in HEADINGS) out.block(2, `${'#'.repeat(HEADINGS[name])} `);
        else if (name === 'pre') {
          out.block(2);
          preDepth++;
        } else if (name === 'li') {
          const list = lists.at(-1);
          out.block(1, `${'  '.repeat(Math.max(0, lists.length - 1))}${list?.ordered ? `${list.next++}.` : '-'} `);
        } else if (name === 'ul' || name === 'ol') {
          out.block(lists.length > 0 ? 1 : 2);
          lists.push({ ordered: name === 'ol', next: Number(attrs.start) || 1 });
        } else if (name === 'br') out.newline();
        else if (name === 'hr') out.block(2, '---');
        else if (name === 'td' || name === 'th') out.cell();
        else if (name === 'a') links.push({ start: out.length, href: linkTarget(attrs.href, baseUrl) });
        else if (BLOCKS.has(name)) out.block(PARAGRAPHS.has(name) ? 2 : 1);
      },
      ontext(text) {
        if (skipDepth === 0) out.text(text, preDepth > 0);
      },
      onclosetag(name, implied) {
        if (skipDepth > 0) {
          if (SKIPPED.has(name)) skipDepth--;
          return;
        }
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (name === 'ul' || name === 'ol') lists.pop();
        if (name === 'a') {
          const link = links.pop();
          if (link?.href && out.hasTextSince(link.start)) out.wrapSince(link.start, '[', `](${link.href})`);
        }
        if (name in HEADINGS || PARAGRAPHS.has(name)) out.block(2);
        else if (BLOCKS.has(name) || name === 'li') out.block(1);
        void implied;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return out.toString();
}

/** An http(s) link target, absolute; undefined for fragments, javascript:, mailto: and the like. */
function linkTarget(href: string | undefined, baseUrl: string | undefined): string | undefined {
  if (!href || href.startsWith('#')) return undefined;
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Upstream's test: the content type names HTML (text/html, application/xhtml+xml). */
export function isHtml(contentType: string): boolean {
  return contentType.includes('text/html') || contentType.startsWith('application/xhtml');
}

/** The text being built: whitespace collapsed outside `pre`, and at most one blank line between blocks. */
class TextBuilder {
  private parts = '';
  /** Newlines wanted before the next text (the block boundaries since the last text). */
  private pendingBreaks = 0;
  private pendingPrefix = '';
  private pendingSpace = false;

  get length(): number {
    return this.parts.length;
  }

  block(breaks: number, prefix = ''): void {
    if (this.parts.length > 0) this.pendingBreaks = Math.max(this.pendingBreaks, breaks);
    this.pendingSpace = false;
    if (prefix) this.pendingPrefix = prefix;
  }

  newline(): void {
    this.pendingBreaks = Math.max(this.pendingBreaks, 1);
    this.pendingSpace = false;
  }

  cell(): void {
    if (!this.parts.endsWith('\n') && this.parts.length > 0 && this.pendingBreaks === 0) this.pendingPrefix ||= ' | ';
  }

  text(raw: string, verbatim: boolean): void {
    if (verbatim) {
      this.flush();
      this.parts += raw;
      return;
    }
    const text = raw.replace(/\s+/g, ' ');
    if (text === ' ' || text === '') {
      if (text === ' ') this.pendingSpace = true;
      return;
    }
    const leading = text.startsWith(' ');
    const body = text.trim();
    if ((leading || this.pendingSpace) && this.pendingBreaks === 0 && !this.pendingPrefix && this.parts.length > 0) this.parts += ' ';
    this.flush();
    this.parts += body;
    this.pendingSpace = text.endsWith(' ');
  }

  hasTextSince(start: number): boolean {
    return this.parts.slice(start).trim().length > 0;
  }

  wrapSince(start: number, before: string, after: string): void {
    const head = this.parts.slice(0, start);
    const inner = this.parts.slice(start);
    const lead = inner.length - inner.trimStart().length;
    this.parts = `${head}${inner.slice(0, lead)}${before}${inner.slice(lead).trimEnd()}${after}`;
  }

  toString(): string {
    return this.parts
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }

  private flush(): void {
    if (this.pendingBreaks > 0 && this.parts.length > 0) this.parts += '\n'.repeat(this.pendingBreaks);
    this.parts += this.pendingPrefix;
    this.pendingBreaks = 0;
    this.pendingPrefix = '';
  }
}

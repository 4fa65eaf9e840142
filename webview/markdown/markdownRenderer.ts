import MarkdownIt from 'markdown-it';
import { codeBlockHtml } from './codeBlocks';
import type { CodeHighlighter } from './highlighterLoader';

/**
 * Markdown → HTML for model output, which is untrusted: raw HTML is off (escaped, never parsed), markdown-it's
 * `validateLink` drops `javascript:`/`vbscript:`/`file:`/`data:` links, and images are off (the CSP blocks remote
 * images anyway; a broken image per message would only add noise). Linkify only takes URLs with a scheme or `www.`:
 * fuzzy matching would turn file names like `main.rs` or `README.md` into web links.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
md.disable('image');

/** Passed through `md.render` to the fence rules. */
const highlighterOf = (env: Record<string, unknown> | undefined) => env?.highlight as CodeHighlighter | undefined;

md.renderer.rules.fence = (tokens, idx, _options, env) => {
  const token = tokens[idx];
  const lang = token.info.trim().split(/\s+/)[0] ?? '';
  return codeBlockHtml(token.content, lang, highlighterOf(env));
};
md.renderer.rules.code_block = (tokens, idx, _options, env) => codeBlockHtml(tokens[idx].content, '', highlighterOf(env));

const renderLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const href = tokens[idx].attrGet('href');
  if (href) tokens[idx].attrSet('title', href);
  return renderLinkOpen(tokens, idx, options, env, self);
};

/**
 * Renders one Markdown block. Without `highlight`, code is plain and blocks in a known language carry `data-lang` for
 * the idle-time highlighter (HighlightQueue), which the webview loads on the first code block.
 */
export function renderMarkdown(source: string, highlight?: CodeHighlighter): string {
  return md.render(source, { highlight });
}

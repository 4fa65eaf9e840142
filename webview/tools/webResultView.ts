import type { ToolItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren } from '../infra/dom';
import type { ItemContext } from '../transcript/itemView';
import { fetchedUrl, parseFetchOutput, parseSearchOutput } from './webResultModel';

export const WEB_RESULT_TOOLS: ReadonlySet<string> = new Set(['fetch', 'web_search']);

const EXTERNAL_URL_ATTR = 'data-external-url';

/**
 * Below a fetch or web_search card: the fetched URL as a link with the status and content type, the page's text
 * collapsible; or the query and each hit's title as a link with its snippet. A link click asks the host to open it
 * (the webview never navigates; the host accepts only http(s)).
 */
export class WebResultView {
  readonly root: HTMLElement;
  private rendered = '';

  constructor(private readonly ctx: ItemContext) {
    this.root = h('div', { class: 'web-result', 'data-testid': TEST_IDS.webResult, hidden: true });
    this.root.addEventListener('click', (event) => {
      const link = (event.target as Element | null)?.closest(`[${EXTERNAL_URL_ATTR}]`);
      if (!link) return;
      event.preventDefault();
      this.ctx.post({ type: 'openExternal', url: link.getAttribute(EXTERNAL_URL_ATTR)! });
    });
  }

  update(item: ToolItem): void {
    const key = `${item.name}\0${item.args.length}\0${item.output?.length ?? -1}\0${item.status}`;
    if (key === this.rendered) return;
    this.rendered = key;
    const content = item.name === 'fetch' ? fetchContent(item) : searchContent(item);
    this.root.hidden = content.length === 0;
    replaceChildren(this.root, ...content);
  }
}

function fetchContent(item: ToolItem): HTMLElement[] {
  const url = fetchedUrl(item.args);
  const result = parseFetchOutput(item.output);
  if (!url && !result) return [];
  const head = h(
    'div',
    { class: 'web-fetch-head' },
    codicon('globe'),
    url ? link(url, url) : null,
    result ? h('span', { class: 'web-fetch-status' }, result.status) : null,
    result?.contentType ? h('span', { class: 'web-fetch-type' }, result.contentType) : null,
  );
  if (!result) return [head];
  const notes = result.notes.map((note) => h('div', { class: 'web-fetch-note' }, note));
  const text = h('details', { class: 'web-fetch-text' }, h('summary', {}, 'Page text'), h('pre', {}, result.text));
  return [head, ...notes, text];
}

function searchContent(item: ToolItem): HTMLElement[] {
  const result = parseSearchOutput(item.output);
  if (!result) return [];
  const head = h(
    'div',
    { class: 'web-search-head' },
    codicon('search'),
    h('span', { class: 'web-search-query' }, result.query),
    h('span', { class: 'web-search-backend' }, result.backend),
  );
  const hits = h(
    'ol',
    { class: 'web-search-hits' },
    ...result.hits.map((hit) =>
      h(
        'li',
        { class: 'web-search-hit' },
        hit.url ? link(hit.title, hit.url) : h('span', { class: 'web-search-title' }, hit.title),
        h('div', { class: 'web-search-url' }, hit.rawUrl),
        hit.snippet ? h('div', { class: 'web-search-snippet' }, hit.snippet) : null,
      ),
    ),
  );
  return [head, hits];
}

function link(text: string, url: string): HTMLElement {
  return h('a', { href: url, [EXTERNAL_URL_ATTR]: url, title: url, 'data-testid': TEST_IDS.webLink, class: 'web-link' }, text);
}

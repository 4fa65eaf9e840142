// The web tools' cards in a real browser: web_search's hits as links with their snippets, fetch's URL, status and
// collapsible text; a click asks the host to open the URL and never navigates the webview.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { initialSessionState, type SessionState, type TranscriptItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { startWebviewHarness, type WebviewHarness, type WebviewPage } from './harness/webviewPage';

const SEARCH_OUTPUT =
  'Search: rust vec  (Exa API, 2 hit(s))\n\n' +
  '1. The Rust Programming Language\n   https://www.rust-lang.org/\n   Empowering everyone.\n\n' +
  '2. A file link\n   file:///etc/passwd\n   never a link\n\n';
const FETCH_OUTPUT = 'HTTP 200 OK  text/html; charset=utf-8\n...[body truncated at 1024 bytes]...\n# Rust Docs\n\nUse Vec.';

function stateWith(...items: TranscriptItem[]): SessionState {
  const s = initialSessionState('embedded');
  s.core = { kind: 'embedded', status: 'ready', capabilities: [] };
  s.anyLoggedIn = true;
  s.authed = true;
  s.items = items;
  return s;
}

describe('web tool cards (real Chromium)', { timeout: 120_000 }, () => {
  let harness: WebviewHarness;
  let webview: WebviewPage;

  before(async () => {
    harness = await startWebviewHarness();
  });
  afterEach(async () => {
    assert.deepEqual(webview.problems, []);
    await webview.close();
  });
  after(() => harness?.close());

  it('web_search: the query, each hit title as a link with its snippet; only http(s) URLs are links', async () => {
    webview = await harness.open();
    await webview.snapshot(
      stateWith({
        kind: 'tool',
        id: 'w1',
        name: 'web_search',
        args: '{"query":"rust vec"}',
        status: 'success',
        output: SEARCH_OUTPUT,
        files: [],
      }),
    );
    const result = webview.page.locator(`[data-testid="${TEST_IDS.webResult}"]`);
    await result.waitFor({ state: 'visible' });
    assert.equal(await result.locator('.web-search-query').textContent(), 'rust vec');
    const links = result.locator(`[data-testid="${TEST_IDS.webLink}"]`);
    assert.equal(await links.count(), 1, 'the file: URL is shown as text, not as a link');
    assert.equal(await links.first().textContent(), 'The Rust Programming Language');
    assert.equal(await links.first().getAttribute('href'), 'https://www.rust-lang.org/');
    assert.match((await result.textContent()) ?? '', /Empowering everyone\..*A file link.*file:\/\/\/etc\/passwd/);

    const before = webview.page.url();
    await links.first().click();
    const posted = await webview.nextPosted('openExternal');
    assert.equal(posted.url, 'https://www.rust-lang.org/');
    assert.equal(webview.page.url(), before, 'the webview did not navigate');
  });

  it('fetch: the URL as a link, the status and content type, the text collapsed until opened', async () => {
    webview = await harness.open();
    await webview.snapshot(
      stateWith({
        kind: 'tool',
        id: 'f1',
        name: 'fetch',
        args: '{"url":"https://doc.rust-lang.org/std/"}',
        status: 'success',
        output: FETCH_OUTPUT,
        files: [],
      }),
    );
    const result = webview.page.locator(`[data-testid="${TEST_IDS.webResult}"]`);
    await result.waitFor({ state: 'visible' });
    assert.equal(await result.locator(`[data-testid="${TEST_IDS.webLink}"]`).getAttribute('href'), 'https://doc.rust-lang.org/std/');
    assert.equal(await result.locator('.web-fetch-status').textContent(), '200 OK');
    assert.equal(await result.locator('.web-fetch-type').textContent(), 'text/html; charset=utf-8');
    assert.equal(await result.locator('.web-fetch-note').textContent(), 'body truncated at 1024 bytes');
    const text = result.locator('.web-fetch-text pre');
    assert.equal(await text.isVisible(), false, 'collapsed');
    await result.locator('.web-fetch-text summary').click();
    await text.waitFor({ state: 'visible' });
    assert.equal(await text.textContent(), '# Rust Docs\n\nUse Vec.');
  });
});

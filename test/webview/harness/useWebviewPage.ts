// The hooks every webview suite repeats: one harness (the bundle's server and Chromium) per suite, a fresh page per test,
// and after each test no problem in the page (CSP violation, console error, page error, failed request) and the page closed.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach } from 'node:test';
import { startWebviewHarness, type OpenOptions, type WebviewHarness, type WebviewPage } from './webviewPage';

/** Registers the hooks in the calling `describe`; `opened` receives each test's page before the test runs. */
export function useWebviewPage(opened: (webview: WebviewPage) => void, options: OpenOptions = {}): void {
  let harness: WebviewHarness | undefined;
  let webview: WebviewPage | undefined;
  before(async () => {
    harness = await startWebviewHarness();
  });
  beforeEach(async () => {
    webview = await harness!.open(options);
    opened(webview);
  });
  afterEach(async () => {
    try {
      assert.deepEqual(webview?.problems, [], 'CSP violations, console errors or page errors');
    } finally {
      await webview?.close();
    }
  });
  after(() => harness?.close());
}

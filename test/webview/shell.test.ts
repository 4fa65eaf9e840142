// The tier's own ground: the page under test is the extension's real HTML shell with its CSP in force. Were it served
// without the CSP (or with another), "no CSP violation" in every other suite would prove nothing.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { contentSecurityPolicy } from '../../src/client/chatView/webviewHtml';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { readyState } from './harness/states';
import { startWebviewHarness, type WebviewHarness, type WebviewPage } from './harness/webviewPage';

describe('the webview shell under test (real Chromium)', { timeout: 120_000 }, () => {
  let harness: WebviewHarness;
  let webview: WebviewPage;

  before(async () => {
    harness = await startWebviewHarness();
    webview = await harness.open();
  });
  afterEach(() => assert.deepEqual(webview.problems, [], 'CSP violations, console errors or page errors'));
  after(() => harness?.close());

  it("is the real shell: one script, carrying the nonce the CSP names, served from the webview's own origin", async () => {
    const shell = await webview.page.evaluate(() => {
      const d = (globalThis as any).document;
      const scripts = Array.from(d.scripts as ArrayLike<{ nonce: string; src: string }>);
      return {
        csp: d.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content,
        scripts: scripts.map((s) => ({ nonce: s.nonce, src: s.src })),
      };
    });
    assert.equal(shell.scripts.length, 1);
    assert.equal(shell.scripts[0].src, `${harness.server.origin}/webview.js`);
    assert.match(shell.scripts[0].nonce, /^[A-Za-z0-9_-]{16,}$/);
    assert.equal(shell.csp, contentSecurityPolicy(harness.server.origin, shell.scripts[0].nonce));
  });

  it('enforces the CSP: an inline script and an inline style are refused, and each refusal is reported', async () => {
    const seen = await webview.page.evaluate(
      () =>
        new Promise<{ directives: string[]; ran: boolean; styled: boolean }>((resolve) => {
          const g = globalThis as any;
          const d = g.document;
          const directives: string[] = [];
          d.addEventListener('securitypolicyviolation', (e: { effectiveDirective: string }) => {
            directives.push(e.effectiveDirective);
            if (directives.length === 2)
              resolve({
                directives: directives.sort(),
                ran: Boolean(g.__inlineRan),
                styled: g.getComputedStyle(d.body).color === 'rgb(255, 0, 0)',
              });
          });
          const script = d.createElement('script');
          script.textContent = 'window.__inlineRan = true;';
          d.body.appendChild(script);
          d.body.setAttribute('style', 'color: rgb(255, 0, 0)');
        }),
    );
    assert.deepEqual(seen, { directives: ['script-src-elem', 'style-src-attr'], ran: false, styled: false });
    const reported = webview.problems.splice(0).filter((p) => p.startsWith('CSP violation'));
    assert.equal(reported.length, 2, `the harness reported: ${reported.join(' | ')}`);
  });

  it('loads the code highlighter only with the first code block, as a second script with the same nonce', async () => {
    const scripts = () =>
      webview.page
        .evaluate(() =>
          Array.from((globalThis as any).document.scripts as ArrayLike<{ nonce: string; src: string }>).map((s) => ({
            nonce: s.nonce,
            src: s.src,
          })),
        )
        // The refused inline script of the test before stays in the page.
        .then((all) => all.filter((s) => s.src));
    await webview.snapshot(readyState([{ kind: 'user', id: 'u1', text: 'Hi', images: 0 }]));
    await webview.page.locator(`[data-testid="${TEST_IDS.userMessage}"]`).waitFor();
    const [bundle, ...others] = await scripts();
    assert.deepEqual(others, [], 'no code block yet: the bundle is the only script');
    const reply = { kind: 'assistant', id: 'a1', runId: 'r1', text: '```ts\nconst a = 1;\n```', thinking: '', streaming: false } as const;
    await webview.snapshot(readyState([{ kind: 'user', id: 'u1', text: 'Hi', images: 0 }, reply]));
    await webview.page.locator(`[data-testid="${TEST_IDS.codeBlock}"] .hljs-keyword`).waitFor();
    const highlighter = { nonce: bundle.nonce, src: `${harness.server.origin}/highlighter.js` };
    assert.deepEqual(await scripts(), [highlighter, bundle], 'added in the head, before the bundle at the end of the body');
  });
});

// Streaming into the transcript forces no synchronous layout (issue #14): while children stream into open rows and the
// list follows the end, nothing reads a size or a scroll position in the frame's render or a message handler — such a
// read after the DOM changed makes the browser lay out there and then, which in code-server's webview is costly.
// Heights come from the ResizeObserver, the scroll position from scroll events (the one place it is read).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { SessionState } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { fanOutItems, readyState } from './harness/states';
import type { WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

/** Wraps every layout-forcing getter in the page; each call records what was read and in which event (none: a frame). */
const COUNT_LAYOUT_READS = `(() => {
  const reads = (globalThis.__layoutReads = []);
  const note = (what) => reads.push(what + ' in ' + (globalThis.event ? globalThis.event.type : 'a frame or timer'));
  const wrapGetter = (proto, name) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, { ...d, get() { note(name); return d.get.call(this); } });
  };
  const wrapMethod = (owner, name) => {
    const f = owner[name];
    owner[name] = function (...args) { note(name); return f.apply(this, args); };
  };
  for (const n of ['scrollTop', 'scrollLeft', 'scrollHeight', 'scrollWidth', 'clientHeight', 'clientWidth', 'clientTop', 'clientLeft'])
    wrapGetter(Element.prototype, n);
  for (const n of ['offsetHeight', 'offsetWidth', 'offsetTop', 'offsetLeft', 'innerText']) wrapGetter(HTMLElement.prototype, n);
  wrapMethod(Element.prototype, 'getBoundingClientRect');
  wrapMethod(Element.prototype, 'getClientRects');
  wrapMethod(globalThis, 'getComputedStyle');
})();`;

const byTestId = (id: string) => `[data-testid="${id}"]`;
const row = (runId: string) => `${byTestId(TEST_IDS.subagentRow)}[data-run-id="${runId}"]`;
const PATCHES = 20;

function running(): SessionState {
  const s = readyState(fanOutItems());
  s.run = { status: 'running', runId: 'r1' };
  return s;
}

describe('streaming forces no synchronous layout (real Chromium)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;

  useWebviewPage(
    (opened) => {
      webview = opened;
      page = opened.page;
    },
    { viewport: { width: 420, height: 500 }, initScripts: [COUNT_LAYOUT_READS] },
  );

  it('two children streaming into open rows: no size or scroll read outside a scroll event, and the list follows the end', async () => {
    await webview.snapshot(running());
    for (const id of ['run-1-0', 'run-1-1']) {
      await page.locator(`${row(id)} summary`).click();
      await page.locator(`${row(id)} ${byTestId(TEST_IDS.assistantMessage)}`).waitFor();
    }
    const last = page.locator(`${row('run-1-1')} ${byTestId(TEST_IDS.assistantMessage)}`);
    await page.evaluate(() => ((globalThis as any).__layoutReads.length = 0));
    for (let k = 0; k < PATCHES; k++) {
      await webview.patch(
        { op: 'append', index: 6, field: 'text', text: `\n\nPart ${k} of the rename, **done** and checked.` },
        { op: 'append', index: 7, field: 'text', text: `\n\nImport ${k} updated, marker-${k}.` },
      );
      await last.getByText(`marker-${k}.`).waitFor();
    }
    const reads: string[] = await page.evaluate(() => (globalThis as any).__layoutReads);
    assert.deepEqual(
      reads.filter((r) => !r.endsWith(' in scroll')),
      [],
      'layout-forcing reads in a frame, a timer or a message handler',
    );
    const end = await page.evaluate((id) => {
      const s = (globalThis as any).document.querySelector(`[data-testid="${id}"]`);
      return { top: s.scrollTop, bottom: s.scrollHeight - s.scrollTop - s.clientHeight };
    }, TEST_IDS.transcript);
    assert.ok(end.top > 0, 'the rows outgrew the viewport, so following the end meant scrolling');
    assert.ok(end.bottom <= 1, `the list followed the end (${end.bottom}px short of it)`);
  });
});

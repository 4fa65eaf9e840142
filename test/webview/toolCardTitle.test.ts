// Card titles in a real browser at the sidebar's default width (issue #11): a tool name stays one word on one line —
// it once wrapped as "edi" / "t" beside "Approved with your edits" — and a long target beside it is cut with an ellipsis.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { initialSessionState, type SessionState, type TranscriptItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { startWebviewHarness, type WebviewHarness, type WebviewPage } from './harness/webviewPage';

const SIDEBAR_WIDTH = 300;
const LONG_PATH = 'src/features/workspace/indexing/incrementalSymbolIndexRebuilder.ts';
const DIFF = `--- a/${LONG_PATH}\n+++ b/${LONG_PATH}\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n export { a };\n`;
const EDIT_ARGS = JSON.stringify({ path: LONG_PATH, edits: [{ search: '1', replace: '2' }] });

function stateWith(item: TranscriptItem): SessionState {
  const s = initialSessionState('embedded');
  s.core = { kind: 'embedded', status: 'ready', capabilities: ['approval_edited_content'] };
  s.anyLoggedIn = true;
  s.authed = true;
  s.items = [item];
  return s;
}

interface TitleLayout {
  nameText: string;
  /** Line boxes the name's text occupies (distinct tops of its text's client rects). */
  nameLines: number;
  /** How far the name and the element beside it reach past the title row's right edge (≤ 0: inside). */
  overflowRight: number;
}

/** Lays out the title row `rowSelector` of the card `cardTestId`: its `nameSelector` element and everything beside it. */
async function titleLayout(page: Page, cardTestId: string, rowSelector: string, nameSelector: string): Promise<TitleLayout> {
  const row = page.locator(`[data-testid="${cardTestId}"] ${rowSelector}`);
  await row.locator(nameSelector).waitFor({ state: 'visible' });
  return row.evaluate((el, sel) => {
    const name = el.querySelector(sel)!;
    const range = (globalThis as any).document.createRange();
    range.selectNodeContents(name);
    const rects = Array.from(range.getClientRects() as ArrayLike<{ top: number; width: number }>);
    const tops = new Set(rects.filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    const rowRight = el.getBoundingClientRect().right;
    const right = Math.max(
      ...Array.from(el.children as ArrayLike<{ getBoundingClientRect(): { right: number } }>).map((c) => c.getBoundingClientRect().right),
    );
    return { nameText: name.textContent ?? '', nameLines: tops.size, overflowRight: right - rowRight };
  }, nameSelector);
}

describe('card titles at the sidebar width (real Chromium)', { timeout: 120_000 }, () => {
  let harness: WebviewHarness;
  let webview: WebviewPage;
  let page: Page;

  before(async () => {
    harness = await startWebviewHarness();
  });
  afterEach(async () => {
    assert.deepEqual(webview.problems, []);
    await webview.close();
  });
  after(() => harness?.close());

  async function render(item: TranscriptItem): Promise<void> {
    webview = await harness.open({ viewport: { width: SIDEBAR_WIDTH, height: 600 } });
    page = webview.page;
    await webview.snapshot(stateWith(item));
  }

  it('tool card: the name is whole on one line and the long path beside it is ellipsized', async () => {
    await render({ kind: 'tool', id: 'call_1', name: 'edit', args: EDIT_ARGS, status: 'success', diff: DIFF, files: [] });
    const layout = await titleLayout(page, TEST_IDS.toolCard, '.tool-header', '.tool-name');
    assert.equal(layout.nameText, 'edit');
    assert.equal(layout.nameLines, 1, `the tool name wraps over ${layout.nameLines} lines`);
    assert.ok(layout.overflowRight <= 0, `the title row overflows the card by ${layout.overflowRight}px`);
    const detail = await page.locator('.tool-detail').evaluate((el) => {
      const style = (globalThis as any).getComputedStyle(el);
      return {
        clipped: el.scrollWidth > el.clientWidth,
        overflow: style.overflowX,
        textOverflow: style.textOverflow,
        whiteSpace: style.whiteSpace,
        title: el.getAttribute('title'),
      };
    });
    assert.ok(detail.clipped, 'the path fits at this width: the check would prove nothing');
    assert.deepEqual([detail.overflow, detail.textOverflow, detail.whiteSpace], ['hidden', 'ellipsis', 'nowrap']);
    assert.equal(detail.title, LONG_PATH, 'the full path is in the tooltip');
  });

  it('approval card approved with edits for the session: the name is whole on one line beside the long state text', async () => {
    await render({
      kind: 'approval',
      id: 'apv-1-call_1',
      toolCallId: 'call_1',
      tool: 'edit',
      risk: 'destructive',
      args: EDIT_ARGS,
      diff: DIFF,
      createdAt: 0,
      state: 'approved',
      decision: 'allow_session',
      edited: true,
    });
    const layout = await titleLayout(page, TEST_IDS.approvalCard, '.approval-header', '.approval-title');
    assert.equal(layout.nameText, 'edit');
    assert.equal(layout.nameLines, 1, `the tool name wraps over ${layout.nameLines} lines`);
    assert.ok(layout.overflowRight <= 0, `the title row overflows the card by ${layout.overflowRight}px`);
    assert.equal(await page.locator('.approval-state').textContent(), 'Approved with your edits (for this session)');
  });
});

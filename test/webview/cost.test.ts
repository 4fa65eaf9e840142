// Cost in real Chromium, from the real shell under its CSP (issue #18): a finished turn's line under its last reply
// (cost, tokens, requests; no cost when a price is unknown), a finished child's own cost on its row, and the session's
// estimate in the header ("+" when some request had no known price).
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { AssistantItem, TranscriptItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { fanOutItems, readyState, subagentRun } from './harness/states';
import { startWebviewHarness, type WebviewHarness, type WebviewPage } from './harness/webviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;

function reply(id: string, text: string, turnCost?: AssistantItem['turnCost']): AssistantItem {
  return { kind: 'assistant', id, runId: id, text, thinking: '', streaming: false, ...(turnCost ? { turnCost } : {}) };
}

describe('cost in the chat (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let harness: WebviewHarness;
  let webview: WebviewPage;
  before(async () => {
    harness = await startWebviewHarness();
  });
  beforeEach(async () => {
    webview = await harness.open({ viewport: { width: 520, height: 1200 } });
  });
  afterEach(async () => {
    assert.deepEqual(webview.problems, [], 'CSP violations, console errors or page errors');
    await webview.close();
  });
  after(() => harness?.close());

  it('a priced turn shows its cost, tokens and requests; an unpriced one its tokens and no figure', async () => {
    const items: TranscriptItem[] = [
      { kind: 'user', id: 'u1', text: 'one', images: 0 },
      reply('a1', 'Priced answer.', { usd: 0.0123, requests: 2, tokensIn: 2300, tokensOut: 70 }),
      { kind: 'user', id: 'u2', text: 'two', images: 0 },
      reply('a2', 'Unpriced answer.', { usd: null, requests: 1, tokensIn: 500, tokensOut: 5 }),
      { kind: 'user', id: 'u3', text: 'three', images: 0 },
      reply('a3', 'Upstream core answer.', { usd: null, tokensIn: 800, tokensOut: 9 }),
    ];
    const s = readyState(items);
    s.usage = { tokensIn: 3600, tokensOut: 84, cachedTokens: 0, costUsd: 0.0123, costUnknown: true };
    s.context = { tokens: 800, window: 200_000, pct: 0.4 };
    await webview.snapshot(s);
    const lines = webview.page.locator(byTestId(TEST_IDS.turnCost));
    await lines.nth(2).waitFor();
    assert.deepEqual(await lines.allInnerTexts(), ['$0.0123 · ↑2.3k ↓70 · 2 requests', '↑500 ↓5 · 1 request', 'last request ↑800 ↓9']);
    assert.equal(await lines.nth(0).getAttribute('data-usd'), '0.0123');
    assert.equal(await lines.nth(1).getAttribute('data-usd'), null);
    assert.equal(await webview.page.locator('.usage').innerText(), '↑3.6k ↓84 · $0.0123+');
  });

  it("a finished child's row shows its own cost; an unpriced child's shows none", async () => {
    const items = fanOutItems().map((item) =>
      item.kind === 'subagent' && item.id === 'run-1-0'
        ? subagentRun('run-1-0', 'worker', '[child-A] rename the cache module', {
            parentRunId: 'run-1',
            state: 'completed',
            phase: 'done',
            costUsd: 0.0042,
          })
        : item.kind === 'subagent' && item.id === 'run-1-1'
          ? subagentRun('run-1-1', 'worker', '[child-B] update the imports', {
              parentRunId: 'run-1',
              state: 'completed',
              phase: 'done',
              costUsd: null,
            })
          : item,
    );
    const s = readyState(items);
    s.run = { status: 'running', runId: 'r1' };
    await webview.snapshot(s);
    const row = (id: string) => webview.page.locator(`${byTestId(TEST_IDS.subagentRow)}[data-run-id="${id}"]`);
    await row('run-1-2').waitFor();
    assert.equal(await row('run-1-0').locator('.subagent-cost').innerText(), '< $0.01');
    assert.equal(await row('run-1-1').locator('.subagent-cost').count(), 0);
    assert.equal(await row('run-1-2').locator('.subagent-cost').count(), 0);
  });
});

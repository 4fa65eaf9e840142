// Subagent runs and intercom questions in real Chromium, from the real shell under its CSP: a `subagent` card shows one
// row per child; the children's own messages and tools take no room in the main flow; a child's patch re-renders only
// its card; an expanded row shows the child's last messages and tools (built only while open, "Show earlier" for the
// rest); a child's approval stays in the main flow, labelled with its agent; an intercom question is answered from its card.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { ApprovalItem, IntercomItem, SessionState, TranscriptItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { nodeTags, tagNodes } from './harness/nodeTags';
import { WRITE_ARGS, WRITE_DIFF, childReply, childTool, fanOutItems, readyState, subagentRun } from './harness/states';
import { startWebviewHarness, type WebviewHarness, type WebviewPage } from './harness/webviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const PANEL = byTestId(TEST_IDS.subagentPanel);
const ROW = byTestId(TEST_IDS.subagentRow);
const INTERCOM = byTestId(TEST_IDS.intercomCard);
const row = (runId: string) => `${ROW}[data-run-id="${runId}"]`;

function running(items: TranscriptItem[]): SessionState {
  const s = readyState(items);
  s.run = { status: 'running', runId: 'r1' };
  return s;
}

function question(state: IntercomItem['state'] = 'pending', reply?: string): IntercomItem {
  return {
    kind: 'intercom',
    id: 'ask-1-1700000000000',
    from: 'subagent-worker-run10',
    runId: 'r1',
    childRunId: 'run-1-0',
    agent: 'worker',
    reason: 'need_decision',
    message: 'Keep the old cache API as a deprecated alias?',
    state,
    ...(reply !== undefined ? { reply } : {}),
  };
}

function childApproval(): ApprovalItem {
  return {
    kind: 'approval',
    id: 'apv-1',
    toolCallId: 'sa:run-1-0:call_2',
    runId: 'r1',
    childRunId: 'run-1-0',
    agent: 'worker',
    tool: 'write_file',
    risk: 'destructive',
    args: WRITE_ARGS,
    diff: WRITE_DIFF,
    createdAt: 0,
    state: 'pending',
  };
}

describe('subagent runs and intercom (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let harness: WebviewHarness;
  let webview: WebviewPage;
  let page: Page;

  before(async () => {
    harness = await startWebviewHarness();
  });
  beforeEach(async () => {
    webview = await harness.open({ viewport: { width: 520, height: 1200 } });
    page = webview.page;
  });
  afterEach(async () => {
    assert.deepEqual(webview.problems, [], 'CSP violations, console errors or page errors');
    await webview.close();
  });
  after(() => harness?.close());

  async function showFanOut(items = fanOutItems()): Promise<void> {
    await webview.snapshot(running(items));
    await page.locator(row('run-1-2')).waitFor();
    webview.skipPosted();
  }

  it("shows one row per child on the subagent card, and none of the children's items in the main flow", async () => {
    await showFanOut();
    const rows = page.locator(`${PANEL} ${ROW}`);
    assert.equal(await rows.count(), 3, 'one row per single run; the batch is no row');
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))), ['run-1-0', 'run-1-1', 'run-1-2']);
    const first = page.locator(row('run-1-0'));
    for (const text of ['worker', '[child-A] rename the cache module', 'deepseek/deepseek-chat', 'Writing']) {
      assert.ok((await first.textContent())!.includes(text), `the row shows ${text}`);
    }
    assert.equal(await first.getAttribute('data-state'), 'running');
    // The children's replies and tool call exist in the transcript but render nowhere until a row is opened.
    assert.equal(await page.locator(byTestId(TEST_IDS.assistantMessage)).count(), 0);
    assert.equal(await page.locator(byTestId(TEST_IDS.toolCard)).count(), 1, 'only the subagent card');
    const hidden = await page.locator('.vl-items > .item-hidden').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    assert.deepEqual(hidden, [0, 0, 0, 0, 0, 0, 0], 'four runs and three child items, each of zero height');
  });

  it('only the card spins while its children run: a running row has a still icon', async () => {
    await showFanOut();
    const animated = await page
      .locator(`${byTestId(TEST_IDS.toolCard)} .codicon`)
      .evaluateAll((els) => els.filter((e) => (globalThis as any).getComputedStyle(e).animationName !== 'none').length);
    assert.equal(animated, 1, "the card's spinner, none in its three running rows");
    assert.equal(await page.locator(`${row('run-1-0')} summary > .codicon-play-circle`).count(), 1);
  });

  it("a child's patch re-renders its row only: the prompt and the other rows keep their nodes", async () => {
    await showFanOut();
    await tagNodes(page, `${byTestId(TEST_IDS.userMessage)}, ${byTestId(TEST_IDS.userMessage)} *`, 'user');
    await tagNodes(page, `${row('run-1-0')} summary > *, ${row('run-1-2')} summary > *`, 'other');
    const before = {
      user: await nodeTags(page, `${byTestId(TEST_IDS.userMessage)}, ${byTestId(TEST_IDS.userMessage)} *`),
      others: await nodeTags(page, `${row('run-1-0')} summary > *, ${row('run-1-2')} summary > *`),
    };
    await webview.patch({
      op: 'item',
      index: 4,
      item: subagentRun('run-1-1', 'worker', '[child-B] update the imports', {
        parentRunId: 'run-1',
        phase: 'tool',
        tool: 'grep',
        toolCount: 3,
        tokensIn: 1200,
        tokensOut: 340,
        elapsedMs: 65_000,
      }),
    });
    await page.locator(`${row('run-1-1')}[data-phase="tool"]`).waitFor();
    const text = (await page.locator(row('run-1-1')).textContent())!;
    for (const part of ['Running a tool: grep', '3', '1.2k↑ 340↓']) assert.ok(text.includes(part), `the row shows ${part}: ${text}`);
    // A running row counts on from the reported 65 s, once a second.
    assert.match(text, /1m 0[5-9]s/);
    assert.deepEqual(await nodeTags(page, `${byTestId(TEST_IDS.userMessage)}, ${byTestId(TEST_IDS.userMessage)} *`), before.user);
    assert.deepEqual(await nodeTags(page, `${row('run-1-0')} summary > *, ${row('run-1-2')} summary > *`), before.others);
  });

  it("a running row's elapsed time ticks once a second between progress events; a finished row's stays", async () => {
    await showFanOut();
    await webview.patch({
      op: 'item',
      index: 4,
      item: subagentRun('run-1-1', 'worker', '[child-B] update the imports', {
        parentRunId: 'run-1',
        state: 'completed',
        elapsedMs: 4_000,
      }),
    });
    await page.locator(`${row('run-1-1')}[data-state="completed"]`).waitFor();
    const elapsed = (runId: string) => page.locator(`${row(runId)} .subagent-elapsed`).textContent();
    assert.equal(await elapsed('run-1-0'), '0.0s');
    await page.waitForFunction(
      (sel) => (globalThis as any).document.querySelector(sel)?.textContent === '1s',
      `${row('run-1-0')} .subagent-elapsed`,
      {
        timeout: 10_000,
      },
    );
    // The same tick that moved run-1-0 left the finished run alone.
    assert.equal(await elapsed('run-1-1'), '4s');
  });

  it("an expanded row streams the child's messages and tools through the chat's own views; closed, they are gone", async () => {
    await showFanOut();
    const summary = page.locator(`${row('run-1-0')} summary`);
    await summary.focus();
    await page.keyboard.press('Enter');
    const message = page.locator(`${row('run-1-0')} ${byTestId(TEST_IDS.assistantMessage)}`);
    await message.getByText('Reading the module first.').waitFor();
    await webview.patch(
      { op: 'append', index: 6, field: 'text', text: ' It exports **two** maps.' },
      { op: 'item', index: 9, item: childTool('run-1-0', 'call_1', 'read_file', { path: 'src/cache.ts' }, 'running') },
    );
    await message.locator('strong', { hasText: 'two' }).waitFor();
    await page.locator(`${row('run-1-0')} ${byTestId(TEST_IDS.toolCard)}[data-tool="read_file"]`).waitFor();
    assert.equal(await page.locator(`${row('run-1-1')} ${byTestId(TEST_IDS.assistantMessage)}`).count(), 0, 'a closed row builds no views');
    await page.keyboard.press('Enter');
    await message.waitFor({ state: 'detached' });
    assert.equal(await page.locator(`${row('run-1-0')} .subagent-items > *`).count(), 0);
  });

  it('shows the last 50 of a long run and the rest on "Show earlier"', async () => {
    const items = fanOutItems();
    for (let n = 1; n <= 54; n++) items.push(childReply('run-1-0', n, `Step ${n}.`));
    await showFanOut(items);
    await page.locator(`${row('run-1-0')} summary`).click();
    const messages = page.locator(`${row('run-1-0')} ${byTestId(TEST_IDS.assistantMessage)}`);
    await messages.last().getByText('Step 54.').waitFor();
    assert.equal(await messages.count(), 50);
    assert.equal((await messages.first().textContent())!.trim(), 'Step 5.');
    const earlier = page.locator(`${row('run-1-0')} .subagent-earlier`);
    assert.equal(await earlier.textContent(), 'Show earlier (5)');
    await earlier.click();
    await messages.first().getByText('Reading the module first.').waitFor();
    assert.equal(await messages.count(), 55);
    assert.equal(await earlier.isHidden(), true);
  });

  it('says which children were cancelled, and a finished child shows its summary and worktree', async () => {
    await showFanOut();
    await webview.patch(
      {
        op: 'item',
        index: 3,
        item: subagentRun('run-1-0', 'worker', 'A', {
          parentRunId: 'run-1',
          state: 'completed',
          phase: 'done',
          summary: 'Renamed cache.ts to store.ts.',
          worktree: { path: '/ws/.catalyst-code/worktrees/run-1-0', branch: 'catcode/wt/run-1-0', promoted: ['src/store.ts'] },
        }),
      },
      { op: 'item', index: 4, item: subagentRun('run-1-1', 'worker', 'B', { parentRunId: 'run-1', state: 'cancelled' }) },
      { op: 'item', index: 5, item: subagentRun('run-1-2', 'scout', 'C', { parentRunId: 'run-1', state: 'cancelled' }) },
    );
    await page.locator(`${row('run-1-2')}[data-state="cancelled"]`).waitFor();
    assert.deepEqual(await page.locator(ROW).evaluateAll((els) => els.map((e) => e.getAttribute('data-state'))), [
      'completed',
      'cancelled',
      'cancelled',
    ]);
    assert.equal(await page.locator(`${row('run-1-1')} vscode-badge`).textContent(), 'Cancelled');
    const done = (await page.locator(row('run-1-0')).textContent())!;
    assert.ok(done.includes('Renamed cache.ts to store.ts.'), done);
    assert.ok(done.includes('Worktree catcode/wt/run-1-0'), done);
    assert.ok(done.includes('1 file(s) proposed back'), done);
  });

  it("a child's approval stays in the main flow, labelled with its agent, and the review list groups it by run", async () => {
    const items = [
      ...fanOutItems(),
      childTool('run-1-0', 'call_2', 'write_file', JSON.parse(WRITE_ARGS), 'awaiting_approval'),
      childApproval(),
    ];
    const s = readyState(items);
    s.run = { status: 'waiting_approval', runId: 'r1' };
    await webview.snapshot(s);
    const card = page.locator(byTestId(TEST_IDS.approvalCard));
    await card.waitFor();
    assert.equal(await card.locator('.approval-agent').textContent(), '— worker (subagent)');
    assert.match((await card.getAttribute('aria-label'))!, /subagent worker/);
    assert.equal(await page.locator(`${PANEL} ${byTestId(TEST_IDS.approvalCard)}`).count(), 0, 'not inside the panel');
    const list = page.locator(byTestId(TEST_IDS.reviewList));
    await list.locator(`${byTestId(TEST_IDS.reviewListRow)}[data-request-id="apv-1"]`).waitFor();
    assert.equal(await list.locator('.review-group[data-child-run-id="run-1-0"]').textContent(), 'worker (subagent)');
    webview.skipPosted();
    await card.locator(byTestId(TEST_IDS.approvalAccept)).click();
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'apv-1', decision: 'yes' }]);
  });

  it('an intercom question is answered from its card with Ctrl+Enter, once; an empty reply is not sent', async () => {
    await showFanOut([...fanOutItems(), question()]);
    const card = page.locator(INTERCOM);
    assert.equal(await card.getAttribute('data-state'), 'pending');
    assert.ok((await card.textContent())!.includes('Keep the old cache API as a deprecated alias?'));
    const send = card.locator(byTestId(TEST_IDS.intercomSend));
    assert.equal(await send.getAttribute('aria-disabled'), 'true', 'nothing to send yet');
    const input = card.locator(byTestId(TEST_IDS.intercomReplyInput));
    await input.focus();
    await page.keyboard.press('Control+Enter');
    await page.keyboard.type('Yes, keep it for one release.');
    assert.equal(await send.getAttribute('aria-disabled'), 'false');
    await page.keyboard.press('Control+Enter');
    assert.deepEqual(
      await webview.postedUntil('intercomReply'),
      [{ type: 'intercomReply', id: 'ask-1-1700000000000', reply: 'Yes, keep it for one release.' }],
      'the first Ctrl+Enter, on an empty field, sent nothing',
    );
    assert.equal(await send.getAttribute('aria-disabled'), 'true', 'answers once');
    await webview.patch({ op: 'item', index: 9, item: question('answered', 'Yes, keep it for one release.') });
    await page.locator(`${INTERCOM}[data-state="answered"]`).waitFor();
    assert.equal(await card.locator(byTestId(TEST_IDS.intercomReplyInput)).count(), 0);
    assert.ok((await card.textContent())!.includes('Your reply'));
  });

  it('the Send button sends too, and an expired or cancelled question offers no reply box', async () => {
    await showFanOut([...fanOutItems(), question()]);
    const card = page.locator(INTERCOM);
    await card.locator(byTestId(TEST_IDS.intercomReplyInput)).fill('No.');
    await card.locator(byTestId(TEST_IDS.intercomSend)).click();
    assert.deepEqual(await webview.nextPosted('intercomReply'), { type: 'intercomReply', id: 'ask-1-1700000000000', reply: 'No.' });
    for (const state of ['expired', 'cancelled'] as const) {
      await webview.patch({ op: 'item', index: 9, item: question(state) });
      await page.locator(`${INTERCOM}[data-state="${state}"]`).waitFor();
      assert.equal(await card.locator(byTestId(TEST_IDS.intercomReplyInput)).count(), 0, state);
    }
    assert.ok((await card.textContent())!.includes('Cancelled'));
  });
});

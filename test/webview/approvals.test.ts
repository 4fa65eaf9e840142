// Approval cards in real Chromium, from the real shell under its CSP: each decision posts the `approve` the host
// expects, once; the host's answering patch re-renders only that card (and its "Review changes" row); the keyboard
// alone can decide; what a core cannot do (allow patterns, edited proposals) is not offered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { ApprovalItem, SessionState, ToolItem, TranscriptItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { nodeTags, tagNodes } from './harness/nodeTags';
import { BASH_ARGS, WRITE_ARGS, WRITE_DIFF, readyState } from './harness/states';
import type { WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const CARD = byTestId(TEST_IDS.approvalCard);
/** The note a file tool's card shows when the core cannot take an edited proposal (webview/approvals/approvalCard.ts). */
const NO_EDITED_CONTENT = 'Per-change review and editing are off: this core cannot apply an edited proposal.';

function bashApproval(state: ApprovalItem['state'] = 'pending', decision?: string): ApprovalItem {
  return {
    kind: 'approval',
    id: 'ap1',
    toolCallId: 't1',
    runId: 'r1',
    tool: 'bash',
    risk: 'destructive',
    args: BASH_ARGS,
    createdAt: 0,
    state,
    suggestedPattern: 'rm -rf build*',
    ...(decision ? { decision } : {}),
  };
}

function writeApproval(state: ApprovalItem['state'] = 'pending', decision?: string): ApprovalItem {
  return {
    kind: 'approval',
    id: 'ap2',
    toolCallId: 't2',
    runId: 'r1',
    tool: 'write_file',
    risk: 'destructive',
    args: WRITE_ARGS,
    diff: WRITE_DIFF,
    createdAt: 0,
    state,
    suggestedPattern: 'src/**',
    ...(decision ? { decision } : {}),
  };
}

/** A turn waiting on two approvals: a bash command (index 3) and a new file (index 4). */
function waitingState(kind: SessionState['core']['kind'] = 'embedded', capabilities?: string[]): SessionState {
  const items: TranscriptItem[] = [
    { kind: 'user', id: 'u1', text: 'Rebuild and add a cache', images: 0 },
    { kind: 'tool', id: 't1', runId: 'r1', name: 'bash', args: BASH_ARGS, status: 'awaiting_approval', files: [] },
    { kind: 'tool', id: 't2', runId: 'r1', name: 'write_file', args: WRITE_ARGS, status: 'awaiting_approval', files: [] },
    bashApproval(),
    writeApproval(),
  ];
  const s = readyState(items, kind, capabilities);
  s.run = { status: 'waiting_approval', runId: 'r1' };
  return s;
}

const RENAME = [{ search: 'oldName', replace: 'newName' }];
const BULK_EDIT_ARGS = JSON.stringify({
  edits: [
    { path: 'src/a.ts', edits: RENAME },
    { path: 'src/b.ts', edits: RENAME },
  ],
});

/** The core runs each file of a bulk_edit as an edit call of its own, `<outer id>.<n>`, asking for each in turn. */
function innerEdit(n: number, status: ToolItem['status']): ToolItem {
  const path = `src/${n === 1 ? 'a' : 'b'}.ts`;
  return {
    kind: 'tool',
    id: `be.${n}`,
    runId: 'r1',
    name: 'edit',
    args: JSON.stringify({ path, edits: RENAME }),
    status,
    files: [],
    outerId: 'be',
  };
}

function innerApproval(n: number, state: ApprovalItem['state'] = 'pending', decision?: string): ApprovalItem {
  const call = innerEdit(n, 'awaiting_approval');
  const path = `src/${n === 1 ? 'a' : 'b'}.ts`;
  return {
    kind: 'approval',
    id: `apv-${n}-be.${n}`,
    toolCallId: call.id,
    runId: 'r1',
    tool: 'edit',
    risk: 'destructive',
    args: call.args,
    createdAt: 0,
    state,
    diff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-oldName\n+newName\n`,
    outerId: 'be',
    ...(decision ? { decision } : {}),
  };
}

/** A bulk_edit over two files waiting on its first file's approval (items 1–3). */
function bulkEditWaiting(): SessionState {
  const s = readyState([
    { kind: 'user', id: 'u1', text: 'Rename oldName in a.ts and b.ts', images: 0 },
    { kind: 'tool', id: 'be', runId: 'r1', name: 'bulk_edit', args: BULK_EDIT_ARGS, status: 'running', files: [] },
    innerEdit(1, 'awaiting_approval'),
    innerApproval(1),
  ]);
  s.run = { status: 'waiting_approval', runId: 'r1' };
  return s;
}

describe('approval cards (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;
  let bashCard: Locator;
  let writeCard: Locator;

  useWebviewPage(
    (opened) => {
      webview = opened;
      page = opened.page;
      bashCard = page.locator(CARD).filter({ hasText: 'rm -rf build' });
      writeCard = page.locator(CARD).filter({ hasText: 'src/cache.ts' });
    },
    { viewport: { width: 420, height: 1400 } },
  );

  async function showWaiting(state = waitingState()): Promise<void> {
    await webview.snapshot(state);
    // Enabled buttons on both cards: this snapshot's views (a decided card's buttons are disabled until the host answers).
    await page
      .locator(`${CARD}[data-state="pending"] ${byTestId(TEST_IDS.approvalAccept)}[aria-disabled="false"]`)
      .nth(1)
      .waitFor();
    webview.skipPosted();
  }

  it('each button posts its decision with the request id', async () => {
    for (const [button, decision] of [
      [TEST_IDS.approvalAccept, 'yes'],
      [TEST_IDS.approvalReject, 'no'],
      [TEST_IDS.approvalAlways, 'always'],
      [TEST_IDS.approvalSession, 'allow_session'],
    ] as const) {
      await showWaiting();
      await bashCard.locator(byTestId(button)).click();
      assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'ap1', decision }], `${button}`);
    }
  });

  it("answers once: after a decision the card's buttons are disabled and a second click posts nothing", async () => {
    await showWaiting();
    await bashCard.locator(byTestId(TEST_IDS.approvalAccept)).click();
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'ap1', decision: 'yes' }]);
    const accept = bashCard.locator(byTestId(TEST_IDS.approvalAccept));
    assert.equal(await accept.getAttribute('aria-disabled'), 'true');
    await accept.click({ force: true });
    await writeCard.locator(byTestId(TEST_IDS.approvalReject)).click();
    assert.deepEqual(
      await webview.postedUntil('approve'),
      [{ type: 'approve', requestId: 'ap2', decision: 'no' }],
      'the second click on the first card posted',
    );
  });

  it('the host\'s answering patch re-renders only that card and its "Review changes" row', async () => {
    await showWaiting();
    const rows = `${byTestId(TEST_IDS.reviewListRow)}`;
    await page.locator(`${rows}[data-request-id="ap2"][data-state="pending"]`).waitFor();
    assert.equal(await page.locator(`${rows}[data-request-id="ap2"] .review-state`).textContent(), 'Waiting for review');
    await tagNodes(page, rows, 'row');
    await webview.patch({ op: 'append', index: 0, field: 'text', text: ', please' });
    await page.locator(byTestId(TEST_IDS.userMessage)).getByText('please').waitFor();
    assert.deepEqual(await nodeTags(page, rows), ['row0'], 'a patch that changes no row re-rendered the list');
    await tagNodes(page, `${CARD} > *`, 'card-part');
    await tagNodes(page, `${byTestId(TEST_IDS.toolCard)} > *, ${byTestId(TEST_IDS.userMessage)} > *`, 'other');
    const before = {
      cards: await nodeTags(page, `${CARD} > *`),
      others: await nodeTags(page, `${byTestId(TEST_IDS.toolCard)} > *, ${byTestId(TEST_IDS.userMessage)} > *`),
    };

    await writeCard.locator(byTestId(TEST_IDS.approvalAccept)).click();
    await webview.nextPosted('approve');
    const bashParts = await bashCard.evaluate((el) => el.children.length);
    await webview.patch({ op: 'item', index: 4, item: writeApproval('approved', 'yes') });
    await page.locator(`${rows}[data-request-id="ap2"][data-state="approved"]`).waitFor();
    await page.locator(`${CARD}[data-state="approved"]`).waitFor();

    assert.equal(await writeCard.locator('.approval-state').textContent(), 'Approved once');
    const after = await nodeTags(page, `${CARD} > *`);
    assert.deepEqual(after.slice(0, bashParts), before.cards.slice(0, bashParts), 'the other (bash) card was re-rendered');
    assert.ok(
      after.slice(bashParts).every((t) => t === null),
      'the decided card shows old parts',
    );
    assert.deepEqual(
      await nodeTags(page, `${byTestId(TEST_IDS.toolCard)} > *, ${byTestId(TEST_IDS.userMessage)} > *`),
      before.others,
      'other items were re-rendered',
    );
    assert.equal(await page.locator(`${rows}[data-request-id="ap2"] .review-state`).textContent(), 'Accepted');
  });

  it("keyboard only: Tab reaches the buttons, Space rejects, and focus stays on the card through the host's answer", async () => {
    await showWaiting();
    await bashCard.focus();
    const reject = bashCard.locator(byTestId(TEST_IDS.approvalReject));
    for (let presses = 0; presses < 8 && !(await reject.evaluate((el) => el === (globalThis as any).document.activeElement)); presses++)
      await page.keyboard.press('Tab');
    assert.equal(await reject.evaluate((el) => el === (globalThis as any).document.activeElement), true, 'Tab never reached Reject');
    await page.keyboard.press('Space');
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'ap1', decision: 'no' }]);
    const focusedCard = () =>
      page.evaluate(
        () =>
          (globalThis as any).document.activeElement?.closest('[data-testid="approval-card"]')?.textContent?.includes('rm -rf build') ??
          false,
      );
    assert.equal(await focusedCard(), true, 'the disabled buttons replaced the focused one: focus left the card');
    await webview.patch({ op: 'item', index: 3, item: bashApproval('denied', 'no') });
    await page.locator(`${CARD}[data-state="denied"]`).waitFor();
    assert.equal(await focusedCard(), true, 'the decided card lost the focus');
  });

  it('keyboard only: Enter on a focused button decides it; on the card Enter accepts and Escape rejects', async () => {
    await showWaiting();
    await writeCard.locator(byTestId(TEST_IDS.approvalSession)).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'ap2', decision: 'allow_session' }]);
    await bashCard.focus();
    await page.keyboard.press('Escape');
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'ap1', decision: 'no' }]);

    await showWaiting();
    await bashCard.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'ap1', decision: 'yes' }]);
  });

  it('Allow Pattern…: the suggested pattern is focused for editing, Enter allows the edited pattern', async () => {
    await showWaiting();
    await bashCard.getByText('Allow Pattern…').click();
    const input = bashCard.getByRole('textbox', { name: 'Allow pattern' });
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') === 'Allow pattern');
    assert.equal(await input.inputValue(), 'rm -rf build*');
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(' && npm*');
    await page.keyboard.press('Enter');
    assert.deepEqual(await webview.postedUntil('approve'), [
      { type: 'approve', requestId: 'ap1', decision: 'allow_pattern', pattern: 'rm -rf build && npm*' },
    ]);
  });

  it('a file change opens in the diff editor from its card and from its "Review changes" row', async () => {
    await showWaiting();
    await writeCard.locator(byTestId(TEST_IDS.approvalReview)).click();
    await page
      .locator(`${byTestId(TEST_IDS.reviewListRow)}[data-request-id="ap2"]`)
      .getByRole('button', { name: 'Review src/cache.ts in the diff editor' })
      .click();
    assert.deepEqual(await webview.postedUntil('action'), [{ type: 'action', action: 'reviewApproval', arg: 'ap2' }]);
    assert.deepEqual(await webview.postedUntil('action'), [{ type: 'action', action: 'reviewApproval', arg: 'ap2' }]);
    assert.equal(await bashCard.locator(byTestId(TEST_IDS.approvalReview)).count(), 0, 'a bash command has no diff to review');
  });

  it('keyboard only: Enter on the "Review changes" summary collapses and expands the list', async () => {
    await showWaiting();
    const details = page.locator(`${byTestId(TEST_IDS.reviewList)} details`);
    assert.equal(await details.getAttribute('open'), '');
    await page.locator(`${byTestId(TEST_IDS.reviewList)} summary`).focus();
    await page.keyboard.press('Enter');
    await page.locator(`${byTestId(TEST_IDS.reviewList)} details:not([open])`).waitFor();
    assert.equal(await page.locator(byTestId(TEST_IDS.reviewListRow)).isHidden(), true);
    await page.keyboard.press('Enter');
    await page.locator(`${byTestId(TEST_IDS.reviewList)} details[open]`).waitFor();
    assert.equal(await page.locator(byTestId(TEST_IDS.reviewListRow)).isVisible(), true);
  });

  it('a bulk_edit over two files: an approval card per file, nested under the bulk card, each deciding its own inner request', async () => {
    await webview.snapshot(bulkEditWaiting());
    const card = (path: string) => page.locator(CARD).filter({ hasText: path });
    await card('src/a.ts')
      .locator(`${byTestId(TEST_IDS.approvalAccept)}[aria-disabled="false"]`)
      .waitFor();
    webview.skipPosted();
    const bulkCard = page.locator(`${byTestId(TEST_IDS.toolCard)}[data-tool="bulk_edit"]`);
    assert.equal(await bulkCard.locator('.tool-detail').textContent(), '2 files: src/a.ts, src/b.ts');
    await card('src/a.ts').locator(byTestId(TEST_IDS.approvalAccept)).click();
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'apv-1-be.1', decision: 'yes' }]);

    // The core applies the first file, then asks for the second.
    await webview.patch(
      { op: 'item', index: 2, item: innerEdit(1, 'success') },
      { op: 'item', index: 3, item: innerApproval(1, 'approved', 'yes') },
      { op: 'item', index: 4, item: innerEdit(2, 'awaiting_approval') },
      { op: 'item', index: 5, item: innerApproval(2) },
    );
    await card('src/b.ts')
      .locator(`${byTestId(TEST_IDS.approvalAccept)}[aria-disabled="false"]`)
      .waitFor();
    assert.deepEqual(await page.locator(CARD).evaluateAll((cards) => cards.map((c) => c.getAttribute('data-state'))), [
      'approved',
      'pending',
    ]);
    const nested = await page
      .locator(`${byTestId(TEST_IDS.toolCard)}, ${CARD}`)
      .evaluateAll((els) => els.map((el) => el.classList.contains('inner-call')));
    assert.deepEqual(
      nested,
      [false, true, true, true, true],
      "the bulk card, then each file's edit card and approval card nested under it",
    );
    await card('src/b.ts').locator(byTestId(TEST_IDS.approvalReject)).click();
    assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'apv-2-be.2', decision: 'no' }]);
  });

  it('the git tools: git_commit shows its whole message, git_add the paths it stages', async () => {
    const approval = (id: string, tool: string, args: object): ApprovalItem => ({
      kind: 'approval',
      id,
      toolCallId: `c-${id}`,
      runId: 'r1',
      tool,
      risk: 'destructive',
      args: JSON.stringify(args),
      createdAt: 0,
      state: 'pending',
    });
    const s = readyState([
      approval('ap-add', 'git_add', { paths: ['src/a.ts', 'src/b.ts'] }),
      approval('ap-commit', 'git_commit', { message: 'Rename oldName\n\nEverywhere it was used.' }),
    ]);
    s.run = { status: 'waiting_approval', runId: 'r1' };
    await webview.snapshot(s);
    const addCard = page.locator(CARD).filter({ hasText: 'git_add' });
    const commitCard = page.locator(CARD).filter({ hasText: 'git_commit' });
    await commitCard.locator('.approval-command').waitFor();
    assert.equal(await commitCard.locator('.approval-command').textContent(), 'Rename oldName\n\nEverywhere it was used.');
    assert.deepEqual(await addCard.locator('.approval-paths .file-chip').allTextContents(), ['src/a.ts', 'src/b.ts']);
    await addCard.locator(byTestId(TEST_IDS.approvalAccept)).click();
    assert.deepEqual(await webview.nextPosted('approve'), { type: 'approve', requestId: 'ap-add', decision: 'yes' });
  });

  it('an SCV core: no Allow Pattern…, and a file tool says its proposal cannot be edited', async () => {
    await showWaiting(waitingState('scv', ['server_queue', 'tool_progress']));
    assert.equal(await page.locator(CARD).getByText('Allow Pattern…').count(), 0);
    assert.equal((await writeCard.locator('.approval-note').textContent())?.trim(), NO_EDITED_CONTENT);
    assert.equal(await bashCard.locator('.approval-note').count(), 0, 'the note is for file tools only');
    assert.equal(await page.locator(CARD).locator(byTestId(TEST_IDS.approvalAccept)).count(), 2, 'the decisions themselves are all there');
  });
});

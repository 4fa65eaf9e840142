// Issue #7 "Workspace safety" and issue #4's write rules, end to end in code-server driven by Chromium: a file with
// unsaved changes in an editor is never overwritten without the user's choice (Keep Mine / Take the Agent's / Merge…),
// and a file that changed on disk after the preview was built is re-diffed before any answer is sent. One VS Code
// launch; the checks run in order against the scripted model, the embedded core and the default approval mode
// (edits ask). The rules are src/client/review/writeSafety.ts; the flow is src/vscode/review/approvalDiffController.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import {
  approvalCard,
  chatRequests,
  editArgs,
  promptAgent,
  textTurn,
  toolCallTurn,
  toolResultSent,
  waitForCardState,
  waitForToolResultSent,
} from './harness/approvals';
import { waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { byTestId } from './harness/chatView';
import { answerModal, modalDialog, waitForModal } from './harness/dialogs';
import { activeDiffEditor, clickTitleAction, modifiedSide, originalSide, waitForProposal } from './harness/diffEditor';
import { activeCodeEditor, openWorkspaceFile, renderedText, retypeLine, waitForRenderedText } from './harness/editors';
import { waitForNotification } from './harness/notifications';
import { runCommand } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const ACCEPT = 'Accept Proposed Change';
const REJECT = 'Reject Proposed Change';
const KEEP_MINE = 'Keep Mine';
const TAKE_AGENTS = "Take the Agent's";
const MERGE = 'Merge…';

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
const text = (ls: string[]) => `${ls.join('\n')}\n`;
const replaceLine = (ls: string[], n: number, line: string) => ls.map((l, i) => (i === n - 1 ? line : l));

// 1a/1b: the user's unsaved edit on line 2, the agent's edits on line 2 (Keep Mine) then line 3 (Take the Agent's).
const APP = ['alpha', 'beta', 'gamma'];
const APP_USER = replaceLine(APP, 2, 'beta, typed by the user and not saved');
const APP_AGENT_1 = replaceLine(APP, 2, 'beta, rewritten by the agent');
const APP_AGENT_2 = replaceLine(APP, 3, 'gamma, rewritten by the agent');
// 1c: the user's unsaved edit on line 1, the agent's on line 8: they merge.
const MERGE_LINES = lines('merge line', 10);
const MERGE_USER = replaceLine(MERGE_LINES, 1, 'merge line 1, typed by the user and not saved');
const MERGE_AGENT_LINE = 'merge line 8, rewritten by the agent';
const MERGED = replaceLine(MERGE_USER, 8, MERGE_AGENT_LINE);
// 1d: the user and the agent change the same line: no merge.
const CLASH = ['one', 'two', 'three'];
const CLASH_USER = replaceLine(CLASH, 2, 'two, typed by the user and not saved');
// 1e: the chat card's Accept.
const CARD = ['card one', 'card two'];
const CARD_USER = replaceLine(CARD, 1, 'card one, typed by the user and not saved');
// 2a: another tool rewrites line 1 and appends a line while the agent's change to line 6 is under review.
const DISK = lines('disk line', 12);
const DISK_EXTERNAL = [...replaceLine(DISK, 1, 'disk line 1, rewritten by another tool'), 'disk line 13, appended by another tool'];
const DISK_AGENT_LINE = 'disk line 6, rewritten by the agent';
// 2b: another tool rewrites the very line the agent's edit searches for.
const GONE = ['keep me', 'the line the agent wants', 'keep me too'];
const GONE_EXTERNAL = replaceLine(GONE, 2, 'another tool replaced this line');
// 2c: the user's hand edit in the proposal (line 15), the agent's change (line 8), another tool's change (line 2).
const REBASE = lines('rebase line', 16);
const REBASE_AGENT_LINE = 'rebase line 8, rewritten by the agent';
const REBASE_HAND_LINE = 'rebase line 15, typed by hand in the proposal';
const REBASE_EXTERNAL = replaceLine(REBASE, 2, 'rebase line 2, rewritten by another tool');
// 3: typing more into the file after Merge…
const PROBE = lines('probe line', 10);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The tab of the real file `name`: its aria-label is exactly the name (a diff tab's is its longer title, and the name is
 * rendered in two parts, "app" and ".txt", so the visible label cannot be matched whole).
 */
function fileTab(page: Page, name: string): Locator {
  return page.locator(`.tabs-container .tab[aria-label=${JSON.stringify(name)}]`).first();
}

/** The review diff's tab for `relPath`, whatever note its title carries ("(new file)", "(your unsaved text)"). */
function reviewTab(page: Page, relPath: string): Locator {
  return page
    .locator('.tabs-container .tab')
    .filter({ hasText: new RegExp(`${escapeRegExp(relPath)}( \\([^)]*\\))? ↔ Catalyst proposal`) })
    .first();
}

async function hasClass(locator: Locator, name: string): Promise<boolean> {
  return locator.evaluate((el: any, n: string) => el.classList.contains(n), name);
}

describe('workspace safety: unsaved editors and files changed on disk (issues #7, #4)', { timeout: 900_000 }, () => {
  const suite = chatSuite({
    // Unsaved text must stay unsaved for as long as a check needs it.
    settings: { 'files.autoSave': 'off' },
    files: {
      'app.txt': text(APP),
      'merge.txt': text(MERGE_LINES),
      'clash.txt': text(CLASH),
      'card.txt': text(CARD),
      'disk.txt': text(DISK),
      'gone.txt': text(GONE),
      'rebase.txt': text(REBASE),
      'probe.txt': text(PROBE),
    },
  });
  const { check, chat, path, onDisk, waitForDisk, settle } = suite;

  /**
   * The newest approval card for `rel`. The transcript is virtualized and stops following new content once it was
   * scrolled (Playwright scrolls a clicked card into view): the user's "Jump to latest" first, as a user would.
   */
  async function latestCard(rel: string): Promise<Locator> {
    const jump = chat().locator('.jump-latest');
    if (await jump.isVisible().catch(() => false)) {
      await jump.click();
      await jump.waitFor({ state: 'hidden', timeout: 5000 });
    }
    return approvalCard(chat(), rel);
  }

  /** Makes the real file `name` the active editor (its tab, not a diff's). */
  async function showFile(name: string): Promise<Locator> {
    const { page } = suite.env();
    const tab = fileTab(page, name);
    await tab.waitFor({ state: 'visible', timeout: 15_000 });
    await tab.click();
    await waitUntil(() => hasClass(tab, 'active'), { timeoutMs: 10_000, what: `the ${name} tab to be active` });
    return activeCodeEditor(page);
  }

  async function isDirty(name: string): Promise<boolean> {
    return hasClass(fileTab(suite.env().page, name), 'dirty');
  }

  async function waitForDirty(name: string, dirty: boolean, timeoutMs = 15_000): Promise<void> {
    await waitUntil(async () => (await isDirty(name)) === dirty, { timeoutMs, what: `the ${name} tab to be ${dirty ? 'dirty' : 'clean'}` });
  }

  /** The user opens `rel`, retypes 1-based `line` and does not save. */
  async function typeWithoutSaving(rel: string, line: number, typed: string, expected: string): Promise<Locator> {
    const { page } = suite.env();
    const editor = await openWorkspaceFile(page, rel);
    await retypeLine(page, line, typed);
    await waitForRenderedText(editor, (s) => s === expected, `the unsaved text in ${rel}`);
    await waitForDirty(rel, true);
    assert.notEqual(onDisk(rel), expected, 'the typed text was saved');
    return editor;
  }

  /** Throws away the unsaved text of `name` (File: Revert File), so later checks start from clean editors. */
  async function revertFile(name: string, diskText: string): Promise<void> {
    const editor = await showFile(name);
    await runCommand(suite.env().page, 'File: Revert File');
    await waitForRenderedText(editor, (s) => s === diskText, `${name} reverted to the disk text`);
    await waitForDirty(name, false);
  }

  /** The modal about unsaved changes: what it says and its buttons, asserted as the user reads them. */
  async function readDirtyModal(t: TestContext, rel: string): Promise<void> {
    const { page } = suite.env();
    const said = await waitForModal(page);
    t.diagnostic(`the modal: ${said.replace(/\s*\n+\s*/g, ' / ')}`);
    assert.match(said, new RegExp(`${escapeRegExp(rel)} has unsaved changes`), 'the modal does not name the file');
    const buttons = (await modalDialog(page).locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter(Boolean);
    t.diagnostic(`its buttons: ${JSON.stringify(buttons)}`);
    for (const choice of [KEEP_MINE, TAKE_AGENTS, MERGE])
      assert.ok(buttons.includes(choice), `no "${choice}" button: ${JSON.stringify(buttons)}`);
  }

  /**
   * Nothing reached the core as an answer: no tool result for `callId`, no new model request, the file as it was, and
   * (unless a modal makes the chat unclickable) the card still pending.
   */
  async function assertNothingSent(
    callId: string,
    requestsBefore: number,
    rel: string,
    diskText: string,
    opts: { modalOpen?: boolean } = {},
  ): Promise<void> {
    const { model } = suite.env();
    if (!opts.modalOpen) await waitForCardState(await latestCard(rel), 'pending');
    assert.equal(toolResultSent(model, callId), undefined, 'the model got a tool result');
    assert.equal(chatRequests(model).length, requestsBefore, 'the core asked the model again (an answer was sent)');
    assert.equal(onDisk(rel), diskText, `${rel} changed on disk`);
  }

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    "1a. unsaved text in app.txt: Accept asks (Keep Mine / Take the Agent's / Merge…); Keep Mine rejects the change and leaves both the buffer and the disk alone",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      await typeWithoutSaving('app.txt', 2, APP_USER[1], text(APP_USER));
      model.enqueue(
        toolCallTurn('call_ws_keep', 'edit', editArgs('app.txt', ['beta', APP_AGENT_1[1]])),
        textTurn('Left your text alone: ws-keep-done.'),
      );
      await promptAgent(chat(), 'Rewrite the second line of app.txt');
      const { diff } = await waitForProposal(page, 'app.txt');
      // The preview is built on the disk, not on the unsaved buffer.
      await waitForRenderedText(originalSide(diff), (s) => s === text(APP), 'the disk text on the left');
      await waitForRenderedText(modifiedSide(diff), (s) => s === text(APP_AGENT_1), 'the proposal on the right');
      const requestsBefore = chatRequests(model).length;

      await clickTitleAction(page, ACCEPT);
      await readDirtyModal(t, 'app.txt');
      // Asking is not answering: while the modal is up nothing went to the core.
      await assertNothingSent('call_ws_keep', requestsBefore, 'app.txt', text(APP), { modalOpen: true });
      await answerModal(page, KEEP_MINE);

      const told = await waitForToolResultSent(model, 'call_ws_keep');
      t.diagnostic(`the model was told: ${told}`);
      assert.match(told, /denied/i, 'Keep Mine must reject the change ("keep your text; the change is rejected")');
      await waitForCardState(await latestCard('app.txt'), 'denied');
      await reviewTab(page, 'app.txt').waitFor({ state: 'detached', timeout: 15_000 });
      await waitForAssistantText(chat(), 'ws-keep-done');
      await waitForIdle(chat());
      assert.equal(onDisk('app.txt'), text(APP), 'the disk changed although the user kept their text');
      const editor = await showFile('app.txt');
      await waitForRenderedText(editor, (s) => s === text(APP_USER), "the user's unsaved text still in the editor");
      assert.ok(await isDirty('app.txt'), "the user's text is no longer unsaved (saved or dropped?)");
    }),
  );

  it(
    "1b. unsaved text in app.txt: Take the Agent's writes the agent's version, the editor shows it, and Undo brings the unsaved text back",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      // Still unsaved from 1a (or typed again if 1a failed before that).
      if (!(await isDirty('app.txt').catch(() => false))) await typeWithoutSaving('app.txt', 2, APP_USER[1], text(APP_USER));
      model.enqueue(
        toolCallTurn('call_ws_take', 'edit', editArgs('app.txt', ['gamma', APP_AGENT_2[2]])),
        textTurn('Wrote it: ws-take-done.'),
      );
      await promptAgent(chat(), 'Rewrite the third line of app.txt');
      const { diff } = await waitForProposal(page, 'app.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s === text(APP_AGENT_2), 'the proposal on the right');
      const requestsBefore = chatRequests(model).length;

      await clickTitleAction(page, ACCEPT);
      await readDirtyModal(t, 'app.txt');
      await assertNothingSent('call_ws_take', requestsBefore, 'app.txt', text(APP), { modalOpen: true });
      await answerModal(page, TAKE_AGENTS);

      await waitForDisk('app.txt', text(APP_AGENT_2));
      const told = await waitForToolResultSent(model, 'call_ws_take');
      assert.doesNotMatch(told, /denied|modified/i, `the tool result the model got: ${told}`);
      await waitForCardState(await latestCard('app.txt'), 'approved');
      await reviewTab(page, 'app.txt').waitFor({ state: 'detached', timeout: 15_000 });
      await waitForAssistantText(chat(), 'ws-take-done');
      await waitForIdle(chat());

      // The editor shows what is on disk now, and is clean: the user chose to drop their unsaved text…
      const editor = await showFile('app.txt');
      await waitForRenderedText(editor, (s) => s === text(APP_AGENT_2), "the editor to show the agent's version");
      await waitForDirty('app.txt', false);
      // …which the modal promised stays reachable with Undo in that editor.
      await runCommand(page, 'View: Focus Active Editor Group');
      await page.keyboard.press('ControlOrMeta+Z');
      await waitForRenderedText(editor, (s) => s === text(APP_USER), 'Undo to bring the unsaved text back');
      await waitForDirty('app.txt', true);
      assert.equal(onDisk('app.txt'), text(APP_AGENT_2), 'Undo changed the disk');
      await page.keyboard.press('ControlOrMeta+Shift+Z');
      await waitForRenderedText(editor, (s) => s === text(APP_AGENT_2), "Redo to show the agent's version again");
      t.diagnostic(`app.txt dirty after Redo: ${await isDirty('app.txt')}`);
      if (await isDirty('app.txt')) await revertFile('app.txt', text(APP_AGENT_2));
    }),
  );

  it(
    "1c. Merge… puts the agent's change on top of the unsaved text, shown against it; Accept writes the merge and the editor shows it",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      await typeWithoutSaving('merge.txt', 1, MERGE_USER[0], text(MERGE_USER));
      model.enqueue(
        toolCallTurn('call_ws_merge', 'edit', editArgs('merge.txt', ['merge line 8', MERGE_AGENT_LINE])),
        textTurn('Merged: ws-merge-done.'),
      );
      await promptAgent(chat(), 'Rewrite line 8 of merge.txt');
      const { diff } = await waitForProposal(page, 'merge.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes(MERGE_AGENT_LINE), 'the proposal on the right');
      const requestsBefore = chatRequests(model).length;

      await clickTitleAction(page, ACCEPT);
      await readDirtyModal(t, 'merge.txt');
      await answerModal(page, MERGE);
      t.diagnostic(`notification: ${await waitForNotification(page, /on top of your unsaved text/i)}`);
      // The diff now reads: the unsaved text ↔ the unsaved text plus the agent's change. Nothing answered yet.
      const merged = activeDiffEditor(page);
      await waitForRenderedText(originalSide(merged), (s) => s === text(MERGE_USER), 'the unsaved text on the left');
      await waitForRenderedText(modifiedSide(merged), (s) => s === text(MERGED), 'the merge on the right');
      t.diagnostic(`the review tab now reads: ${(await reviewTab(page, 'merge.txt').innerText()).trim()}`);
      await assertNothingSent('call_ws_merge', requestsBefore, 'merge.txt', text(MERGE_LINES));
      assert.ok(await isDirty('merge.txt'), 'the unsaved text was saved or dropped by Merge…');

      // Accepting the merge does not ask again: the user already chose what happens to their unsaved text.
      await clickTitleAction(page, ACCEPT);
      await waitForDisk('merge.txt', text(MERGED));
      const told = await waitForToolResultSent(model, 'call_ws_merge');
      t.diagnostic(`the model was told: ${told.slice(0, 300)}`);
      assert.doesNotMatch(told, /denied/i);
      assert.match(told, /typed by the user/, "the model was not told what was written (the user's part of it)");
      await reviewTab(page, 'merge.txt').waitFor({ state: 'detached', timeout: 15_000 });
      await waitForAssistantText(chat(), 'ws-merge-done');
      await waitForIdle(chat());
      const editor = await showFile('merge.txt');
      await waitForRenderedText(editor, (s) => s === text(MERGED), 'the editor to show the merge');
      await waitForDirty('merge.txt', false);
    }),
  );

  it(
    '1d. Merge… when the unsaved text and the change touch the same line: the user is told, nothing is sent; Keep Mine then rejects it',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      await typeWithoutSaving('clash.txt', 2, CLASH_USER[1], text(CLASH_USER));
      model.enqueue(
        toolCallTurn('call_ws_clash', 'edit', editArgs('clash.txt', ['two', 'two, rewritten by the agent'])),
        textTurn('Kept yours: ws-clash-done.'),
      );
      await promptAgent(chat(), 'Rewrite the second line of clash.txt');
      const { diff } = await waitForProposal(page, 'clash.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('two, rewritten by the agent'), 'the proposal on the right');
      const requestsBefore = chatRequests(model).length;

      await clickTitleAction(page, ACCEPT);
      await readDirtyModal(t, 'clash.txt');
      await answerModal(page, MERGE);
      t.diagnostic(`notification: ${await waitForNotification(page, /touch the same lines/i)}`);
      await waitForRenderedText(originalSide(activeDiffEditor(page)), (s) => s === text(CLASH), 'the disk text still on the left');
      await assertNothingSent('call_ws_clash', requestsBefore, 'clash.txt', text(CLASH));

      await clickTitleAction(page, ACCEPT);
      await readDirtyModal(t, 'clash.txt');
      await answerModal(page, KEEP_MINE);
      assert.match(await waitForToolResultSent(model, 'call_ws_clash'), /denied/i);
      await waitForAssistantText(chat(), 'ws-clash-done');
      await waitForIdle(chat());
      assert.equal(onDisk('clash.txt'), text(CLASH));
      const editor = await showFile('clash.txt');
      await waitForRenderedText(editor, (s) => s === text(CLASH_USER), 'the unsaved text still in the editor');
      assert.ok(await isDirty('clash.txt'));
      await revertFile('clash.txt', text(CLASH));
    }),
  );

  it(
    "1e. the chat card's Accept asks about the unsaved text too; dismissing the question sends nothing",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      await typeWithoutSaving('card.txt', 1, CARD_USER[0], text(CARD_USER));
      model.enqueue(
        toolCallTurn('call_ws_card', 'edit', editArgs('card.txt', ['card two', 'card two, rewritten by the agent'])),
        textTurn('Not written: ws-card-done.'),
      );
      await promptAgent(chat(), 'Rewrite the second line of card.txt');
      await waitForProposal(page, 'card.txt');
      const card = await latestCard('card.txt');
      await waitForCardState(card, 'pending');
      const requestsBefore = chatRequests(model).length;

      await card.locator(byTestId(TEST_IDS.approvalAccept)).first().click();
      await readDirtyModal(t, 'card.txt');
      await page.keyboard.press('Escape');
      await modalDialog(page).waitFor({ state: 'hidden', timeout: 10_000 });
      await assertNothingSent('call_ws_card', requestsBefore, 'card.txt', text(CARD));
      assert.ok(await isDirty('card.txt'), 'the unsaved text was saved or dropped');
      await reviewTab(page, 'card.txt').waitFor({ state: 'visible', timeout: 5000 });

      // Still answerable: Reject needs no question (nothing is written).
      await reviewTab(page, 'card.txt').click();
      await clickTitleAction(page, REJECT);
      assert.match(await waitForToolResultSent(model, 'call_ws_card'), /denied/i);
      await waitForAssistantText(chat(), 'ws-card-done');
      await waitForIdle(chat());
      assert.equal(onDisk('card.txt'), text(CARD));
      const editor = await showFile('card.txt');
      await waitForRenderedText(editor, (s) => s === text(CARD_USER), 'the unsaved text still in the editor');
      await revertFile('card.txt', text(CARD));
    }),
  );

  it(
    '2a. disk.txt changed on disk after the preview: Accept sends nothing and re-diffs on the new text; Accept again writes the change on top of it',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_ws_disk', 'edit', editArgs('disk.txt', ['disk line 6', DISK_AGENT_LINE])),
        textTurn('Applied on the new text: ws-disk-done.'),
      );
      await promptAgent(chat(), 'Rewrite line 6 of disk.txt');
      const { diff } = await waitForProposal(page, 'disk.txt');
      await waitForRenderedText(originalSide(diff), (s) => s === text(DISK), 'the disk text on the left');
      await waitForRenderedText(modifiedSide(diff), (s) => s === text(replaceLine(DISK, 6, DISK_AGENT_LINE)), 'the proposal on the right');

      // Another tool rewrites the file while the user reviews.
      writeFileSync(path('disk.txt'), text(DISK_EXTERNAL));
      const requestsBefore = chatRequests(model).length;
      await clickTitleAction(page, ACCEPT);
      t.diagnostic(`notification: ${await waitForNotification(page, /disk\.txt changed on disk after the preview was built/i)}`);
      await waitForRenderedText(originalSide(diff), (s) => s === text(DISK_EXTERNAL), 'the new disk text on the left');
      const rebuilt = text(replaceLine(DISK_EXTERNAL, 6, DISK_AGENT_LINE));
      await waitForRenderedText(modifiedSide(diff), (s) => s === rebuilt, 'the proposal rebuilt on the new text');
      await assertNothingSent('call_ws_disk', requestsBefore, 'disk.txt', text(DISK_EXTERNAL));

      await clickTitleAction(page, ACCEPT);
      await waitForDisk('disk.txt', rebuilt);
      const told = await waitForToolResultSent(model, 'call_ws_disk');
      assert.doesNotMatch(told, /denied|modified/i, `the tool result the model got: ${told}`);
      await waitForCardState(await latestCard('disk.txt'), 'approved');
      await reviewTab(page, 'disk.txt').waitFor({ state: 'detached', timeout: 15_000 });
      await waitForAssistantText(chat(), 'ws-disk-done');
      await waitForIdle(chat());
    }),
  );

  it(
    "2b. gone.txt changed on disk so that the change no longer applies: Accept sends nothing and says so; Reject leaves the other tool's text",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_ws_gone', 'edit', editArgs('gone.txt', ['the line the agent wants', "the agent's version of that line"])),
        textTurn('Did not apply: ws-gone-done.'),
      );
      await promptAgent(chat(), 'Rewrite the second line of gone.txt');
      const { diff } = await waitForProposal(page, 'gone.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes("the agent's version of that line"), 'the proposal on the right');

      writeFileSync(path('gone.txt'), text(GONE_EXTERNAL));
      const requestsBefore = chatRequests(model).length;
      await clickTitleAction(page, ACCEPT);
      t.diagnostic(
        `notification: ${await waitForNotification(page, /gone\.txt changed on disk after the preview was built, and the proposal no longer applies/i)}`,
      );
      await assertNothingSent('call_ws_gone', requestsBefore, 'gone.txt', text(GONE_EXTERNAL));
      // Accepting again cannot slip through either (the same warning again; the old one is cleared first, as the
      // workbench would not show a duplicate).
      await runCommand(page, 'Notifications: Clear All Notifications');
      await page
        .locator('.notifications-toasts .notification-toast')
        .filter({ hasText: /no longer applies/i })
        .first()
        .waitFor({ state: 'hidden', timeout: 10_000 });
      await reviewTab(page, 'gone.txt').click();
      await clickTitleAction(page, ACCEPT);
      await waitForNotification(page, /gone\.txt changed on disk after the preview was built, and the proposal no longer applies/i);
      await assertNothingSent('call_ws_gone', requestsBefore, 'gone.txt', text(GONE_EXTERNAL));

      await clickTitleAction(page, REJECT);
      assert.match(await waitForToolResultSent(model, 'call_ws_gone'), /denied/i);
      await waitForAssistantText(chat(), 'ws-gone-done');
      await waitForIdle(chat());
      assert.equal(onDisk('gone.txt'), text(GONE_EXTERNAL), "the other tool's text was lost");
    }),
  );

  it(
    "2c. a hand-edited proposal and a change on disk: the re-diff keeps the user's edit, the agent's change and the other tool's change; Accept writes all three",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_ws_rebase', 'edit', editArgs('rebase.txt', ['rebase line 8', REBASE_AGENT_LINE])),
        textTurn('Thanks: ws-rebase-done.'),
      );
      await promptAgent(chat(), 'Rewrite line 8 of rebase.txt');
      const { diff } = await waitForProposal(page, 'rebase.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes(REBASE_AGENT_LINE), 'the proposal on the right');
      await runCommand(page, 'View: Focus Active Editor Group');
      await retypeLine(page, 15, REBASE_HAND_LINE);
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes(REBASE_HAND_LINE), 'the hand edit in the proposal');

      writeFileSync(path('rebase.txt'), text(REBASE_EXTERNAL));
      const requestsBefore = chatRequests(model).length;
      await clickTitleAction(page, ACCEPT);
      t.diagnostic(`notification: ${await waitForNotification(page, /rebase\.txt changed on disk after the preview was built/i)}`);
      const all = text(replaceLine(replaceLine(REBASE_EXTERNAL, 8, REBASE_AGENT_LINE), 15, REBASE_HAND_LINE));
      await waitForRenderedText(originalSide(diff), (s) => s === text(REBASE_EXTERNAL), 'the new disk text on the left');
      await waitForRenderedText(modifiedSide(diff), (s) => s === all, "the user's proposal carried over onto the new text");
      await assertNothingSent('call_ws_rebase', requestsBefore, 'rebase.txt', text(REBASE_EXTERNAL));

      await clickTitleAction(page, ACCEPT);
      await waitForDisk('rebase.txt', all);
      const told = await waitForToolResultSent(model, 'call_ws_rebase');
      assert.match(told, /The user modified your proposal/, `the tool result the model got: ${told}`);
      await reviewTab(page, 'rebase.txt').waitFor({ state: 'detached', timeout: 15_000 });
      await waitForAssistantText(chat(), 'ws-rebase-done');
      await waitForIdle(chat());
    }),
  );

  it(
    '3. text typed into the file after Merge… is not replaced without asking when the merge is accepted',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      const before = replaceLine(PROBE, 1, 'probe line 1, typed before the merge');
      const afterToo = replaceLine(before, 4, 'probe line 4, typed after the merge');
      await typeWithoutSaving('probe.txt', 1, before[0], text(before));
      model.enqueue(
        toolCallTurn('call_ws_late', 'edit', editArgs('probe.txt', ['probe line 8', 'probe line 8, rewritten by the agent'])),
        textTurn('Kept yours: ws-late-done.'),
      );
      await promptAgent(chat(), 'Rewrite line 8 of probe.txt');
      await waitForProposal(page, 'probe.txt');
      await clickTitleAction(page, ACCEPT);
      await readDirtyModal(t, 'probe.txt');
      await answerModal(page, MERGE);
      await waitForNotification(page, /on top of your unsaved text/i);
      await waitForRenderedText(
        modifiedSide(activeDiffEditor(page)),
        (s) => s === text(replaceLine(before, 8, 'probe line 8, rewritten by the agent')),
        'the merge on the right',
      );

      // The user goes back to the file and types more before accepting the merge they reviewed.
      const editor = await showFile('probe.txt');
      await retypeLine(page, 4, afterToo[3]);
      await waitForRenderedText(editor, (s) => s === text(afterToo), 'the text typed after the merge');
      await reviewTab(page, 'probe.txt').click();
      await clickTitleAction(page, ACCEPT);
      const outcome = await waitUntil(
        async () => {
          if (await modalDialog(page).isVisible()) return 'asked' as const;
          return onDisk('probe.txt') !== text(PROBE) ? ('written' as const) : undefined;
        },
        { timeoutMs: 20_000, what: 'the unsaved-changes question (or a write)' },
      );
      if (outcome === 'written') {
        await waitForIdle(chat());
        const shown = await renderedText(await showFile('probe.txt'));
        assert.fail(
          `Accept wrote the merge over text typed after it without asking: the disk is ${JSON.stringify(onDisk('probe.txt'))}, the editor shows ${JSON.stringify(shown)} (dirty: ${await isDirty('probe.txt')}); the typed line 4 is only reachable with Undo`,
        );
      }
      await readDirtyModal(t, 'probe.txt');
      await answerModal(page, KEEP_MINE);
      assert.match(await waitForToolResultSent(model, 'call_ws_late'), /denied/i);
      await waitForAssistantText(chat(), 'ws-late-done');
      await waitForIdle(chat());
      assert.equal(onDisk('probe.txt'), text(PROBE));
      await waitForRenderedText(await showFile('probe.txt'), (s) => s === text(afterToo), 'both typed lines still in the editor');
      await revertFile('probe.txt', text(PROBE));
    }),
  );
});

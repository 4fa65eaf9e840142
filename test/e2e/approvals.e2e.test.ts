// Issue #4 "Done when", end to end in code-server driven by Chromium: approvals reviewed in VS Code's diff editor.
// One VS Code launch; the checks run in order, each a user flow against the scripted model (the model "calls" a tool,
// the embedded core asks for approval, the user answers in the diff editor, the chat card or an input box).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import {
  approvalCard,
  coreEnvFolderSettings,
  editArgs,
  promptAgent,
  textTurn,
  toolCallTurn,
  toolResultSent,
  waitForCardState,
  waitForToolResultSent,
} from './harness/approvals';
import { dumpBrowserStorage } from './harness/browserStorage';
import { testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { byTestId } from './harness/chatView';
import {
  clickCodeLensAbove,
  clickTitleAction,
  clickTitleMenuItem,
  codeLensTexts,
  modifiedSide,
  originalSide,
  waitForProposal,
  waitForProposalClosed,
  watchProposalTabs,
} from './harness/diffEditor';
import { activateTab, activeCodeEditor, goToLine, openWorkspaceFile, retypeLine, waitForRenderedText } from './harness/editors';
import { quickInputBox, runCommand, typeInInputBox } from './harness/quickInput';
import { waitForNotification } from './harness/notifications';
import { environmentOf } from './harness/processTree';
import { filesContaining } from './harness/secretScan';
import { waitUntil } from './harness/wait';
import { boxesOverFrames, scrollIntoViewSettled } from './harness/webviewProbe';

const SUDO_PASSWORD = `e2e-pw-${randomBytes(12).toString('hex')}`;
/**
 * How long the core keeps an approval pending (CATALYST_CODE_APPROVAL_TIMEOUT_SECS, for the whole launch): long enough for
 * every automated answer below, short enough that the expiry check does not wait long.
 */
const APPROVAL_TIMEOUT_SECS = 30;
/** Animation frames in which a button must keep its box before it is clicked. */
const STILL_FRAMES = 30;

const ACCEPT = 'Accept Proposed Change';
const REJECT = 'Reject Proposed Change';
const ALWAYS = 'Always Allow This Kind of Change';

const FIRST_TEXT = 'alpha one\nbeta two\ngamma three\n';
const REJECT_TEXT = 'keep me as I am\nand me too\n';
const HAND_TEXT = 'first line\nsecond line\nthird line\nfourth line\n';
const EXPIRE_TEXT = 'nobody answers for me\n';
const line100 = (n: number) => `line ${String(n).padStart(3, '0')}: the original text of line ${n}`;
const BLOCKS_TEXT = Array.from({ length: 100 }, (_, i) => `${line100(i + 1)}\n`).join('');
const BLOCK_NEW = { 5: 'line 005: CHANGED, block one', 50: 'line 050: CHANGED, block two', 95: 'line 095: CHANGED, block three' } as const;

describe('approvals in the diff editor (issue #4)', { timeout: 900_000 }, () => {
  const suite = chatSuite({
    files: {
      'first.txt': FIRST_TEXT,
      'reject.txt': REJECT_TEXT,
      'blocks.txt': BLOCKS_TEXT,
      'hand.txt': HAND_TEXT,
      'expire.txt': EXPIRE_TEXT,
      'always-1.txt': 'always one\n',
      'always-2.txt': 'always two\n',
      'always-3.txt': 'always three\n',
      ...coreEnvFolderSettings({ CATALYST_CODE_APPROVAL_TIMEOUT_SECS: String(APPROVAL_TIMEOUT_SECS) }),
    },
  });
  const { check, chat, onDisk, waitForDisk, settle } = suite;

  it(
    'opens the chat and logs in to the scripted endpoint',
    check(async () => {
      await suite.openChatAndLogIn();
      // The expiry check needs the short approval timeout in the core's environment.
      const [core] = await waitUntil(() => (suite.env().corePids().length > 0 ? suite.env().corePids() : undefined), {
        timeoutMs: 30_000,
        what: 'the core process',
      });
      assert.equal(
        environmentOf(core)?.CATALYST_CODE_APPROVAL_TIMEOUT_SECS,
        String(APPROVAL_TIMEOUT_SECS),
        'the core did not get catalystCode.core.env',
      );
    }),
  );

  it(
    '1. an edit proposal opens as a diff; Accept in the title bar writes it, the open editor shows it, Undo brings the old text back',
    check(async (t) => {
      const { page, model } = suite.env();
      // The user has the file open before asking.
      const editor = await openWorkspaceFile(page, 'first.txt');
      await waitForRenderedText(editor, (s) => s === FIRST_TEXT, 'first.txt in its editor');
      model.enqueue(
        toolCallTurn('call_e2e_accept', 'edit', editArgs('first.txt', ['beta two', 'beta two, edited by the agent'])),
        textTurn('Edited it: e2e-accept-done.'),
      );
      await promptAgent(chat(), 'Change the second line of first.txt');
      const { diff, sideBySide } = await waitForProposal(page, 'first.txt');
      t.diagnostic(`side by side: ${sideBySide}`);
      assert.ok(sideBySide, 'the diff is inline, not side by side (window too narrow?)');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('beta two, edited by the agent'), 'the proposal on the right');
      await waitForRenderedText(originalSide(diff), (s) => s === FIRST_TEXT, 'the file as it is on the left');
      assert.equal(onDisk('first.txt'), FIRST_TEXT, 'the file changed before the user answered');

      await clickTitleAction(page, ACCEPT);
      const expected = 'alpha one\nbeta two, edited by the agent\ngamma three\n';
      await waitForDisk('first.txt', expected);
      await waitForProposalClosed(page, 'first.txt');
      await waitForCardState(approvalCard(chat(), 'first.txt'), 'approved');
      await waitForAssistantText(chat(), 'e2e-accept-done');
      await waitForIdle(chat());
      assert.doesNotMatch(toolResultSent(model, 'call_e2e_accept') ?? '', /denied|modified/i);

      // The editor the user had open shows the written text…
      await activateTab(page, 'first.txt');
      const open = activeCodeEditor(page);
      await waitForRenderedText(open, (s) => s === expected, 'the open editor to show the accepted text');
      // …and Undo in it brings the old text back (the disk keeps the new one until saved).
      const dirty = () => page.locator('.tabs-container .tab.dirty', { hasText: 'first.txt' }).count();
      t.diagnostic(`first.txt dirty after the write: ${await dirty()}`);
      await runCommand(page, 'View: Focus Active Editor Group');
      await page.keyboard.press('ControlOrMeta+Z');
      await waitForRenderedText(open, (s) => s === FIRST_TEXT, 'Undo in the editor to restore the old text');
      assert.equal(onDisk('first.txt'), expected);
      t.diagnostic(`first.txt dirty after Undo: ${await dirty()}`);
      // Leave it as on disk for the next checks: Redo.
      await page.keyboard.press('ControlOrMeta+Shift+Z');
      await waitForRenderedText(open, (s) => s === expected, 'Redo in the editor');
      t.diagnostic(`first.txt dirty after Redo: ${await dirty()}`);
    }),
  );

  it(
    '2. Reject in the title bar leaves the file alone, closes the tab, and the model is told it was denied',
    check(async () => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_e2e_reject', 'edit', editArgs('reject.txt', ['keep me as I am', 'the agent wanted this instead'])),
        textTurn('Understood, I left it: e2e-reject-done.'),
      );
      await promptAgent(chat(), 'Rewrite the first line of reject.txt');
      const { diff } = await waitForProposal(page, 'reject.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('the agent wanted this instead'), 'the proposal on the right');
      await clickTitleAction(page, REJECT);
      await waitForProposalClosed(page, 'reject.txt');
      const told = await waitForToolResultSent(model, 'call_e2e_reject');
      assert.match(told, /denied/i, `the tool result the model got: ${told}`);
      await waitForAssistantText(chat(), 'e2e-reject-done');
      await waitForCardState(approvalCard(chat(), 'reject.txt'), 'denied');
      assert.equal(onDisk('reject.txt'), REJECT_TEXT);
      await waitForIdle(chat());
    }),
  );

  it(
    '3. three change blocks: Reject Change (CodeLens) on the middle one, then Accept writes blocks 1 and 3 only',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn(
          'call_e2e_blocks',
          'edit',
          editArgs('blocks.txt', [line100(5), BLOCK_NEW[5]], [line100(50), BLOCK_NEW[50]], [line100(95), BLOCK_NEW[95]]),
        ),
        textTurn('Noted your change: e2e-blocks-done.'),
      );
      await promptAgent(chat(), 'Change lines 5, 50 and 95 of blocks.txt');
      const { diff } = await waitForProposal(page, 'blocks.txt');
      const lenses = await waitUntil(
        async () => {
          const texts = await codeLensTexts(diff);
          return texts.some((s) => s.includes('Reject Change')) ? texts : undefined;
        },
        { timeoutMs: 15_000, what: 'the CodeLens on the proposal side' },
      );
      t.diagnostic(`lenses on screen: ${JSON.stringify(lenses)}`);
      assert.ok(
        lenses.some((s) => /Accept Change/.test(s)),
        `no "Accept Change" lens: ${JSON.stringify(lenses)}`,
      );
      assert.ok(
        lenses.some((s) => /\bof 3\b/.test(s)),
        `no "Change 1 of 3" summary lens: ${JSON.stringify(lenses)}`,
      );

      // Bring the middle block on screen (Go to Line in the proposal side) and reject it with its lens.
      await runCommand(page, 'View: Focus Active Editor Group');
      await goToLine(page, 50);
      await clickCodeLensAbove(page, diff, BLOCK_NEW[50], 'Reject Change');
      await waitForRenderedText(
        modifiedSide(diff),
        (s) => s.includes(line100(50)) && !s.includes(BLOCK_NEW[50]),
        'the middle block reverted in the proposal',
      );
      assert.equal(onDisk('blocks.txt'), BLOCKS_TEXT, 'rejecting one block wrote the file');

      await clickTitleAction(page, ACCEPT);
      const expected = BLOCKS_TEXT.replace(`${line100(5)}\n`, `${BLOCK_NEW[5]}\n`).replace(`${line100(95)}\n`, `${BLOCK_NEW[95]}\n`);
      await waitForDisk('blocks.txt', expected);
      await waitForProposalClosed(page, 'blocks.txt');
      const told = await waitForToolResultSent(model, 'call_e2e_blocks');
      assert.match(told, /The user modified your proposal/, `the tool result the model got: ${told}`);
      await waitForAssistantText(chat(), 'e2e-blocks-done');
      // The chat card shows the diff of what was written: the core's tool_result came before the reply just seen.
      const card = approvalCard(chat(), 'blocks.txt');
      await waitForCardState(card, 'approved');
      assert.match(await card.locator('.approval-state').innerText(), /with your edits/);
      const cardDiff = await card.locator('pre.diff').innerText();
      assert.ok(
        cardDiff.includes(BLOCK_NEW[5]) && cardDiff.includes(BLOCK_NEW[95]),
        `the card's diff lacks the accepted blocks: ${cardDiff}`,
      );
      assert.ok(!cardDiff.includes(BLOCK_NEW[50]), `the card's diff still has the rejected block: ${cardDiff}`);
      await waitForIdle(chat());
    }),
  );

  it(
    '4. a hand edit typed into the proposal side is what Accept (Ctrl+Shift+Enter) writes',
    check(async () => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_e2e_hand', 'edit', editArgs('hand.txt', ['second line', 'second line, changed by the agent'])),
        textTurn('Thanks for the fix: e2e-hand-done.'),
      );
      await promptAgent(chat(), 'Improve the second line of hand.txt');
      const { diff } = await waitForProposal(page, 'hand.txt');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('second line, changed by the agent'), 'the proposal on the right');
      await runCommand(page, 'View: Focus Active Editor Group');
      await retypeLine(page, 3, 'third line, typed by hand');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('third line, typed by hand'), 'the hand edit in the proposal');
      assert.equal(onDisk('hand.txt'), HAND_TEXT, 'typing in the proposal wrote the file');

      await page.keyboard.press('ControlOrMeta+Shift+Enter');
      const expected = 'first line\nsecond line, changed by the agent\nthird line, typed by hand\nfourth line\n';
      await waitForDisk('hand.txt', expected);
      await waitForProposalClosed(page, 'hand.txt');
      const told = await waitForToolResultSent(model, 'call_e2e_hand');
      assert.match(told, /The user modified your proposal/, `the tool result the model got: ${told}`);
      assert.match(told, /typed by hand/);
      await waitForAssistantText(chat(), 'e2e-hand-done');
      await waitForIdle(chat());
    }),
  );

  it(
    "6. a bash approval answered with the chat card's Accept runs the command",
    check(async () => {
      await settle();
      const { model } = suite.env();
      const command = 'echo e2e-bash-ok > bash-out.txt';
      model.enqueue(toolCallTurn('call_e2e_bash', 'bash', { command }), textTurn('Ran it: e2e-bash-done.'));
      await promptAgent(chat(), 'Write e2e-bash-ok into bash-out.txt with bash');
      const card = approvalCard(chat(), command);
      await waitForCardState(card, 'pending', 30_000);
      assert.equal(onDisk('bash-out.txt') !== undefined, false, 'the command ran before the user answered');
      await card.locator(byTestId(TEST_IDS.approvalAccept)).first().click();
      await waitForDisk('bash-out.txt', 'e2e-bash-ok\n');
      await waitForCardState(card, 'approved');
      await waitForAssistantText(chat(), 'e2e-bash-done');
      await waitForIdle(chat());
    }),
  );

  it(
    "7. a sudo command: the sudo card's button asks for the password in a password box",
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      const command = 'sudo -n true || sudo true';
      model.enqueue(toolCallTurn('call_e2e_sudo', 'bash', { command }), textTurn('sudo attempt over: e2e-sudo-done.'));
      await promptAgent(chat(), 'Check that sudo works');
      // bash is destructive: first the approval, then the password.
      const card = approvalCard(chat(), command);
      await waitForCardState(card, 'pending', 30_000);
      await card.locator(byTestId(TEST_IDS.approvalAccept)).first().click();
      await waitForCardState(card, 'approved');
      const sudoCard = chat().locator(byTestId(TEST_IDS.sudoCard)).last();
      await sudoCard.waitFor({ state: 'visible', timeout: 30_000 });
      // The card holds still by itself (issue #11): the list once followed new content to a few pixels short of the end
      // and pulled back whatever scrolled there, so a click never found the button stable. Scrolled to as a user would,
      // the transcript shows its end and the button stays put; then one click, no retries needed.
      const passwordButton = sudoCard.locator(byTestId(TEST_IDS.sudoAnswer)).first();
      await scrollIntoViewSettled(passwordButton);
      const shortOfEnd = await chat()
        .locator(byTestId(TEST_IDS.transcript))
        .first()
        .evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
      assert.ok(Math.abs(shortOfEnd) <= 1, `scrolled to the sudo card, the transcript stops ${shortOfEnd}px short of its end`);
      const boxes = new Set(await boxesOverFrames(passwordButton, STILL_FRAMES));
      assert.equal(boxes.size, 1, `the sudo card's button moves: ${[...boxes].join(' → ')}`);
      await passwordButton.click();
      const box = quickInputBox(page);
      await box.waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await box.getAttribute('type'), 'password', 'the sudo password box does not hide what is typed');
      await typeInInputBox(page, SUDO_PASSWORD, { prompt: /sudo|password/i });
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
      const told = await waitForToolResultSent(model, 'call_e2e_sudo');
      t.diagnostic(`the bash result (sudo ${existsSync('/usr/bin/sudo') ? 'installed' : 'not installed'}): ${told.slice(0, 200)}`);
      assert.ok(!told.includes(SUDO_PASSWORD), 'the password reached the model');
      await waitForAssistantText(chat(), 'e2e-sudo-done');
      await waitForIdle(chat());
      assert.equal(await sudoCard.locator(byTestId(TEST_IDS.sudoAnswer)).count(), 0, 'the sudo card still offers the password button');
    }),
  );

  it(
    '8. an approval nobody answers expires: its diff tab closes, the card says Expired, the user is told',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_e2e_expire', 'edit', editArgs('expire.txt', ['nobody answers for me', 'an answer that never comes'])),
        textTurn('It expired: e2e-expire-done.'),
      );
      await promptAgent(chat(), 'Change expire.txt');
      await waitForProposal(page, 'expire.txt');
      const card = approvalCard(chat(), 'expire.txt');
      await waitForCardState(card, 'pending');
      await waitForProposalClosed(page, 'expire.txt', (APPROVAL_TIMEOUT_SECS + 20) * 1000);
      await waitForCardState(card, 'expired');
      const told = await waitForToolResultSent(model, 'call_e2e_expire');
      assert.match(told, /expired/i, `the tool result the model got: ${told}`);
      t.diagnostic(`notification: ${await waitForNotification(page, /expired/i, 10_000)}`);
      assert.equal(onDisk('expire.txt'), EXPIRE_TEXT);
      await waitForAssistantText(chat(), 'e2e-expire-done');
      await waitForIdle(chat());
    }),
  );

  it(
    '5. "Always" from the title bar "..." menu: the next file change applies with no prompt; a new session prompts again',
    check(async () => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_e2e_always1', 'edit', editArgs('always-1.txt', ['always one', 'always one, allowed for good'])),
        textTurn('Applied: e2e-always-1-done.'),
      );
      await promptAgent(chat(), 'Change always-1.txt');
      await waitForProposal(page, 'always-1.txt');
      await clickTitleMenuItem(page, ALWAYS);
      await waitForDisk('always-1.txt', 'always one, allowed for good\n');
      await waitForProposalClosed(page, 'always-1.txt');
      await waitForAssistantText(chat(), 'e2e-always-1-done');
      await waitForIdle(chat());

      // A later prompt: the file change goes through with no card and no diff tab.
      const proposalTabsOpened = await watchProposalTabs(page);
      model.enqueue(
        toolCallTurn('call_e2e_always2', 'edit', editArgs('always-2.txt', ['always two', 'always two, no questions asked'])),
        textTurn('Applied without asking: e2e-always-2-done.'),
      );
      await promptAgent(chat(), 'Change always-2.txt');
      await waitForAssistantText(chat(), 'e2e-always-2-done');
      await waitForIdle(chat());
      assert.equal(onDisk('always-2.txt'), 'always two, no questions asked\n');
      assert.equal(await proposalTabsOpened(), 0, 'a diff tab opened although the kind was always allowed');
      assert.equal(await approvalCard(chat(), 'always-2.txt').count(), 0, 'an approval card showed although the kind was always allowed');
      assert.doesNotMatch(toolResultSent(model, 'call_e2e_always2') ?? '', /denied/i);

      // "Always" lasts for the session: a new session asks again.
      await runCommand(page, 'Catalyst: New Session');
      await waitUntil(async () => (await testId(chat(), TEST_IDS.userMessage).count()) === 0, {
        timeoutMs: 15_000,
        what: 'an empty transcript in the new session',
      });
      model.enqueue(
        toolCallTurn('call_e2e_always3', 'edit', editArgs('always-3.txt', ['always three', 'always three, should be asked'])),
        textTurn('Left it: e2e-always-3-done.'),
      );
      await promptAgent(chat(), 'Change always-3.txt');
      await waitForProposal(page, 'always-3.txt');
      await waitForCardState(approvalCard(chat(), 'always-3.txt'), 'pending');
      await clickTitleAction(page, REJECT);
      await waitForProposalClosed(page, 'always-3.txt');
      await waitForAssistantText(chat(), 'e2e-always-3-done');
      assert.equal(onDisk('always-3.txt'), 'always three\n');
      await waitForIdle(chat());
    }),
  );

  it(
    '7b. the sudo password is nowhere: not in the browser storage, the logs, the user data, HOME or the workspace',
    check(async () => {
      const { page, workbench, home, root, model } = suite.env();
      assert.ok(model.requests.length > 0);
      assert.ok(!JSON.stringify(model.requests).includes(SUDO_PASSWORD), 'the password reached the model server');
      // A reload makes the workbench flush its browser-side state the way closing a window does.
      await page.reload();
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90_000 });
      const stored = await dumpBrowserStorage(page);
      assert.ok(stored.length > 0, 'nothing in the browser storage: the scan looks in the wrong place');
      assert.deepEqual(
        stored.filter((s) => s.includes(SUDO_PASSWORD)),
        [],
        'the password is in the browser storage',
      );
      await workbench.close();
      const leaks = [
        ...filesContaining(workbench.userDataDir, SUDO_PASSWORD),
        ...(workbench.browserProfileDir ? filesContaining(workbench.browserProfileDir, SUDO_PASSWORD) : []),
        ...filesContaining(home, SUDO_PASSWORD),
        ...filesContaining(root, SUDO_PASSWORD, {
          skip: (p) =>
            p.startsWith(home) ||
            p.startsWith(workbench.userDataDir) ||
            (workbench.browserProfileDir !== undefined && p.startsWith(workbench.browserProfileDir)),
        }),
      ];
      assert.deepEqual(
        [...new Set(leaks)].map((f) => relative(root, f)),
        [],
        'files holding the sudo password',
      );
    }),
  );
});

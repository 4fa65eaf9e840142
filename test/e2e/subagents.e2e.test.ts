// Issue #14 "Done when", in code-server: the scripted model fans out to three workers (each child its own routed
// script); the subagent card shows the three rows while every child's request is in flight; one child's edit is
// reviewed per hunk in the diff editor; another child's intercom question is answered from its card; Abort during a
// second fan-out cancels every child, and no row changes afterwards.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { ScriptStep, ScriptedResponse, StartedScriptedModelServer } from '../support/scriptedModelServer';
import { approvalCard, editArgs, promptAgent, textTurn, toolCallTurn, waitForToolResultSent } from './harness/approvals';
import { abortRun, waitForAssistantText, waitForIdle, waitForUserText } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { GOAL_TEST_IDS } from '../../webview/goal/testIds';
import { byTestId, chatLocator } from './harness/chatView';
import { clickCodeLensAbove, clickTitleAction, modifiedSide, waitForProposal, waitForProposalClosed } from './harness/diffEditor';
import { goToLine, waitForRenderedText } from './harness/editors';
import { waitForNotification } from './harness/notifications';
import { pickQuickItem, runCommand, typeInInputBox } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const line100 = (n: number) => `line ${String(n).padStart(3, '0')}: the original text of line ${n}`;
const BLOCKS_TEXT = Array.from({ length: 100 }, (_, i) => `${line100(i + 1)}\n`).join('');
const BLOCK_NEW = { 5: 'line 005: CHANGED by child A', 50: 'line 050: CHANGED by child A', 95: 'line 095: CHANGED by child A' } as const;
const QUESTION = 'Keep line 50 as it is, or change it too?';
const REPLY = 'Keep it: the user rejected that hunk.';
const PALETTE_QUESTION = 'Which folder should the report go in?';
const PALETTE_REPLY = 'Put it in docs/.';

/** Resolves once `count` responses wait at `gate`; fails after `timeoutMs` (the bound a locator wait has too), with what arrived. */
async function heldAt(model: StartedScriptedModelServer, gate: string, count: number, timeoutMs = 60_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const routes = model.requests.filter((r) => r.method === 'POST').map((r) => r.route ?? '(default)');
      reject(
        new Error(`${timeoutMs} ms passed waiting for ${count} responses held at ${gate}; chat requests so far: ${routes.join(', ')}`),
      );
    }, timeoutMs);
  });
  try {
    await Promise.race([model.held(gate, count), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** A child's first model round, held at `gate` (no byte sent) until the test releases it: the child is visibly in flight. */
const held = (gate: string, text: string, then?: ScriptStep): ScriptedResponse => ({
  holdUntil: gate,
  steps: [{ text }, ...(then ? [then] : [])],
});

describe('subagents in the chat (issue #14)', { timeout: 900_000 }, () => {
  const suite = chatSuite({ files: { 'blocks.txt': BLOCKS_TEXT } });
  const { check, chat, settle } = suite;
  const subagentCards = () => chat().locator(`${byTestId(TEST_IDS.toolCard)}[data-tool="subagent"]`);
  const rowsOf = (card: Locator) => card.locator(byTestId(TEST_IDS.subagentRow));
  const rowStates = (card: Locator) => rowsOf(card).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state')));

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    "a fan-out to three: three rows streaming, one child's edit reviewed per hunk, another's question answered from its card",
    check(async () => {
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_fan', 'subagent', {
          tasks: [
            { agent: 'worker', task: '[child-A] change lines 5, 50 and 95 of blocks.txt' },
            { agent: 'worker', task: '[child-B] ask whether line 50 may change' },
            { agent: 'worker', task: '[child-C] summarise blocks.txt' },
          ],
        }),
        textTurn('All three reported: e2e-fanout-done.'),
      );
      model.route(
        '[child-A]',
        held('fan1', 'Child A: editing three blocks.', {
          toolCall: {
            id: 'call_a_edit',
            name: 'edit',
            arguments: editArgs('blocks.txt', [line100(5), BLOCK_NEW[5]], [line100(50), BLOCK_NEW[50]], [line100(95), BLOCK_NEW[95]]),
          },
        }),
        textTurn('Child A: done with blocks.txt.'),
      );
      model.route(
        '[child-B]',
        held('fan1', 'Child B: I need a decision.', {
          toolCall: { id: 'call_b_ask', name: 'contact_supervisor', arguments: { reason: 'need_decision', message: QUESTION } },
        }),
        textTurn('Child B: keeping line 50.'),
      );
      model.route('[child-C]', held('fan1', 'Child C: blocks.txt has 100 numbered lines.'));
      await promptAgent(chat(), 'Split the blocks.txt work across three workers');

      // The subagent call is destructive: the user approves it in the chat first.
      const call = approvalCard(chat(), 'Allow subagent?');
      await call.locator(byTestId(TEST_IDS.approvalAccept)).click();
      await heldAt(model, 'fan1', 3);
      const card = subagentCards().last();
      await waitUntil(async () => (await rowsOf(card).count()) === 3, { timeoutMs: 30_000, what: 'three rows on the subagent card' });
      assert.deepEqual(await rowStates(card), ['running', 'running', 'running'], 'all three children run at once');
      const tasks = await rowsOf(card).locator('.subagent-task').allTextContents();
      assert.deepEqual(
        tasks.map((t) => t.slice(0, 9)),
        ['[child-A]', '[child-B]', '[child-C]'],
      );
      // Open child A's row: its streamed reply shows up inside the row once its request is let through.
      const rowA = rowsOf(card).filter({ hasText: '[child-A]' });
      await rowA.locator('summary').click();
      model.release('fan1');
      await rowA.locator(byTestId(TEST_IDS.assistantMessage)).getByText('Child A: editing three blocks.').waitFor({ timeout: 30_000 });

      // Child A's edit: the diff editor, the middle hunk rejected by its CodeLens, the rest accepted.
      const { tab, diff } = await waitForProposal(page, 'blocks.txt');
      assert.match((await tab.textContent()) ?? '', /worker \(subagent\)/, 'the diff title names the agent');
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes(BLOCK_NEW[5]), "child A's proposal on the right");
      const edit = approvalCard(chat(), 'blocks.txt');
      assert.match((await edit.locator('.approval-agent').textContent()) ?? '', /worker \(subagent\)/, 'the card names the agent');
      await runCommand(page, 'View: Focus Active Editor Group');
      await goToLine(page, 50);
      await clickCodeLensAbove(page, diff, BLOCK_NEW[50], 'Reject Change');
      await waitForRenderedText(
        modifiedSide(diff),
        (s) => s.includes(line100(50)) && !s.includes(BLOCK_NEW[50]),
        'the middle hunk reverted in the proposal',
      );
      await clickTitleAction(page, 'Accept Proposed Change');
      const expected = BLOCKS_TEXT.replace(`${line100(5)}\n`, `${BLOCK_NEW[5]}\n`).replace(`${line100(95)}\n`, `${BLOCK_NEW[95]}\n`);
      // Hunks 1 and 3 on disk, the middle one not.
      await suite.waitForDisk('blocks.txt', expected, 15_000);
      await waitForProposalClosed(page, 'blocks.txt');

      // Child B's question: a card in the chat; the reply reaches the child as its tool result.
      const ask = chat().locator(byTestId(TEST_IDS.intercomCard)).filter({ hasText: QUESTION });
      await ask.locator(byTestId(TEST_IDS.intercomReplyInput)).fill(REPLY);
      await ask.locator(byTestId(TEST_IDS.intercomSend)).click();
      assert.equal(await waitForToolResultSent(model, 'call_b_ask'), REPLY);
      await waitUntil(async () => (await ask.getAttribute('data-state')) === 'answered', {
        timeoutMs: 15_000,
        what: 'the question answered',
      });

      assert.match(await waitForToolResultSent(model, 'call_a_edit'), /The user modified your proposal/);
      await waitForAssistantText(chat(), 'e2e-fanout-done');
      await waitForIdle(chat());
      assert.deepEqual(await rowStates(card), ['completed', 'completed', 'completed']);
      assert.equal(model.requestsFor('[child-C]').length, 1, 'child C answered in one round');
    }),
  );

  it(
    'Abort during a second fan-out cancels every child, and no row changes after it',
    check(async () => {
      const { model } = suite.env();
      await settle();
      model.enqueue(
        toolCallTurn('call_fan2', 'subagent', {
          tasks: ['D', 'E', 'F'].map((n) => ({ agent: 'worker', task: `[child-${n}] wait for the release` })),
        }),
      );
      for (const n of ['D', 'E', 'F']) model.route(`[child-${n}]`, held('fan2', `Child ${n}: too late.`));
      await promptAgent(chat(), 'Fan out again');
      await approvalCard(chat(), 'Allow subagent?').locator(byTestId(TEST_IDS.approvalAccept)).click();
      await heldAt(model, 'fan2', 3);
      const card = subagentCards().last();
      await waitUntil(async () => (await rowsOf(card).count()) === 3, { timeoutMs: 30_000, what: 'three rows on the second card' });
      assert.deepEqual(await rowStates(card), ['running', 'running', 'running']);
      const rowD = rowsOf(card).filter({ hasText: '[child-D]' });
      await rowD.locator('summary').click();
      await rowD.locator('.subagent-empty').waitFor();

      await abortRun(chat());
      await waitForIdle(chat());
      await waitUntil(async () => (await rowStates(card)).every((s) => s === 'cancelled'), {
        timeoutMs: 15_000,
        what: 'every row of the second fan-out cancelled',
      });
      const badges = await rowsOf(card).locator('vscode-badge').allTextContents();
      assert.deepEqual(badges, ['Cancelled', 'Cancelled', 'Cancelled'], 'the UI says which children were cancelled');
      const cancelledRows = await rowsOf(card).allTextContents();

      // Let the held responses go: a core that still listened would now stream into the rows. A later turn, answered
      // after them, proves by its own reply that nothing changed the rows in between.
      model.release('fan2');
      model.enqueue(textTurn('Still here: e2e-after-abort.'));
      await promptAgent(chat(), 'Are you there?');
      await waitForAssistantText(chat(), 'e2e-after-abort');
      await waitForIdle(chat());
      assert.deepEqual(await rowsOf(card).allTextContents(), cancelledRows, 'a row changed after the abort');
      assert.equal(await rowD.locator(byTestId(TEST_IDS.assistantMessage)).count(), 0, "child D's held reply never arrived");
    }),
  );

  it(
    'Run Subagent… from the palette starts a child; with the chat hidden (the Goal Control Center open) its question is a notification answered there',
    check(async () => {
      const { page, model } = suite.env();
      await settle();
      model.enqueue(
        toolCallTurn('call_palette', 'subagent', { agent: 'worker', task: '[child-P] write the report' }),
        textTurn('The palette child is done: e2e-palette-done.'),
      );
      model.route(
        '[child-P]',
        held('pal', 'Child P: one question first.', {
          toolCall: { id: 'call_p_ask', name: 'contact_supervisor', arguments: { reason: 'need_decision', message: PALETTE_QUESTION } },
        }),
        textTurn('Child P: the report goes in docs/.'),
      );

      // The palette command: the core's agents in a picker, then the task; the prompt asks the model for the tool.
      await runCommand(page, 'Catalyst: Run Subagent…');
      await pickQuickItem(page, 'worker');
      await typeInInputBox(page, 'the palette report', { prompt: /task for the worker subagent/ });
      await waitForUserText(chat(), 'Run the subagent tool: agent="worker", task="the palette report". Return its result.');
      await approvalCard(chat(), 'Allow subagent?').locator(byTestId(TEST_IDS.approvalAccept)).click();
      await heldAt(model, 'pal', 1);

      // The chat goes off screen; the child's question then comes as a notification, and its Reply… answers it. The
      // Control Center on screen shows no question, so it does not hold the notification back.
      await runCommand(page, 'View: Close Primary Side Bar');
      await runCommand(page, 'Catalyst: Open Goal Control Center');
      await chatLocator(page, 'editor')
        .locator(`[data-testid="${GOAL_TEST_IDS.controlCenter}"]`)
        .waitFor({ state: 'visible', timeout: 30_000 });
      model.release('pal');
      const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: PALETTE_QUESTION }).first();
      assert.match(await waitForNotification(page, /the worker subagent asks/), /Which folder should the report go in\?/);
      await toast.getByRole('button', { name: 'Reply…' }).click();
      await typeInInputBox(page, PALETTE_REPLY, { prompt: /reply to the worker subagent/ });
      assert.equal(await waitForToolResultSent(model, 'call_p_ask'), PALETTE_REPLY, 'the reply unblocks the child');

      await runCommand(page, 'Catalyst: Open Chat');
      await waitForAssistantText(chat(), 'e2e-palette-done');
      await waitForIdle(chat());
      const ask = chat().locator(byTestId(TEST_IDS.intercomCard)).filter({ hasText: PALETTE_QUESTION });
      assert.equal(await ask.getAttribute('data-state'), 'answered', 'the card knows it was answered from the notification');
      assert.deepEqual(await rowStates(subagentCards().last()), ['completed']);
    }),
  );
});

// Issue #13 "Done when": a bulk_edit over two files asks for approval per file, each reviewed in VS Code's diff editor
// (code-server driven by Chromium, the scripted model calling load_tools then bulk_edit against the embedded core).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { editArgs, promptAgent, textTurn, toolCallTurn, waitForToolResultSent } from './harness/approvals';
import { waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { byTestId } from './harness/chatView';
import { clickTitleAction, modifiedSide, originalSide, waitForProposal, waitForProposalClosed } from './harness/diffEditor';
import { waitForRenderedText } from './harness/editors';

const A_TEXT = 'export const oldName = 1;\n';
const B_TEXT = 'import { oldName } from "./a";\n';

describe('bulk_edit reviewed file by file in the diff editor (issue #13)', { timeout: 600_000 }, () => {
  const suite = chatSuite({ files: { 'a.ts': A_TEXT, 'b.ts': B_TEXT } });
  const { check, chat, onDisk } = suite;

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'each file of the bulk_edit opens as its own proposal: Accept writes the first, Reject leaves the second',
    check(async () => {
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_bulk_load', 'load_tools', { tool: 'bulk' }),
        toolCallTurn('call_bulk_edit', 'bulk_edit', {
          edits: [editArgs('a.ts', ['oldName', 'newName']), editArgs('b.ts', ['oldName', 'newName'])],
        }),
        textTurn('Renamed where you let me: e2e-bulk-done.'),
      );
      await promptAgent(chat(), 'Rename oldName to newName in a.ts and b.ts');

      const first = await waitForProposal(page, 'a.ts');
      await waitForRenderedText(modifiedSide(first.diff), (s) => s === 'export const newName = 1;\n', 'the proposal for a.ts on the right');
      await waitForRenderedText(originalSide(first.diff), (s) => s === A_TEXT, 'a.ts as it is on the left');
      assert.equal(onDisk('b.ts'), B_TEXT);
      await clickTitleAction(page, 'Accept Proposed Change');
      await waitForProposalClosed(page, 'a.ts');

      const second = await waitForProposal(page, 'b.ts');
      await waitForRenderedText(
        modifiedSide(second.diff),
        (s) => s === 'import { newName } from "./a";\n',
        'the proposal for b.ts on the right',
      );
      assert.equal(onDisk('a.ts'), 'export const newName = 1;\n', 'the accepted file was written before the second review');
      await clickTitleAction(page, 'Reject Proposed Change');
      await waitForProposalClosed(page, 'b.ts');

      const told = await waitForToolResultSent(model, 'call_bulk_edit');
      assert.equal(told, "a.ts: applied 1 edit to a.ts\nb.ts: denied: tool call 'edit' was denied by the user");
      await waitForAssistantText(chat(), 'e2e-bulk-done');
      await waitForIdle(chat());
      assert.equal(onDisk('b.ts'), B_TEXT);

      const bulkCard = chat().locator(`${byTestId(TEST_IDS.toolCard)}[data-tool="bulk_edit"]`);
      assert.equal(await bulkCard.locator('.tool-detail').textContent(), '2 files: a.ts, b.ts');
      assert.equal(await bulkCard.getAttribute('data-status'), 'partially_completed');
      const approvalCards = chat().locator(byTestId(TEST_IDS.approvalCard));
      const nested = await approvalCards.evaluateAll((cards) =>
        cards.map((card) => [card.getAttribute('data-state'), card.classList.contains('inner-call')]),
      );
      assert.deepEqual(
        nested,
        [
          ['approved', true],
          ['denied', true],
        ],
        'in the chat, an approval card per file, each nested under the bulk_edit card',
      );
    }),
  );
});

// Issue #15 "Project rules" end to end in code-server: the rules files of the workspace reach the system prompt of the
// first model request, the chat header's "Rules: N" chip names them, and a row opens the file in an editor. A source
// turned off in the settings (here the folder's .vscode/settings.json) is neither in the prompt nor in the list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { chatRequests, promptAgent, textTurn } from './harness/approvals';
import { waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { byTestId } from './harness/chatView';
import { activeCodeEditor, editorTab, waitForRenderedText } from './harness/editors';

const ROOT_RULES = 'ROOT-RULES: run the tests before you say you are done.';
const API_RULES = 'API-RULES: every handler validates its input.';

describe('project rules (issue #15)', { timeout: 600_000 }, () => {
  const suite = chatSuite({
    files: {
      'AGENTS.md': `# Project rules\n\n${ROOT_RULES}\n`,
      'packages/api/AGENTS.md': `# API rules\n\n${API_RULES}\n`,
      'CLAUDE.md': 'CLAUDE-RULES: not read, turned off in the settings.\n',
      '.vscode/settings.json': JSON.stringify({ 'catalystCode.rules.claudeMd': false }),
    },
  });
  const { check, chat } = suite;
  const chip = () => chat().locator(byTestId(TEST_IDS.rulesChip));

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'the rules chip names the AGENTS.md files in effect, not the source turned off',
    check(async () => {
      await chip().waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal((await chip().textContent())?.trim(), 'Rules: 2');
      await chip().click();
      const rows = chat().locator(`${byTestId(TEST_IDS.rulesList)} ${byTestId(TEST_IDS.rulesRow)}`);
      await rows.first().waitFor({ state: 'visible' });
      assert.deepEqual(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-path'))), [
        'AGENTS.md',
        'packages/api/AGENTS.md',
      ]);
      assert.match((await chat().locator(byTestId(TEST_IDS.rulesList)).textContent()) ?? '', /off in settings: Claude Code/);
    }),
  );

  it(
    'clicking a row opens that rules file in the editor',
    check(async () => {
      const { page } = suite.env();
      await chat()
        .locator(`${byTestId(TEST_IDS.rulesRow)}[data-path="packages/api/AGENTS.md"]`)
        .click();
      await editorTab(page, 'AGENTS.md').waitFor({ state: 'visible', timeout: 30_000 });
      await waitForRenderedText(activeCodeEditor(page), (text) => text.includes(API_RULES), 'the nested AGENTS.md in the editor');
    }),
  );

  it(
    "the first model request's system prompt carries the rules files, nested one labelled with its folder",
    check(async () => {
      await suite.settle();
      const { model } = suite.env();
      model.enqueue(textTurn('Noted the project rules.'));
      const before = chatRequests(model).length;
      await promptAgent(chat(), 'What are the rules here?');
      await waitForAssistantText(chat(), 'Noted the project rules.');
      await waitForIdle(chat());
      const request = chatRequests(model)[before];
      const system = request.body.messages[0];
      assert.equal(system.role, 'system');
      assert.ok(system.content.includes(ROOT_RULES), 'the root AGENTS.md');
      assert.ok(system.content.includes(`## packages/api/AGENTS.md (applies to packages/api/)\n\n# API rules\n\n${API_RULES}`));
      assert.ok(system.content.indexOf(ROOT_RULES) < system.content.indexOf(API_RULES), 'root first, then the nested one');
      assert.ok(!system.content.includes('CLAUDE-RULES'), 'CLAUDE.md is turned off');
    }),
  );
});

// Issue #17 "Done when", in code-server: opening a workspace with an untrusted project plugin shows the trust prompt;
// Trust loads it and its slash command works from the chat; Manage Plugin Trust… denies and trusts it again; the Plugins
// view disables it, then removes it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { script, workspacePluginsDir, writePlugin } from '../support/pluginFixtures';
import { promptAgent } from './harness/approvals';
import { logInToCustomEndpoint, testId } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { byTestId } from './harness/chatView';
import { answerModal } from './harness/dialogs';
import { quickInputBox, quickPickRow, runCommand } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const PLUGIN = {
  manifest: {
    name: 'e2e-greeter',
    version: '0.3.0',
    description: 'greets from a project plugin',
    commands: [{ name: 'e2e-greet', description: 'says hello', script: 'greet.js' }],
  },
  files: { 'greet.js': script("answer({ ok: true, output: 'hello ' + input.args + ' from ' + input.plugin });") },
};

/** Manage Plugin Trust…: toggles the plugin's check in the multi-select and accepts it. */
async function toggleTrust(page: Page, name: string): Promise<void> {
  await runCommand(page, 'Catalyst: Manage Plugin Trust…');
  const row = quickPickRow(page, name);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
  await quickInputBox(page).press('Enter');
}

/** The Plugins view's row of `name` (its text holds the label and the description: version · scope · disabled). */
function pluginRow(page: Page, name: string) {
  const pane = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: 'Plugins' }) });
  return pane.locator('.monaco-list-row').filter({ hasText: name }).first();
}

describe('plugins in VS Code (issue #17)', { timeout: 600_000 }, () => {
  let pluginDir = '';
  const suite = chatSuite({
    beforeLaunch: ({ workspace }) => {
      pluginDir = writePlugin(workspacePluginsDir(workspace), 'greeter', PLUGIN);
    },
  });
  const { check, chat } = suite;

  it(
    'the trust prompt names the project plugin; Trust loads it and /e2e-greet runs it',
    check(async () => {
      const { page, model } = suite.env();
      await runCommand(page, 'Catalyst: Open Chat');
      const said = await answerModal(page, 'Trust', 90_000);
      for (const part of ['e2e-greeter', '0.3.0', 'greets from a project plugin', 'greeter'])
        assert.ok(said.includes(part), `${part} in: ${said}`);
      await testId(chat(), TEST_IDS.notice).filter({ hasText: 'Plugins: trusted e2e-greeter.' }).first().waitFor({ timeout: 30_000 });

      await chat()
        .locator(`${byTestId(TEST_IDS.composer)}, ${byTestId(TEST_IDS.welcome)}`)
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      await logInToCustomEndpoint(page, { name: 'scripted', baseUrl: model.url, apiKey: suite.apiKey });
      await promptAgent(chat(), '/e2e-greet world');
      await testId(chat(), TEST_IDS.notice).filter({ hasText: 'hello world from e2e-greeter' }).first().waitFor({ timeout: 30_000 });
      assert.equal(model.requests.filter((r) => r.method === 'POST').length, 0, 'a script command never reaches the model');
    }),
  );

  it(
    'Manage Plugin Trust… denies it (it unloads) and trusts it again (it loads)',
    check(async () => {
      const { page } = suite.env();
      await runCommand(page, 'Catalyst Code: Focus on Plugins View');
      const row = pluginRow(page, 'e2e-greeter');
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await toggleTrust(page, 'e2e-greeter');
      await testId(chat(), TEST_IDS.notice).filter({ hasText: 'Plugins: denied e2e-greeter.' }).first().waitFor({ timeout: 30_000 });
      await row.waitFor({ state: 'detached', timeout: 20_000 });
      await toggleTrust(page, 'e2e-greeter');
      await pluginRow(page, 'e2e-greeter').waitFor({ state: 'visible', timeout: 30_000 });
    }),
  );

  it(
    'the Plugins view shows it; Disable marks it disabled; Remove (confirmed) deletes its folder',
    check(async () => {
      const { page } = suite.env();
      await runCommand(page, 'Catalyst Code: Focus on Plugins View');
      const row = pluginRow(page, 'e2e-greeter');
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await row.innerText(), /0\.3\.0 · workspace/);

      await row.hover();
      await row.locator('.action-label[aria-label="Disable Plugin"]').click();
      await waitUntil(async () => /disabled/.test(await row.innerText()), { timeoutMs: 20_000, what: 'the row to say disabled' });

      await row.hover();
      await row.locator('.action-label[aria-label="Remove Plugin…"]').click();
      const confirm = await answerModal(page, 'Remove');
      assert.ok(confirm.includes(pluginDir.split('/').pop()!), confirm);
      await waitUntil(() => !existsSync(join(pluginDir, 'plugin.json')), { timeoutMs: 20_000, what: "the plugin's folder deleted" });
      await row.waitFor({ state: 'detached', timeout: 20_000 });
    }),
  );
});

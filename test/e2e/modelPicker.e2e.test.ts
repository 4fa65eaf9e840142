// Issue #18 "Done when", in code-server: the model picker (Catalyst: Select Model…) lists the models grouped by provider,
// picking another provider's model switches the core to that provider (set_provider: the core persists it, and the next
// turn's request reaches that provider's server), and its refresh button refreshes the model list (a model the server
// lists only now appears in the open picker, and the chat reports "Models refreshed"). The chat header's model select
// switches provider the same way, and `/usage` in the chat runs Show Usage.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { startScriptedModelServer, type StartedScriptedModelServer } from '../support/scriptedModelServer';
import { chatRequests, promptAgent, textTurn } from './harness/approvals';
import { logInToCustomEndpoint, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite, E2E_MODEL } from './harness/chatSuite';
import { tabTitled } from './harness/diffEditor';
import { waitForPreviewText } from './harness/editors';
import { quickInputWidget, quickPickRow, runCommand } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const BETA_MODEL = 'beta-model';
const BETA_NEW_MODEL = 'beta-model-new';

describe('the model picker switches provider and refreshes models (issue #18)', { timeout: 600_000 }, () => {
  const suite = chatSuite();
  const { check, chat } = suite;
  let beta: StartedScriptedModelServer | undefined;
  after(async () => {
    await beta?.close();
  });

  const activeProvider = () => JSON.parse(readFileSync(join(suite.env().configDir, 'config.json'), 'utf8')).activeProvider;
  const openPicker = async () => {
    const { page } = suite.env();
    await runCommand(page, 'Catalyst: Select Model…');
    await quickPickRow(page, E2E_MODEL).waitFor({ state: 'visible', timeout: 30_000 });
  };

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'a second provider logged in: the picker groups the models by provider',
    check(async () => {
      const { page } = suite.env();
      beta = await startScriptedModelServer({ models: [BETA_MODEL] });
      await logInToCustomEndpoint(page, { name: 'beta', baseUrl: beta.url, apiKey: `${suite.apiKey}-beta` });
      await waitUntil(() => activeProvider() === 'beta', { timeoutMs: 30_000, what: 'beta to be the active provider' });
      await openPicker();
      await quickPickRow(page, BETA_MODEL).waitFor({ state: 'visible', timeout: 30_000 });
      // A group's separator label shows on its first row.
      const separator = (label: string) => quickPickRow(page, label).locator('.quick-input-list-separator').innerText();
      assert.equal((await separator(BETA_MODEL)).trim(), 'beta');
      assert.equal((await separator(E2E_MODEL)).trim(), 'scripted');
      await page.keyboard.press('Escape');
    }),
  );

  it(
    "picking the other provider's model switches the core to it, and the next turn goes to that provider's server",
    check(async () => {
      await suite.settle();
      const { page, model } = suite.env();
      await openPicker();
      await quickPickRow(page, E2E_MODEL).click();
      await waitUntil(() => activeProvider() === 'scripted', { timeoutMs: 30_000, what: 'set_provider scripted (persisted)' });
      const before = { scripted: chatRequests(model).length, beta: chatRequests(beta!).length };
      model.enqueue(textTurn('answered by scripted'));
      await promptAgent(chat(), 'who answers?');
      await waitForAssistantText(chat(), 'answered by scripted');
      await waitForIdle(chat());
      assert.equal(chatRequests(model).length, before.scripted + 1);
      assert.equal(chatRequests(model).at(-1)!.body.model, E2E_MODEL);
      assert.equal(chatRequests(beta!).length, before.beta, 'nothing went to beta');

      await openPicker();
      await quickPickRow(page, BETA_MODEL).click();
      await waitUntil(() => activeProvider() === 'beta', { timeoutMs: 30_000, what: 'set_provider beta (persisted)' });
      beta!.enqueue(textTurn('answered by beta'));
      await promptAgent(chat(), 'and now?');
      await waitForAssistantText(chat(), 'answered by beta');
      await waitForIdle(chat());
      assert.equal(chatRequests(beta!).length, before.beta + 1);
      assert.equal(chatRequests(beta!).at(-1)!.body.model, BETA_MODEL);
      assert.equal(chatRequests(model).length, before.scripted + 1, 'nothing more went to scripted');
    }),
  );

  it(
    "the picker's refresh button refreshes the models: a model the server lists only now appears, and the chat says so",
    check(async () => {
      await suite.settle();
      const { page } = suite.env();
      beta!.setModels([BETA_MODEL, BETA_NEW_MODEL]);
      await openPicker();
      assert.equal(await quickPickRow(page, BETA_NEW_MODEL).count(), 0, 'not listed before the refresh');
      await quickInputWidget(page).locator('[aria-label="Refresh Models"]').first().click();
      await quickPickRow(page, BETA_NEW_MODEL).waitFor({ state: 'visible', timeout: 30_000 });
      await waitUntil(async () => /Models refreshed: \d+ models/.test(await quickInputWidget(page).innerText()), {
        timeoutMs: 30_000,
        what: 'the picker title to report the refresh',
      });
      await quickPickRow(page, BETA_NEW_MODEL).click();
      await chat()
        .getByText(/Models refreshed: \d+ models/)
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      beta!.enqueue(textTurn('the new model speaks'));
      await promptAgent(chat(), 'hello new model');
      await waitForAssistantText(chat(), 'the new model speaks');
      assert.equal(chatRequests(beta!).at(-1)!.body.model, BETA_NEW_MODEL);
    }),
  );

  it(
    "the chat header's model select switches provider the same way: the next turn goes to the picked model's provider",
    check(async () => {
      await suite.settle();
      const { page, model } = suite.env();
      const select = chat().locator(`[data-testid="${TEST_IDS.modelPicker}"]`);
      const firstGroup = () => select.locator('optgroup').first().getAttribute('label');
      assert.equal(await firstGroup(), 'beta', "the active provider's group comes first");
      await select.selectOption(E2E_MODEL);
      await waitUntil(() => activeProvider() === 'scripted', { timeoutMs: 30_000, what: 'set_provider scripted from the header' });
      // The host selects the model once the core listed scripted's models: the status bar names it then.
      const statusBar = page.locator('#workbench\\.parts\\.statusbar');
      await waitUntil(async () => (await statusBar.innerText()).includes(`· ${E2E_MODEL}`), {
        timeoutMs: 30_000,
        what: 'the status bar to name the model picked in the header',
      });
      await waitUntil(async () => (await firstGroup()) === 'scripted', { timeoutMs: 30_000, what: "scripted's group to come first" });
      const before = { scripted: chatRequests(model).length, beta: chatRequests(beta!).length };
      model.enqueue(textTurn('scripted again'));
      await promptAgent(chat(), 'back to scripted?');
      await waitForAssistantText(chat(), 'scripted again');
      await waitForIdle(chat());
      assert.equal(chatRequests(model).length, before.scripted + 1);
      assert.equal(chatRequests(model).at(-1)!.body.model, E2E_MODEL);
      assert.equal(chatRequests(beta!).length, before.beta, 'nothing went to beta');
    }),
  );

  it(
    "/usage in the chat runs Show Usage: the core's answer for the active provider opens in a preview",
    check(async () => {
      await suite.settle();
      const { page } = suite.env();
      const { model } = suite.env();
      const probes = model.requests.length;
      await promptAgent(chat(), '/usage');
      await tabTitled(page, /usage\.md/).waitFor({ state: 'visible', timeout: 30_000 });
      // The tab opens even when the core never answers ("did not answer … in time"): the report must carry the core's
      // answer for the active provider and model, after the core probed the endpoint's /usage.
      const report = await waitForPreviewText(page, 'Provider usage');
      assert.match(report, new RegExp(`Provider scripted, model ${E2E_MODEL}`));
      assert.match(report, /Provider scripted does not publish usage stats for \/usage\./);
      assert.doesNotMatch(report, /did not answer the usage request/);
      assert.deepEqual(
        model.requests
          .slice(probes)
          .filter((r) => r.method === 'GET' && r.path.endsWith('/usage'))
          .map((r) => r.path),
        ['/v1/usage'],
        "the core asked the scripted endpoint's /usage",
      );
    }),
  );
});

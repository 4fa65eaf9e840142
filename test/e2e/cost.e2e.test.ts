// Issue #18 "Done when", in code-server: a turn shows its cost. The provider is configured (config.json, before launch)
// with a models_override price for the scripted model, so the core prices the scripted usage; the turn's cost line and
// the header show usage × price, computed here from the same figures.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { promptAgent } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite, E2E_MODEL } from './harness/chatSuite';
import { runCommand } from './harness/quickInput';
import { waitUntil } from './harness/wait';

/** USD per million tokens. */
const PRICE = { input: 2, output: 10 };
const USAGE = { prompt: 12_000, completion: 800 };

describe('cost of a turn (issue #18)', { timeout: 600_000 }, () => {
  const suite = chatSuite({
    beforeLaunch: ({ configDir, model }) => {
      writeFileSync(
        join(configDir, 'config.json'),
        JSON.stringify({
          activeProvider: 'priced',
          providers: [
            {
              name: 'priced',
              kind: 'openai',
              base_url: model.url,
              api_key: 'sk-e2e-cost-0123456789abcdef',
              models_override: { [E2E_MODEL]: { cost: PRICE } },
            },
          ],
        }),
      );
    },
  });
  const { check, chat } = suite;

  it(
    'a finished turn shows its cost under the reply and in the header: the scripted usage × the configured price',
    check(async () => {
      const { page, model } = suite.env();
      await runCommand(page, 'Catalyst: Open Chat');
      await testId(chat(), TEST_IDS.composer).first().waitFor({ state: 'visible', timeout: 90_000 });
      model.enqueue({ steps: [{ text: 'e2e-cost-seen.' }], usage: USAGE });
      await promptAgent(chat(), 'what does this cost?');
      await waitForAssistantText(chat(), 'e2e-cost-seen');
      await waitForIdle(chat());

      const usd = (USAGE.prompt * PRICE.input + USAGE.completion * PRICE.output) / 1e6;
      const shown = `$${usd.toFixed(4)}`;
      const line = testId(chat(), TEST_IDS.turnCost).first();
      await line.waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(Number(await line.getAttribute('data-usd')), usd);
      const text = await line.innerText();
      assert.ok(text.includes(shown), `the turn's line says ${shown}: ${text}`);
      assert.match(text, /↑12k ↓800 · 1 request/);
      const header = chat().locator('.usage').first();
      await waitUntil(async () => (await header.innerText()).includes(shown), { timeoutMs: 10_000, what: `the header to show ${shown}` });
    }),
  );
});

// Issue #15 "Done when", in code-server: the key entered with "Catalyst: Set Web Search Key…" reaches the core (the
// search stand-in sees it in Exa's header), web_search's result card renders with its links, and the key is found
// nowhere on disk: not in the code-server user data, the browser profile, the core's HOME (config.json, sessions) or
// the workspace.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { startSearchApiStandIn, type SearchApiStandIn } from '../support/searchApiStandIn';
import { coreEnvFolderSettings, promptAgent, textTurn, toolCallTurn } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { waitForNotification } from './harness/notifications';
import { pickQuickItem, runCommand, typeInInputBox } from './harness/quickInput';
import { filesContaining } from './harness/secretScan';
import { waitUntil } from './harness/wait';

const SEARCH_KEY = `exa-e2e-${randomBytes(16).toString('hex')}`;
const HITS = [
  { title: 'E2E Rust Vec docs', url: 'https://doc.rust-lang.org/std/vec/struct.Vec.html', snippet: 'A contiguous growable array type.' },
  { title: 'E2E Rust book', url: 'https://doc.rust-lang.org/book/', snippet: 'The Rust Programming Language.' },
];

describe('web search in the chat (issue #15)', { timeout: 600_000 }, () => {
  let api: SearchApiStandIn | undefined;
  const suite = chatSuite({
    // The stand-in's port is known only once it listens, before VS Code (and so the core) starts.
    beforeLaunch: async ({ workspace }) => {
      api = await startSearchApiStandIn(HITS);
      const env = {
        CATALYST_CODE_EXA_URL: api.exaUrl,
        CATALYST_CODE_TAVILY_URL: api.tavilyUrl,
        CATALYST_CODE_FETCH_ALLOWLIST: '127.0.0.1',
      };
      const [[rel, content]] = Object.entries(coreEnvFolderSettings(env));
      mkdirSync(dirname(join(workspace, rel)), { recursive: true });
      writeFileSync(join(workspace, rel), content);
    },
  });
  const { check, chat } = suite;
  after(() => api?.close());

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'Set Web Search Key… gives the key to the core; a web_search card shows each hit as a link',
    check(async () => {
      const { page, model } = suite.env();
      await suite.settle();
      await runCommand(page, 'Catalyst: Set Web Search Key…');
      await pickQuickItem(page, 'Exa');
      await typeInInputBox(page, SEARCH_KEY, { prompt: /secret storage/ });
      await waitForNotification(page, /the Exa key is set; web_search is available/);

      model.enqueue(toolCallTurn('l1', 'load_tools', { tool: 'web_search' }));
      model.enqueue(toolCallTurn('w1', 'web_search', { query: 'rust vec e2e', count: 2 }));
      model.enqueue(textTurn('Found the docs: e2e-search-done.'));
      await promptAgent(chat(), 'Search the web for the Rust Vec docs');
      await waitForAssistantText(chat(), 'e2e-search-done');
      await waitForIdle(chat());

      const request = await waitUntil(() => api!.requests[0], { timeoutMs: 10_000, what: 'the search request' });
      assert.equal(request.headers['x-api-key'], SEARCH_KEY, 'the palette key reached the core and Exa');

      const result = testId(chat(), TEST_IDS.webResult).last();
      await result.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await result.locator('.web-search-query').textContent(), 'rust vec e2e');
      const links = result.locator(`[data-testid="${TEST_IDS.webLink}"]`);
      assert.equal(await links.count(), 2);
      assert.equal(await links.nth(0).textContent(), HITS[0].title);
      assert.equal(await links.nth(0).getAttribute('href'), HITS[0].url);
      assert.equal(await links.nth(1).getAttribute('href'), HITS[1].url);
      assert.match((await result.innerText()).replace(/\s+/g, ' '), /A contiguous growable array type\./);
    }),
  );

  it(
    'the search key is found nowhere on disk',
    check(async () => {
      const { root, home, workspace, workbench } = suite.env();
      await workbench.close();
      const leaks = [
        ...filesContaining(workbench.userDataDir, SEARCH_KEY),
        ...(workbench.browserProfileDir ? filesContaining(workbench.browserProfileDir, SEARCH_KEY) : []),
        ...filesContaining(home, SEARCH_KEY),
        ...filesContaining(workspace, SEARCH_KEY),
        ...filesContaining(root, SEARCH_KEY),
      ];
      assert.deepEqual(
        [...new Set(leaks)].map((f) => relative(root, f)),
        [],
      );
    }),
  );
});

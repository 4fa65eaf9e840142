// The header's project rules chip in real Chromium, from the real shell under its CSP: "Rules: N" once the core reports
// rules files, a list naming each (folder, tokens, cut), a row that asks the host to open the file, Escape to close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { RulesView, SessionState } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { readyState } from './harness/states';
import type { WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;

const RULES: RulesView = {
  files: [
    { path: 'AGENTS.md', source: 'agents_md', bytes: 800, tokens: 210, truncated: false, scope: '.' },
    { path: 'packages/api/AGENTS.md', source: 'agents_md', bytes: 30_000, tokens: 4090, truncated: true, scope: 'packages/api' },
    { path: 'CLAUDE.md', source: 'claude_md', bytes: 120, tokens: 100, truncated: false, scope: '.' },
  ],
  skipped: 1,
  disabled: ['cursorrules'],
};

function withRules(rules: RulesView | undefined): SessionState {
  const s = readyState();
  s.rules = rules;
  return s;
}

describe('the project rules chip (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;

  useWebviewPage((opened) => {
    webview = opened;
    page = opened.page;
  });

  async function show(state: SessionState): Promise<void> {
    await webview.snapshot(state);
    await page.locator(`${byTestId(TEST_IDS.coreStatus)}[data-status="${state.core.status}"]`).waitFor();
    webview.skipPosted();
  }

  it('hidden without rules files; "Rules: N" once the core reports them, and it follows a changed list', async () => {
    await show(withRules(undefined));
    const chip = page.locator(byTestId(TEST_IDS.rulesChip));
    assert.equal(await chip.isVisible(), false);
    await webview.patch({ op: 'set', key: 'rules', value: RULES });
    await chip.waitFor();
    assert.equal((await chip.textContent())?.trim(), 'Rules: 3');
    assert.match(
      (await chip.getAttribute('title')) ?? '',
      /3 project rules files in the system prompt, ~4\.4k tokens; 1 cut at the size cap/,
    );
    await webview.patch({ op: 'set', key: 'rules', value: { ...RULES, files: RULES.files.slice(0, 1) } });
    await page.locator(byTestId(TEST_IDS.rulesChip), { hasText: 'Rules: 1' }).waitFor();
    await webview.patch({ op: 'set', key: 'rules', value: { files: [], skipped: 0, disabled: [] } });
    await chip.waitFor({ state: 'hidden' });
  });

  it('the list names each file with its folder and tokens, marks a cut one; a row asks the host to open it', async () => {
    await show(withRules(RULES));
    await page.locator(byTestId(TEST_IDS.rulesChip)).click();
    const list = page.locator(byTestId(TEST_IDS.rulesList));
    await list.waitFor();
    assert.equal(await page.locator(byTestId(TEST_IDS.rulesChip)).getAttribute('aria-expanded'), 'true');
    const rows = list.locator(byTestId(TEST_IDS.rulesRow));
    assert.deepEqual(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-path'))), [
      'AGENTS.md',
      'packages/api/AGENTS.md',
      'CLAUDE.md',
    ]);
    assert.deepEqual(await list.locator('.rules-row-detail').allTextContents(), [
      'whole workspace · ~210 tokens',
      'packages/api/ · ~4.1k tokens',
      'Claude Code · whole workspace · ~100 tokens',
    ]);
    assert.equal(await rows.nth(1).locator('.rules-row-cut').textContent(), 'cut');
    assert.equal(await rows.nth(0).locator('.rules-row-cut').count(), 0);
    assert.match((await list.locator('.rules-list-footer').textContent()) ?? '', /1 skipped .* off in settings: Cursor/);
    await rows.nth(1).click();
    assert.deepEqual(await webview.postedUntil('openFile'), [{ type: 'openFile', path: 'packages/api/AGENTS.md' }]);
  });

  it('from the keyboard: the list opens on its first row, Escape closes it and gives focus back to the chip', async () => {
    await show(withRules(RULES));
    const chip = page.locator(byTestId(TEST_IDS.rulesChip));
    await chip.focus();
    await page.keyboard.press('Enter');
    await page.locator(byTestId(TEST_IDS.rulesList)).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('data-path') === 'AGENTS.md');
    await page.keyboard.press('Escape');
    await page.locator(byTestId(TEST_IDS.rulesList)).waitFor({ state: 'hidden' });
    assert.equal(await chip.evaluate((el) => el === (globalThis as any).document.activeElement), true);
    assert.equal(await chip.getAttribute('aria-expanded'), 'false');
  });
});

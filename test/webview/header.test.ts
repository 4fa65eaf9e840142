// The header (status, usage, the model / reasoning / approval-mode pickers), the sessions panel and the first-run
// welcome in real Chromium, from the real shell under its CSP: what they show, what they post, and what an SCV core
// (no sessions, a fixed approval policy) does not offer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { initialSessionState, type SessionState, type SessionView } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { readyState, runningState } from './harness/states';
import type { WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const MINUTE = 60_000;

function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === (globalThis as any).document.activeElement);
}

const focusedLabel = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') as string | null);

/** Presses Tab (at most 20 times) until the focused element is labelled `label`; fails when it never gets there. */
async function tabTo(page: Page, label: string): Promise<void> {
  for (let presses = 0; presses < 20 && (await focusedLabel(page)) !== label; presses++) await page.keyboard.press('Tab');
  assert.equal(await focusedLabel(page), label, `Tab never reached "${label}"`);
}

function withSessions(): SessionState {
  const s = readyState();
  const now = Date.now();
  const sessions: SessionView[] = [
    {
      name: 's1',
      path: '/tmp/s1.jsonl',
      title: 'Cache the parsed options',
      messages: 12,
      mtime: now - 2 * MINUTE,
      current: true,
      pinned: false,
    },
    {
      name: 's2',
      path: '/tmp/s2.jsonl',
      title: 'Speed up the build',
      messages: 1,
      mtime: now - 30 * MINUTE,
      current: false,
      pinned: false,
    },
    {
      name: 's0',
      path: '/tmp/s0.jsonl',
      title: 'Fix the flaky upload test',
      messages: 40,
      mtime: now - 3 * 86_400_000,
      current: false,
      pinned: true,
    },
  ];
  s.sessions = sessions;
  s.sessionFile = '/tmp/s1.jsonl';
  return s;
}

describe('header, sessions and welcome (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;

  useWebviewPage((opened) => {
    webview = opened;
    page = opened.page;
  });

  async function show(state: SessionState): Promise<void> {
    await webview.snapshot(state);
    await page.locator(`${byTestId(TEST_IDS.coreStatus)}[data-status="${state.core.status}"][data-run="${state.run.status}"]`).waitFor();
    webview.skipPosted();
  }

  describe('the header', () => {
    it('the status says what the core and the run are doing; usage and the context meter show once known', async () => {
      const state = runningState();
      state.usage = { tokensIn: 48_210, tokensOut: 5120, cachedTokens: 20_000, costUsd: 0.142 };
      state.context = { tokens: 61_000, window: 200_000, pct: 30.5 };
      await show(state);
      assert.equal(await page.locator(`${byTestId(TEST_IDS.coreStatus)} .status-text`).textContent(), 'Working…');
      const meter = page.locator(byTestId(TEST_IDS.contextMeter));
      assert.equal(await meter.isVisible(), true);
      assert.equal(await meter.getAttribute('aria-valuenow'), '31');
      await webview.patch({ op: 'set', key: 'run', value: { status: 'waiting_approval', runId: 'r1' } });
      await page.locator(`${byTestId(TEST_IDS.coreStatus)}[data-run="waiting_approval"]`).waitFor();
      assert.equal(await page.locator(`${byTestId(TEST_IDS.coreStatus)} .status-text`).textContent(), 'Waiting for approval');
    });

    it('the model picker groups models by provider (the active one first) and posts the chosen one with its provider; the reasoning picker follows the model', async () => {
      const state = readyState();
      state.provider = 'openrouter';
      await show(state);
      const models = page.locator(byTestId(TEST_IDS.modelPicker));
      const groups = () => models.locator('optgroup').evaluateAll((els) => els.map((g) => (g as any).label as string));
      assert.deepEqual(await groups(), ['openrouter', 'ollama']);
      assert.equal(await models.inputValue(), 'anthropic/claude-sonnet-4');
      const reasoning = page.locator(byTestId(TEST_IDS.reasoningPicker));
      assert.equal(await reasoning.isVisible(), true, 'a model with thinking levels offers them');
      assert.deepEqual(await reasoning.locator('option').allTextContents(), ['Reasoning: low', 'Reasoning: medium', 'Reasoning: high']);
      await models.selectOption('qwen3-coder');
      assert.deepEqual(await webview.postedUntil('setModel'), [{ type: 'setModel', model: 'qwen3-coder', provider: 'ollama' }]);
      // The host switched the core to ollama (set_provider): its group comes first.
      await webview.patch({ op: 'set', key: 'provider', value: 'ollama' });
      await webview.patch({ op: 'set', key: 'model', value: 'qwen3-coder' });
      await reasoning.waitFor({ state: 'hidden' });
      await page.locator(`${byTestId(TEST_IDS.modelPicker)} optgroup:first-child[label="ollama"]`).waitFor({ state: 'attached' });
      assert.deepEqual(await groups(), ['ollama', 'openrouter']);
      assert.equal(await models.inputValue(), 'qwen3-coder');
      await models.selectOption('deepseek/deepseek-chat');
      assert.deepEqual(await webview.postedUntil('setModel'), [
        { type: 'setModel', model: 'deepseek/deepseek-chat', provider: 'openrouter' },
      ]);
      await page.locator(byTestId(TEST_IDS.approvalModePicker)).selectOption('always');
      assert.deepEqual(await webview.postedUntil('setApprovalMode'), [{ type: 'setApprovalMode', mode: 'always' }]);
    });

    it('escalations show on the current approval mode, listed in its title, and go when cleared', async () => {
      await show({
        ...readyState(),
        approvalEscalations: { kinds: ['destructive'], patterns: [{ tool: 'bash', pattern: 'npm test *' }] },
      });
      const mode = page.locator(byTestId(TEST_IDS.approvalModePicker));
      assert.equal(await mode.getAttribute('data-escalations'), '2');
      assert.equal(await mode.locator('option:checked').textContent(), 'Ask before edits & commands (+2 allowed)');
      const title = (await mode.getAttribute('title')) ?? '';
      assert.match(title, /Destructive tools \(edits, deletes, shell commands\) \(Always\)/);
      assert.match(title, /bash: npm test \* \(Allow pattern\)/);
      await webview.patch({ op: 'set', key: 'approvalEscalations', value: { kinds: [], patterns: [] } });
      await page.waitForFunction(
        (sel) => (globalThis as any).document.querySelector(sel)?.getAttribute('data-escalations') === '0',
        byTestId(TEST_IDS.approvalModePicker),
      );
      assert.equal(await mode.locator('option:checked').textContent(), 'Ask before edits & commands');
      assert.equal(await mode.getAttribute('title'), null);
    });

    it('an SCV core: no sessions button, and the approval mode is shown but fixed', async () => {
      await show(readyState([], 'scv', ['server_queue', 'tool_progress']));
      assert.equal(await page.locator(byTestId(TEST_IDS.sessionsButton)).isHidden(), true);
      const mode = page.locator(byTestId(TEST_IDS.approvalModePicker));
      assert.equal(await mode.isDisabled(), true);
      assert.match((await mode.getAttribute('title')) ?? '', /catalystCode\.scv\.approvalPolicy/);
      assert.equal(await page.locator(byTestId(TEST_IDS.newSessionButton)).isVisible(), true, 'a new session still works');
    });
  });

  describe('the sessions panel', () => {
    const panel = () => page.locator(byTestId(TEST_IDS.sessionList));
    const rowTitles = () =>
      panel()
        .locator(`${byTestId(TEST_IDS.sessionRow)} .session-title`)
        .allTextContents();

    async function openPanel(): Promise<void> {
      await show(withSessions());
      await page.locator(byTestId(TEST_IDS.sessionsButton)).click();
      assert.deepEqual(await webview.postedUntil('listSessions'), [{ type: 'listSessions' }]);
      await panel().waitFor();
    }

    it('opens on the filter, pinned first then the newest; the filter narrows; a row opens its session', async () => {
      await openPanel();
      assert.equal(await isFocused(panel().getByRole('searchbox', { name: 'Filter sessions' })), true);
      assert.deepEqual(await rowTitles(), ['Fix the flaky upload test', 'Cache the parsed options', 'Speed up the build']);
      await page.keyboard.type('build');
      assert.deepEqual(await rowTitles(), ['Speed up the build']);
      await panel()
        .getByRole('button', { name: /Speed up the build/ })
        .first()
        .click();
      assert.deepEqual(await webview.postedUntil('openSession'), [{ type: 'openSession', path: '/tmp/s2.jsonl' }]);
      await panel().waitFor({ state: 'hidden' });
    });

    it('from the keyboard: rename with Enter, delete after confirming, Escape closes and gives focus back to the sessions button', async () => {
      await openPanel();
      await tabTo(page, 'Rename Speed up the build');
      await page.keyboard.press('Enter');
      const title = panel().getByRole('textbox', { name: 'New session title' });
      await title.waitFor();
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') === 'New session title');
      await page.keyboard.type('Faster builds');
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('renameSession'), [
        { type: 'renameSession', path: '/tmp/s2.jsonl', title: 'Faster builds' },
      ]);

      await tabTo(page, 'Delete Fix the flaky upload test');
      await page.keyboard.press('Enter');
      const confirm = panel().getByRole('alertdialog', { name: 'Confirm delete' });
      await confirm.waitFor();
      // The safe answer has the focus; Delete is one Shift+Tab away.
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.textContent?.trim() === 'Cancel');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('deleteSession'), [{ type: 'deleteSession', path: '/tmp/s0.jsonl' }]);

      await panel().getByRole('searchbox', { name: 'Filter sessions' }).focus();
      await page.keyboard.press('Escape');
      await panel().waitFor({ state: 'hidden' });
      assert.equal(await isFocused(page.locator(byTestId(TEST_IDS.sessionsButton))), true);
    });
  });

  it('first run: the welcome asks to log in, and Log In asks the host', async () => {
    const state = initialSessionState('embedded');
    state.core.status = 'ready';
    await show(state);
    const welcome = page.locator(byTestId(TEST_IDS.welcome));
    assert.equal(await welcome.isVisible(), true);
    await page.locator(byTestId(TEST_IDS.loginButton)).click();
    assert.deepEqual(await webview.postedUntil('action'), [{ type: 'action', action: 'login' }]);
    await show(readyState());
    await welcome.waitFor({ state: 'hidden' });
  });
});

// The composer and SCV's server-side queue panel in real Chromium, from the real shell under its CSP, used with the
// keyboard alone: what each key posts, where focus goes, and what a core without steering or sessions does not offer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { ServerQueueEntry, SessionState } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { readyState, runningState } from './harness/states';
import type { WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const SCV_CAPABILITIES = ['server_queue', 'tool_progress'];

/** Whether the element `locator` finds is the page's focused element. */
function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === (globalThis as any).document.activeElement);
}

describe('composer and queue (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;
  let input: Locator;

  useWebviewPage((opened) => {
    webview = opened;
    page = opened.page;
    input = page.locator(byTestId(TEST_IDS.composer));
  });

  async function show(state: SessionState): Promise<void> {
    await webview.snapshot(state);
    await page.locator(`${byTestId(TEST_IDS.coreStatus)}[data-status="ready"]`).waitFor();
    webview.skipPosted();
  }

  describe('the composer', () => {
    it('keyboard only: focused by the host, Shift+Enter is a newline, Enter sends and empties it', async () => {
      await show(readyState());
      await webview.send({ type: 'focusInput' });
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.dataset.testid === 'composer-input');
      await page.keyboard.type('Cache the options');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('per workspace');
      assert.equal(await input.inputValue(), 'Cache the options\nper workspace');
      await page.keyboard.press('Enter');
      assert.deepEqual(
        await webview.postedUntil('send'),
        [{ type: 'send', text: 'Cache the options\nper workspace', images: [] }],
        'Shift+Enter posted something',
      );
      assert.equal(await input.inputValue(), '');
      assert.equal(await isFocused(input), true, 'focus left the composer after sending');
    });

    it('text typed just before the page goes away is saved at once, and the reloaded page shows it', async () => {
      await show(readyState());
      await input.focus();
      await page.keyboard.type('Half a thought');
      // VS Code replaces a webview's frame when it reloads it: pagehide is the last moment to save, long before the save timer.
      const saved = await page.evaluate(() => {
        const w = globalThis as any;
        w.dispatchEvent(new w.PageTransitionEvent('pagehide'));
        return w.__savedState;
      });
      assert.equal(saved?.draft, 'Half a thought', 'the draft was not saved when the page went away');
      await page.addInitScript((state) => ((globalThis as any).__savedState = state), saved);
      await page.reload();
      await webview.nextPosted('ready');
      assert.equal(await input.inputValue(), 'Half a thought');
    });

    it('an empty or blank prompt sends nothing, and Send is disabled', async () => {
      await show(readyState());
      await input.focus();
      assert.equal(await page.locator(byTestId(TEST_IDS.sendButton)).getAttribute('aria-disabled'), 'true');
      await page.keyboard.press('Enter');
      await page.keyboard.type('   ');
      await page.keyboard.press('Enter');
      await page.keyboard.type('x');
      assert.equal(await page.locator(byTestId(TEST_IDS.sendButton)).getAttribute('aria-disabled'), 'false');
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('send'), [{ type: 'send', text: 'x', images: [] }]);
    });

    it('/ opens the commands; arrows and Enter pick one, Enter runs it as a slash command', async () => {
      await show(readyState());
      await input.focus();
      await page.keyboard.type('/c');
      const list = page.locator(byTestId(TEST_IDS.completionList));
      await list.waitFor();
      assert.deepEqual(await list.locator('.completion-label').allTextContents(), ['/compact', '/clear']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      assert.equal(await input.inputValue(), '/clear ');
      await list.waitFor({ state: 'hidden' });
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('slash'), [{ type: 'slash', name: 'clear', args: '' }]);
    });

    it('while a run goes: Send queues, Ctrl+Enter steers, Escape in the empty composer aborts', async () => {
      await show(runningState());
      assert.equal(await page.locator(byTestId(TEST_IDS.abortButton)).isVisible(), true);
      assert.equal((await page.locator(byTestId(TEST_IDS.sendButton)).textContent())?.trim(), 'Queue');
      await input.focus();
      await page.keyboard.type('Use a Map instead');
      await page.keyboard.press('Control+Enter');
      assert.deepEqual(await webview.postedUntil('steer'), [{ type: 'steer', text: 'Use a Map instead' }]);
      await page.keyboard.press('Escape');
      assert.deepEqual(await webview.postedUntil('abort'), [{ type: 'abort' }]);
    });

    it('!cmd runs a shell command and !!cmd keeps it out of the context; during a run it stays in the composer', async () => {
      await show(readyState());
      await input.focus();
      await page.keyboard.type('!git status');
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('userBash'), [{ type: 'userBash', command: 'git status', excludeFromContext: false }]);
      await page.keyboard.type('!! ls -la');
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('userBash'), [{ type: 'userBash', command: 'ls -la', excludeFromContext: true }]);

      await show(runningState());
      await input.focus();
      await page.keyboard.type('!npm test');
      await page.keyboard.press('Enter');
      const hint = page.locator('.composer-hint');
      await hint.waitFor();
      assert.match((await hint.textContent()) ?? '', /turn is running/);
      assert.equal(await input.inputValue(), '!npm test', 'the command stays in the composer');
      // Nothing was posted before the abort: the command did not go out.
      await page.locator(byTestId(TEST_IDS.abortButton)).click();
      assert.deepEqual(await webview.postedUntil('abort'), [{ type: 'abort' }]);
    });

    it('the queued prompt shows in its chip, whose close button clears it', async () => {
      const state = runningState();
      state.run.queued = 'Also update the README';
      await show(state);
      const chip = page.locator(byTestId(TEST_IDS.queuedChip));
      await chip.waitFor();
      assert.equal(await chip.locator('.queued-text').textContent(), 'Also update the README');
      await chip.getByRole('button', { name: 'Remove the queued prompt' }).click();
      assert.deepEqual(await webview.postedUntil('clearQueue'), [{ type: 'clearQueue' }]);
    });

    it('text from the host (Ask About Selection) goes in at the caret, after a space', async () => {
      await show(readyState());
      await input.focus();
      await page.keyboard.type('Explain');
      await webview.send({ type: 'insertText', text: '@src/app.ts#L3' });
      await page.waitForFunction(
        (id) => (globalThis as any).document.querySelector(`[data-testid="${id}"]`).value.includes('@src'),
        TEST_IDS.composer,
      );
      assert.equal(await input.inputValue(), 'Explain @src/app.ts#L3');
    });

    it('an SCV core: no Steer while it runs, and / offers no /sessions, /undo or /steer', async () => {
      const state = readyState([], 'scv', SCV_CAPABILITIES);
      state.run = { status: 'running', runId: 'turn-1' };
      await show(state);
      assert.equal(await page.locator(byTestId(TEST_IDS.abortButton)).isVisible(), true);
      assert.equal(await page.locator(byTestId(TEST_IDS.steerButton)).isHidden(), true);
      assert.equal(await page.locator(byTestId(TEST_IDS.sendButton)).getAttribute('aria-label'), 'Queue on the server');
      await input.focus();
      await page.keyboard.type('/');
      await page.locator(byTestId(TEST_IDS.completionList)).waitFor();
      assert.deepEqual(await page.locator(`${byTestId(TEST_IDS.completionList)} .completion-label`).allTextContents(), [
        '/compact',
        '/clear',
        '/model <id>',
      ]);
    });
  });

  describe('the server queue (SCV)', () => {
    const entries: ServerQueueEntry[] = [
      { id: 'q-1', revision: 3, prompt: 'Then run the whole test suite.' },
      { id: 'q-2', revision: 1, prompt: 'Update the README.' },
      { id: 'q-3', revision: 7, prompt: 'Summarize every change.' },
    ];
    const row = (id: string) => page.locator(`${byTestId(TEST_IDS.serverQueueRow)}[data-id="${id}"]`);
    const control = (id: string, testId: string) => row(id).locator(byTestId(testId));

    async function showQueue(queue = entries): Promise<void> {
      const state = readyState([], 'scv', SCV_CAPABILITIES);
      state.run = { status: 'running', runId: 'turn-1' };
      state.serverQueue = { paused: false, entries: queue };
      await show(state);
      await row(queue[queue.length - 1].id).waitFor();
    }

    it('shows the queue in order; the ends cannot move further; Up, Down (to the end), Remove and Pause post their requests', async () => {
      await showQueue();
      assert.deepEqual(
        await page
          .locator(byTestId(TEST_IDS.serverQueueRow))
          .evaluateAll((rows) => rows.map((r) => `${(r as any).dataset.id}@${(r as any).dataset.revision}`)),
        ['q-1@3', 'q-2@1', 'q-3@7'],
      );
      assert.equal(await control('q-1', TEST_IDS.serverQueueUp).isDisabled(), true);
      assert.equal(await control('q-3', TEST_IDS.serverQueueDown).isDisabled(), true);
      await control('q-2', TEST_IDS.serverQueueUp).click();
      await control('q-2', TEST_IDS.serverQueueDown).click();
      await control('q-3', TEST_IDS.serverQueueRemove).click();
      await page.locator(byTestId(TEST_IDS.serverQueuePause)).click();
      assert.deepEqual(await webview.postedUntil('queuePause'), [
        { type: 'queueMove', id: 'q-2', beforeId: 'q-1' },
        { type: 'queueMove', id: 'q-2', beforeId: null },
        { type: 'queueRemove', id: 'q-3' },
        { type: 'queuePause', paused: true },
      ]);
    });

    it('keyboard only: Enter on Edit opens the editor, Enter saves, Escape cancels without posting; focus returns to Edit', async () => {
      await showQueue();
      const edit = control('q-1', TEST_IDS.serverQueueEdit);
      await edit.focus();
      await page.keyboard.press('Enter');
      const editor = control('q-1', TEST_IDS.serverQueueEditInput);
      await editor.waitFor();
      assert.equal(await isFocused(editor), true);
      await page.keyboard.type(' Now.');
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('queueEdit'), [
        { type: 'queueEdit', id: 'q-1', prompt: 'Then run the whole test suite. Now.' },
      ]);
      assert.equal(await isFocused(edit), true, 'after saving, focus is not back on Edit');

      await page.keyboard.press('Enter');
      await editor.waitFor();
      await page.keyboard.type(' changed');
      await page.keyboard.press('Escape');
      await editor.waitFor({ state: 'detached' });
      assert.equal(await isFocused(edit), true, 'after cancelling, focus is not back on Edit');
      await page.locator(byTestId(TEST_IDS.serverQueuePause)).click();
      assert.deepEqual(await webview.postedUntil('queuePause'), [{ type: 'queuePause', paused: true }], 'Escape posted an edit');
    });

    it("focus follows an entry the server moves, and a removed entry's place gets it", async () => {
      await showQueue();
      await control('q-2', TEST_IDS.serverQueueUp).focus();
      const [q1, q2, q3] = entries;
      await webview.patch({ op: 'set', key: 'serverQueue', value: { paused: false, entries: [{ ...q2, revision: 2 }, q1, q3] } });
      await page.locator(`${byTestId(TEST_IDS.serverQueueRow)}[data-id="q-2"][data-revision="2"]`).waitFor();
      assert.equal(await isFocused(control('q-2', TEST_IDS.serverQueueDown)), true, 'moved to the top: focus should be on its Move Down');
      await control('q-1', TEST_IDS.serverQueueRemove).focus();
      await webview.patch({ op: 'set', key: 'serverQueue', value: { paused: false, entries: [{ ...q2, revision: 2 }, q3] } });
      await row('q-1').waitFor({ state: 'detached' });
      assert.equal(
        await isFocused(control('q-3', TEST_IDS.serverQueueRemove)),
        true,
        "the row now in the removed one's place did not get focus",
      );
    });

    it('paused and empty it stays, with the hint and Resume, which posts the resume', async () => {
      await showQueue();
      await webview.patch({ op: 'set', key: 'serverQueue', value: { paused: true, entries: [] } });
      const panel = page.locator(`${byTestId(TEST_IDS.serverQueue)}[data-paused="true"]`);
      await panel.waitFor();
      assert.equal(
        await panel.locator('.server-queue-hint').textContent(),
        'Paused: prompts sent while a turn runs wait until you resume.',
      );
      const toggle = page.locator(byTestId(TEST_IDS.serverQueuePause));
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      assert.equal(await toggle.textContent(), 'Resume');
      await toggle.click();
      assert.deepEqual(await webview.postedUntil('queuePause'), [{ type: 'queuePause', paused: false }]);
    });

    it('an edit of a prompt that starts running meanwhile goes back into the composer, not lost', async () => {
      await showQueue();
      await control('q-3', TEST_IDS.serverQueueEdit).click();
      await page.keyboard.press('End');
      await page.keyboard.type(' (edited)');
      await webview.patch({ op: 'set', key: 'serverQueue', value: { paused: false, entries: entries.slice(0, 2) } });
      await row('q-3').waitFor({ state: 'detached' });
      assert.equal(await input.inputValue(), 'Summarize every change. (edited)');
      assert.equal(
        await page.locator('.composer-hint').textContent(),
        'That queued prompt already started with its old text; your edit is in the input.',
      );
    });

    it('hidden for a core without a server queue, and once the queue is empty while running', async () => {
      const panel = page.locator(byTestId(TEST_IDS.serverQueue));
      const embedded = runningState();
      embedded.serverQueue = { paused: false, entries };
      await show(embedded);
      await page.locator(`${byTestId(TEST_IDS.coreStatus)}[data-run="running"]`).waitFor();
      assert.equal(await panel.isHidden(), true, 'an embedded core has no server queue panel');
      await showQueue();
      assert.equal(await panel.isVisible(), true);
      await webview.patch({ op: 'set', key: 'serverQueue', value: { paused: false, entries: [] } });
      await panel.waitFor({ state: 'hidden' });
    });
  });
});

// Issue #18 "Done when", in code-server: `!git status` in the composer shows its output card with git's output (and
// `!!` keeps it out of the model's context), and the memory list forgets an entry — checked on the core's answers
// (the next list, the notice, the files of the workspace's memory) as well as in the UI.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import { approvalCard, promptAgent, textTurn, toolCallTurn, waitForCardState } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { answerModal } from './harness/dialogs';
import { git } from './harness/gitState';
import { waitForNotification } from './harness/notifications';
import { pickQuickItem, quickInputAsk, quickPickRow, runCommand } from './harness/quickInput';
import { waitUntil } from './harness/wait';

function chatRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.method === 'POST' && r.path.includes('/chat/completions'));
}

describe('what the core does, reachable from the chat (issue #18)', { timeout: 600_000 }, () => {
  const suite = chatSuite({
    files: { 'tracked.txt': 'one\n', 'e2e-untracked.txt': 'new\n', '.vscode/settings.json': '{}\n' },
    beforeLaunch: ({ workspace }) => {
      git(workspace, 'init', '-q');
      git(workspace, 'add', 'tracked.txt');
      git(workspace, 'commit', '-q', '-m', 'initial');
    },
  });
  const { check, chat } = suite;

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    "!git status shows its output card with git's output; !! marks it as kept out of the model's context",
    check(async () => {
      await suite.settle();
      const { model } = suite.env();
      const before = chatRequests(model.requests).length;

      await promptAgent(chat(), '!git status');
      const card = testId(chat(), TEST_IDS.bashBlock).first();
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      await waitUntil(async () => /e2e-untracked\.txt/.test(await card.innerText()), { timeoutMs: 30_000, what: 'git status output' });
      const text = await card.innerText();
      assert.match(text, /!git status/);
      assert.match(text, /On branch main/);
      assert.match(text, /\bok\b/);
      assert.equal(await card.getAttribute('data-ok'), 'true');
      assert.equal(await card.getAttribute('data-excluded'), 'false');

      await promptAgent(chat(), '!!git log --oneline');
      const excluded = testId(chat(), TEST_IDS.bashBlock).nth(1);
      await excluded.waitFor({ state: 'visible', timeout: 30_000 });
      await waitUntil(async () => /initial/.test(await excluded.innerText()), { timeoutMs: 30_000, what: 'git log output' });
      assert.equal(await excluded.getAttribute('data-excluded'), 'true');
      assert.match(await excluded.innerText(), /not in context/);
      assert.equal(chatRequests(model.requests).length, before, 'a shell command is no prompt to the model');

      // The next turn's request carries the `!` output and not the `!!` one.
      model.enqueue(textTurn('Noted: e2e-bash-seen.'));
      await promptAgent(chat(), 'what did git say?');
      await waitForAssistantText(chat(), 'e2e-bash-seen');
      await waitForIdle(chat());
      const request = await waitUntil(() => chatRequests(model.requests).at(-1), { timeoutMs: 10_000, what: 'the chat request' });
      const context = JSON.stringify(request.body.messages);
      assert.ok(context.includes('e2e-untracked.txt'), 'the !git status output is in the context');
      assert.ok(!context.includes('git log --oneline'), 'the !!git log output is not');
    }),
  );

  it(
    'the memory list forgets an entry after a confirmation: gone from the core and from its next list',
    check(async () => {
      await suite.settle();
      const { page, workspace } = suite.env();
      const memoryDir = join(workspace, '.catalyst-code', 'memory');
      await promptAgent(chat(), '/memory remember e2e-forget-me');
      await testId(chat(), TEST_IDS.notice)
        .filter({ hasText: 'Saved to memory: remember e2e-forget-me' })
        .first()
        .waitFor({ timeout: 30_000 });
      await promptAgent(chat(), '/memory keep e2e-keep-me');
      await testId(chat(), TEST_IDS.notice).filter({ hasText: 'Saved to memory: keep e2e-keep-me' }).first().waitFor({ timeout: 30_000 });
      assert.equal(readdirSync(memoryDir).filter((f) => f.endsWith('.json')).length, 2);

      // `/memory` alone opens the list: the core's two notes.
      await promptAgent(chat(), '/memory');
      await quickPickRow(page, 'remember e2e-forget-me').waitFor({ state: 'visible', timeout: 30_000 });
      await quickPickRow(page, 'keep e2e-keep-me').waitFor({ state: 'visible', timeout: 10_000 });
      assert.match((await quickInputAsk(page)).title, /Memory \(2\)/);
      await pickQuickItem(page, 'remember e2e-forget-me', { exact: true });
      const asked = await answerModal(page, 'Forget');
      assert.match(asked, /Forget this note\?[\s\S]*remember e2e-forget-me/);
      await testId(chat(), TEST_IDS.notice).filter({ hasText: 'memory forgotten' }).first().waitFor({ timeout: 30_000 });

      // The list shows again from the core's new answer: one note.
      await waitUntil(async () => /Memory \(1\)/.test((await quickInputAsk(page)).title), {
        timeoutMs: 30_000,
        what: 'the list after Forget',
      });
      assert.equal(await quickPickRow(page, 'remember e2e-forget-me').count(), 0);
      await quickPickRow(page, 'keep e2e-keep-me').waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Escape');
      const left = readdirSync(memoryDir).filter((f) => f.endsWith('.json'));
      assert.equal(left.length, 1);
      assert.match(left[0], /^keep-e2e-keep-me-/);

      // From the palette: the same list; forget the last one, and the core has none left.
      await runCommand(page, 'Catalyst: Show Memory');
      await pickQuickItem(page, 'keep e2e-keep-me', { exact: true });
      await answerModal(page, 'Forget');
      await waitForNotification(page, /no memory yet/);
      assert.equal(existsSync(memoryDir) ? readdirSync(memoryDir).filter((f) => f.endsWith('.json')).length : 0, 0);
    }),
  );

  it(
    'a bash timeout set in the settings reaches the running core without a restart (set_config), and holds',
    check(async () => {
      await suite.settle();
      const { page } = suite.env();
      const pids = suite.env().corePids();
      writeFileSync(suite.path('.vscode/settings.json'), JSON.stringify({ 'catalystCode.bashTimeoutSecs': 2 }));
      await testId(chat(), TEST_IDS.notice)
        .filter({ hasText: 'Shell commands now time out after 2 s.' })
        .first()
        .waitFor({ timeout: 30_000 });
      assert.deepEqual(suite.env().corePids(), pids, 'the same core process');
      assert.equal(await page.getByText('Restart the core to apply them?').count(), 0, 'no restart offered');
      // The core applies it: a command longer than 2 s is stopped.
      await promptAgent(chat(), '!sleep 4; echo e2e-not-reached');
      const card = testId(chat(), TEST_IDS.bashBlock).last();
      await waitUntil(async () => /timed out after 2s/.test(await card.innerText()), { timeoutMs: 30_000, what: 'the timed-out card' });
      assert.equal(await card.getAttribute('data-ok'), 'false');
      assert.doesNotMatch(await card.locator('.bash-output').innerText(), /e2e-not-reached/, 'the echo after the sleep never ran');
    }),
  );

  it(
    'Always shows in the approval-mode pickers; Clear escalations makes the next command ask again',
    check(async () => {
      await suite.settle();
      const { page, model } = suite.env();
      const picker = chat().locator(`[data-testid="${TEST_IDS.approvalModePicker}"]`);
      model.enqueue(toolCallTurn('call_e2e_always', 'bash', { command: 'echo e2e-always' }), textTurn('Ran it: e2e-always-done.'));
      await promptAgent(chat(), 'run echo e2e-always');
      await approvalCard(chat(), 'echo e2e-always').locator(`[data-testid="${TEST_IDS.approvalAlways}"]`).click();
      await waitForAssistantText(chat(), 'e2e-always-done');
      await waitForIdle(chat());
      await waitUntil(async () => (await picker.getAttribute('data-escalations')) === '1', { timeoutMs: 10_000, what: 'the chat picker' });
      assert.match((await picker.getAttribute('title')) ?? '', /Destructive tools .*\(Always\)/);

      await runCommand(page, 'Catalyst: Set Approval Mode…');
      await quickPickRow(page, 'Destructive tools (edits, deletes, shell commands)', false).waitFor({ state: 'visible', timeout: 30_000 });
      await pickQuickItem(page, 'Clear escalations');
      await waitForNotification(page, /escalations cleared/);
      await waitUntil(async () => (await picker.getAttribute('data-escalations')) === '0', { timeoutMs: 10_000, what: 'the chat picker' });

      model.enqueue(toolCallTurn('call_e2e_asks', 'bash', { command: 'echo e2e-asks-again' }), textTurn('Ran it: e2e-asks-done.'));
      await promptAgent(chat(), 'run echo e2e-asks-again');
      const card = approvalCard(chat(), 'echo e2e-asks-again');
      await waitForCardState(card, 'pending', 30_000);
      await card.locator(`[data-testid="${TEST_IDS.approvalAccept}"]`).click();
      await waitForAssistantText(chat(), 'e2e-asks-done');
      await waitForIdle(chat());
    }),
  );

  it(
    "Show Stats ends with the core's runtime_status: the idle core, nothing waiting",
    check(async () => {
      await suite.settle();
      const { page } = suite.env();
      await runCommand(page, 'Catalyst: Show Stats');
      // The Markdown preview renders in a webview frame of its own: find the one that shows the section.
      const text = await waitUntil(
        async () => {
          for (const frame of page.frames()) {
            const body = await frame.evaluate(() => (globalThis as any).document.body?.innerText ?? '').catch(() => '');
            if (body.includes('Core runtime')) return body as string;
          }
          return undefined;
        },
        { timeoutMs: 30_000, what: 'the stats preview with its Core runtime section' },
      );
      assert.match(text, /Active run: none \(idle\)/);
      assert.match(text, /Waiting on you: nothing/);
    }),
  );
});

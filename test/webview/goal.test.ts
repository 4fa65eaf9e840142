// Goal mode's views in real Chromium, from the real shell under its CSP: the Control Center (its panel's own page and
// bundle, controlCenter.js) — the start form, the plan review's actions, the deploy's waves with each step's worker
// run, verdicts, certification and the summary — and the chat's compact goal card, with the goal's workers kept out of
// the chat's flow while their approvals stay in it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { SessionState } from '../../src/shared/sessionState';
import { TEST_IDS, type ViewContext } from '../../src/shared/webviewMessages';
import {
  GOAL_ID,
  certifiedState,
  failedState,
  goalSessionState,
  planReadyState,
  planningState,
  runningWave2State,
} from '../../webview/dev/goalFixtures';
import { GOAL_TEST_IDS } from '../../webview/goal/testIds';
import type { WireEvent } from '../../src/client/state/eventFields';
import { RECORDED_GOAL_STREAM } from '../fixtures/goalStream';
import { sessionReducer } from '../../src/client/state/sessionReducer';
import { SIDEBAR_VIEW, type WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const G = Object.fromEntries(Object.entries(GOAL_TEST_IDS).map(([k, v]) => [k, byTestId(v)])) as Record<keyof typeof GOAL_TEST_IDS, string>;
const CONTROL_CENTER: ViewContext = { ...SIDEBAR_VIEW, placement: 'controlCenter' };
/** The session state our client reduces from the recorded stream of our core, up to its first event matching `pred`. */
function recordedUpTo(pred: (e: WireEvent) => boolean): SessionState {
  const stream = RECORDED_GOAL_STREAM as readonly WireEvent[];
  const at = stream.findIndex(pred);
  assert.ok(at >= 0, 'the recording has that event');
  const state = stream.slice(0, at + 1).reduce(sessionReducer, goalSessionState(undefined));
  return state;
}
const step = (id: string) => `${G.step}[data-step-id="${id}"]`;
/** The scripts the page has loaded, by file name. */
const loadedScripts = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop() ?? '')
      .filter((name) => name.endsWith('.js')),
  );

describe('goal mode: the Control Center and the chat goal card (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;
  const opened = (w: WebviewPage) => {
    webview = w;
    page = w.page;
  };

  describe("the Control Center (the panel's own bundle)", () => {
    useWebviewPage(opened, { viewport: { width: 900, height: 1200 }, placement: 'controlCenter' });

    async function showControlCenter(state: SessionState, waitFor: string = G.controlCenter): Promise<void> {
      await webview.snapshot(state, CONTROL_CENTER);
      await page.locator(waitFor).first().waitFor();
      webview.skipPosted();
    }

    async function startEnabled(): Promise<boolean> {
      return (await page.locator(G.start).getAttribute('aria-disabled')) === 'false';
    }

    it("the panel loads its own bundle, not the chat's, and shows the Control Center with the goal text focused", async () => {
      await showControlCenter(goalSessionState(undefined), G.form);
      assert.deepEqual(await loadedScripts(page), ['controlCenter.js']);
      assert.equal(await page.locator(byTestId(TEST_IDS.composer)).count(), 0, 'no composer');
      assert.equal(await page.locator(byTestId(TEST_IDS.transcript)).count(), 0, 'no transcript');
      assert.equal(await page.locator(G.header).isVisible(), false, 'no goal, no header');
      await page.locator(`${G.formGoal}:focus`).waitFor();
    });

    it('the start form posts goalStart with its fields; empty numbers leave the core its defaults', async () => {
      await showControlCenter(goalSessionState(undefined), G.form);
      assert.equal(await page.locator(G.formConcurrency).getAttribute('placeholder'), '4');
      assert.equal(await page.locator(G.formMaxTasks).getAttribute('placeholder'), '64');
      assert.equal(await startEnabled(), false, 'no goal text yet');
      await page.fill(G.formGoal, '  Add a --json flag to the CLI  ');
      assert.equal(await startEnabled(), true);
      await page.click(G.start);
      assert.deepEqual(await webview.postedUntil('goalStart'), [
        { type: 'goalStart', goal: 'Add a --json flag to the CLI', autoDeploy: false, ceoMode: false },
      ]);
    });

    it('CEO mode, no review, concurrency and max tasks reach goalStart; Ctrl+Enter in the goal starts it', async () => {
      await showControlCenter(goalSessionState(undefined), G.form);
      await page.fill(G.formGoal, 'Ship the release notes');
      await page.click(G.formReview);
      await page.click(G.formCeo);
      await page.fill(G.formConcurrency, '9');
      await page.fill(G.formMaxTasks, '8');
      assert.equal(await startEnabled(), false);
      assert.equal(await page.locator(G.formReason).textContent(), 'Concurrency (9) cannot exceed max tasks (8).');
      await page.fill(G.formConcurrency, '2');
      await page.focus(G.formGoal);
      await page.keyboard.press('Control+Enter');
      assert.deepEqual(await webview.postedUntil('goalStart'), [
        { type: 'goalStart', goal: 'Ship the release notes', autoDeploy: true, ceoMode: true, concurrency: 2, maxTasks: 8 },
      ]);
    });

    it('Start is disabled with the reason when the core lacks goal mode, and posts nothing', async () => {
      // Every protocol v2 core has the goal commands (upstream's without announcing them); an SCV server has none.
      const state = goalSessionState(undefined);
      state.core = { kind: 'scv', status: 'ready', capabilities: [], version: '0.3.12' };
      await showControlCenter(state, G.form);
      await page.fill(G.formGoal, 'Add a --json flag to the CLI');
      assert.equal(await startEnabled(), false);
      assert.match((await page.locator(G.formReason).textContent())!, /Goal mode is not available: this core \(scv\) does not support it/);
      await page.locator(G.start).dispatchEvent('click');
      // The core gains the capability: the next press is the first goalStart posted.
      await webview.snapshot(goalSessionState(undefined), CONTROL_CENTER);
      await page.locator(`${G.start}[aria-disabled="false"]`).waitFor();
      await page.click(G.start);
      assert.deepEqual(await webview.postedUntil('goalStart'), [
        { type: 'goalStart', goal: 'Add a --json flag to the CLI', autoDeploy: false, ceoMode: false },
      ]);
    });

    it('planning shows the goal, its phase and the planner at work, and Cancel goal posts cancel', async () => {
      await showControlCenter(planningState(), G.header);
      assert.equal(await page.locator(G.phase).textContent(), 'Planning');
      assert.ok((await page.locator(G.header).textContent())!.includes('Add a --json output flag to the CLI'));
      assert.equal(await page.locator(G.form).isVisible(), false, 'no start form while a goal is active');
      await page.click(G.cancel);
      assert.deepEqual(await webview.postedUntil('goalAction'), [{ type: 'goalAction', action: 'cancel' }]);
    });

    it('a plan under review lists its steps with agent, dependencies and group, its risks and validation; Approve posts approve', async () => {
      await showControlCenter(planReadyState(), G.approve);
      const steps = page.locator(G.planStep);
      assert.deepEqual(await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-step-id'))), [
        'scout',
        'flag',
        'tests',
        'docs',
      ]);
      const docs = (await page.locator(`${G.planStep}[data-step-id="docs"]`).textContent())!;
      for (const part of ['Document --json in the README', 'worker', 'after #flag, #tests'])
        assert.ok(docs.includes(part), `${part} in ${docs}`);
      assert.ok((await page.locator(`${G.planStep}[data-step-id="flag"]`).textContent())!.includes('group impl'));
      const plan = (await page.locator(G.plan).textContent())!;
      for (const part of ['Existing scripts parse the plain-text output', 'npm test passes']) assert.ok(plan.includes(part), part);
      assert.equal(await page.locator(G.cancel).isVisible(), false, "the header's Cancel gives way to the review's");
      await page.click(G.approve);
      assert.deepEqual(await webview.postedUntil('goalAction'), [{ type: 'goalAction', action: 'approve' }]);
    });

    it('the review works from the keyboard: Tab reaches Approve, Enter on it approves', async () => {
      await showControlCenter(planReadyState(), G.approve);
      await page.focus(`${G.plan} summary`);
      for (let i = 0; i < 40; i++) {
        if (await page.locator(`${G.approve}:focus`).count()) break;
        await page.keyboard.press('Tab');
      }
      await page.locator(`${G.approve}:focus`).waitFor();
      await page.keyboard.press('Enter');
      assert.deepEqual(await webview.postedUntil('goalAction'), [{ type: 'goalAction', action: 'approve' }]);
    });

    it("the review's Cancel posts cancel", async () => {
      await showControlCenter(planReadyState(), G.approve);
      await page.locator(G.plan).getByText('Cancel goal').click();
      assert.deepEqual(await webview.postedUntil('goalAction'), [{ type: 'goalAction', action: 'cancel' }]);
    });

    it('Revise opens a feedback box that sends only non-blank feedback (Ctrl+Enter or Send)', async () => {
      await showControlCenter(planReadyState(), G.approve);
      await page.click(G.revise);
      await page.locator(`${G.feedback}:focus`).waitFor();
      assert.equal(await page.locator(G.sendRevision).getAttribute('aria-disabled'), 'true');
      await page.keyboard.type('   ');
      await page.keyboard.press('Control+Enter');
      await page.locator(G.sendRevision).dispatchEvent('click');
      await page.focus(G.feedback);
      await page.keyboard.type('Split the tests step per command');
      assert.equal(await page.locator(G.sendRevision).getAttribute('aria-disabled'), 'false');
      await page.keyboard.press('Control+Enter');
      // Nothing was posted for the blank tries: the revision is the first message.
      assert.deepEqual(await webview.postedUntil('goalAction'), [
        { type: 'goalAction', action: 'revise', feedback: 'Split the tests step per command' },
      ]);
      assert.equal(await page.locator(G.feedback).isVisible(), false);
    });

    it('a running deploy groups the steps into waves by their dependencies and marks the current one', async () => {
      await showControlCenter(runningWave2State(), G.wave);
      const waves = await page
        .locator(G.wave)
        .evaluateAll((els) => els.map((w) => [...w.querySelectorAll('[data-step-id]')].map((s) => s.getAttribute('data-step-id'))));
      assert.deepEqual(waves, [['scout'], ['flag', 'tests'], ['docs']]);
      assert.deepEqual(await page.locator(G.wave).evaluateAll((els) => els.map((w) => w.getAttribute('data-current'))), [
        'false',
        'true',
        'false',
      ]);
      assert.deepEqual(await page.locator(G.step).evaluateAll((els) => els.map((s) => s.getAttribute('data-status'))), [
        'done',
        'running',
        'running',
        'pending',
      ]);
      assert.ok((await page.locator(G.waves).textContent())!.includes('Wave 2 of 3 · 1/4 steps finished'));
    });

    it("a step row holds its worker's run: expanded, the worker's messages and tools, and new streamed items as they come", async () => {
      await showControlCenter(runningWave2State(), step('flag'));
      const run = page.locator(`${step('flag')} ${byTestId(TEST_IDS.subagentRow)}[data-run-id="run-g2"]`);
      assert.equal(await run.count(), 1, "the worker's subagent row");
      assert.equal(await page.locator(`${step('docs')} ${byTestId(TEST_IDS.subagentRow)}`).count(), 0, 'a pending step has no run');
      await run.locator('summary').click();
      await run.getByText('Adding the flag to').waitFor();
      assert.equal(await run.locator(byTestId(TEST_IDS.toolCard)).count(), 1);
      // A streamed item of the worker (no card in the main flow claims it) reaches the open row.
      await webview.patch({
        op: 'item',
        index: 7,
        item: { kind: 'assistant', id: 'sa:run-g2:m1', childRunId: 'run-g2', text: 'Now the output path.', thinking: '', streaming: true },
      });
      await run.getByText('Now the output path.').waitFor();
      // Text streamed into a reply it already shows grows in place.
      await webview.patch({ op: 'append', index: 7, field: 'text', text: ' Then the tests.' });
      await run.getByText('Now the output path. Then the tests.').waitFor();
    });

    it("the goal's runs that are no step's worker (the speculative scout) show under Other runs", async () => {
      await showControlCenter(runningWave2State(), G.otherRuns);
      assert.deepEqual(
        await page
          .locator(`${G.otherRuns} ${byTestId(TEST_IDS.subagentRow)}`)
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))),
        ['run-g0'],
      );
    });

    it("a worker's pending approval is answerable from its step", async () => {
      await showControlCenter(runningWave2State(), step('tests'));
      const card = page.locator(`${step('tests')} ${byTestId(TEST_IDS.approvalCard)}`);
      assert.equal(await card.count(), 1);
      await card.locator(byTestId(TEST_IDS.approvalAccept)).click();
      assert.deepEqual(await webview.postedUntil('approve'), [{ type: 'approve', requestId: 'apv-g3', decision: 'yes' }]);
    });

    it('a certified goal shows the banner, PASS verdicts with evidence links, and the summary as Markdown', async () => {
      await showControlCenter(certifiedState(), G.certified);
      assert.equal(await page.locator(G.phase).textContent(), 'Certified');
      assert.ok((await page.locator(G.certified).textContent())!.includes('iteration 1'));
      const verdicts = page.locator(G.verdict);
      assert.deepEqual(
        await verdicts.evaluateAll((els) =>
          els.map((v) => [v.getAttribute('data-kind'), v.getAttribute('data-ok'), v.querySelector('.badge')?.textContent]),
        ),
        [
          ['review', 'true', 'PASS'],
          ['verify', 'true', 'PASS'],
        ],
      );
      assert.equal(await page.locator(`${G.summary} .markdown h2`).textContent(), 'Done');
      assert.ok((await page.locator(`${G.summary} code`).allTextContents()).includes('test/cli-json.test.ts'));
      await page.locator(`${G.verdict}[data-kind="verify"] a`).click();
      assert.deepEqual(await webview.postedUntil('openFile'), [
        { type: 'openFile', path: `.catalyst-code/goal-ux/artifacts/${GOAL_ID}/SUMMARY.md` },
      ]);
      assert.equal(await page.locator(G.form).isVisible(), true, 'a finished goal offers the start form');
      assert.equal(await page.locator(G.cancel).isVisible(), false);
    });

    it('a failed goal shows its error, the FAIL verdict with its gaps, failed and skipped steps', async () => {
      await showControlCenter(failedState(), G.error);
      assert.ok((await page.locator(G.error).textContent())!.includes('verify budget exhausted after 3 iteration(s)'));
      assert.equal(await page.locator(`${G.header} .goal-message`).count(), 0, 'the header does not repeat the error');
      const verdict = page.locator(G.verdict);
      assert.equal(await verdict.getAttribute('data-ok'), 'false');
      assert.equal(await verdict.locator('.badge').textContent(), 'FAIL');
      assert.ok((await verdict.textContent())!.includes('the flag is missing'));
      assert.equal(await page.locator(G.certified).isVisible(), false);
      assert.equal(await page.locator(step('flag')).getAttribute('data-status'), 'failed');
      assert.equal(await page.locator(step('docs')).getAttribute('data-status'), 'skipped');
      assert.ok((await page.locator(step('docs')).textContent())!.includes('skipped: a dependency step failed or was skipped'));
    });

    it("our core's recorded goal, as the client reduces it: the plan to approve, then both waves done with their workers' runs and the summary", async () => {
      await showControlCenter(
        recordedUpTo((e) => e.type === 'goal_plan'),
        G.approve,
      );
      assert.equal(await page.locator(G.phase).textContent(), 'Plan ready');
      const planned = await page.locator(G.planStep).count();
      assert.ok(planned > 0, 'the plan lists its steps');
      // The goal's state counter is 2 by then: the heading numbers the plan, not the goal's changes.
      assert.match((await page.locator(`${G.plan} .goal-plan-heading`).textContent())!, /· version 1$/);
      await webview.snapshot(
        recordedUpTo((e) => e.type === 'goal_state' && e.phase === 'done'),
        CONTROL_CENTER,
      );
      await page.locator(G.summary).waitFor();
      assert.equal(await page.locator(G.phase).textContent(), 'Done');
      assert.deepEqual(
        await page.locator(G.wave).evaluateAll((els) => els.map((w) => w.querySelectorAll('[data-step-id]').length)),
        [2, 1],
        'three steps in two waves',
      );
      assert.deepEqual(await page.locator(G.step).evaluateAll((els) => els.map((s) => s.getAttribute('data-status'))), [
        'done',
        'done',
        'done',
      ]);
      assert.equal(await page.locator(`${G.step} ${byTestId(TEST_IDS.subagentRow)}`).count(), 3, "each step shows its worker's run");
      // The core's deterministic report is plain lines: they stay lines, not one run-on paragraph.
      const summaryLines = await page
        .locator(`${G.summary} .markdown`)
        .evaluate((el) => (el as { innerText: string }).innerText.split('\n'));
      assert.ok(summaryLines.includes('Outcome: 3/3 step(s) done'), summaryLines.join('|'));
    });
  });

  describe("the chat's goal card (the chat's bundle)", () => {
    useWebviewPage(opened, { viewport: { width: 900, height: 1200 } });

    it('the chat shows a compact goal card that opens the Control Center; the workers stay out of the flow, their approval in it', async () => {
      await webview.snapshot(runningWave2State());
      await page.locator(G.chatCard).waitFor();
      webview.skipPosted();
      assert.deepEqual(await loadedScripts(page), ['webview.js'], "the chat loads only its own bundle, not the Control Center's");
      const card = (await page.locator(G.chatCard).textContent())!;
      for (const part of ['Add a --json output flag to the CLI', 'running', '1/4 steps finished · wave 2'])
        assert.ok(card.toLowerCase().includes(part.toLowerCase()), `${part} in ${card}`);
      assert.equal(await page.locator(G.controlCenter).count(), 0, 'the chat builds no Control Center');
      assert.equal(await page.locator(byTestId(TEST_IDS.subagentRow)).count(), 0, 'no worker row in the chat');
      assert.equal(await page.locator(byTestId(TEST_IDS.assistantMessage)).count(), 0, "no worker's reply in the chat");
      assert.equal(
        await page.locator(`${byTestId(TEST_IDS.transcript)} ${byTestId(TEST_IDS.approvalCard)}`).count(),
        1,
        "the worker's approval stays in the chat",
      );
      assert.equal(
        await page.locator(`${byTestId(TEST_IDS.reviewList)} ${byTestId(TEST_IDS.reviewListRow)}`).count(),
        1,
        'and in the review list',
      );
      await page.click(G.openControlCenter);
      assert.deepEqual(await webview.postedUntil('goalAction'), [{ type: 'goalAction', action: 'openControlCenter' }]);
    });

    it('the chat has no goal card without a goal, and shows one as soon as the core reports a goal', async () => {
      await webview.snapshot(goalSessionState(undefined));
      await page.locator(byTestId(TEST_IDS.composer)).waitFor();
      assert.equal(await page.locator(G.chatCard).isVisible(), false);
      await webview.patch({ op: 'set', key: 'goal', value: planReadyState().goal });
      await page.locator(`${G.chatCard}[data-phase="plan_ready"]`).waitFor();
      assert.ok((await page.locator(G.chatCard).textContent())!.includes('4 steps wait for approval'));
    });
  });
});

// Issue #16 "Done when", in code-server: a goal started from the palette (review first, CEO mode) shows its plan in the
// Control Center, is approved there, runs two waves of workers (one worker's edit reviewed in the diff editor), and
// ends certified with its summary; a second goal is cancelled mid-wave from the palette; a third, started with /goal in
// the chat while the Control Center is closed, announces its plan in a notification, is revised and then cancelled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GOAL_TEST_IDS } from '../../webview/goal/testIds';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { parkedScout, SCOUT_ROUTE } from '../support/goalScenario';
import type { ResponseEnd, ScriptedResponse, StartedScriptedModelServer } from '../support/scriptedModelServer';
import { promptAgent, textTurn, toolCallTurn } from './harness/approvals';
import { chatSuite } from './harness/chatSuite';
import { chatIframeSelector, chatLocator } from './harness/chatView';
import { clickTitleAction, modifiedSide, waitForProposal, waitForProposalClosed } from './harness/diffEditor';
import { waitForRenderedText } from './harness/editors';
import { pickQuickItem, runCommand, typeInInputBox } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const GOAL = 'Write alpha into notes.txt and report it';
const CERTIFIED = 'notes.txt now reads alpha.\nVERDICT: CERTIFIED';
/** Two steps in parallel (a writes, b looks), then c after both. */
const PLAN = {
  summary: 'Write the notes, look around, then report.',
  steps: [
    { id: 'a', agent: 'worker', title: 'Write the notes', task: '[step-a] Write alpha into notes.txt.' },
    { id: 'b', agent: 'delegate', title: 'Look around', task: '[step-b] List the workspace.' },
    { id: 'c', agent: 'worker', title: 'Report', task: '[step-c] Report what the others did.', depends_on: ['a', 'b'] },
  ],
  risks: ['none'],
  validation: ['notes.txt reads alpha'],
};

const byId = (id: string) => `[data-testid="${id}"]`;

/** Resolves once `count` responses wait at `gate`; fails after `timeoutMs`, saying what arrived. */
async function heldAt(model: StartedScriptedModelServer, gate: string, count: number, timeoutMs = 60_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const routes = model.requests.filter((r) => r.method === 'POST').map((r) => r.route ?? '(default)');
      reject(new Error(`${timeoutMs} ms passed waiting for ${count} responses held at ${gate}; chat requests: ${routes.join(', ')}`));
    }, timeoutMs);
  });
  try {
    await Promise.race([model.held(gate, count), bound]);
  } finally {
    clearTimeout(timer);
  }
}

const held = (gate: string, text: string): ScriptedResponse => ({ holdUntil: gate, steps: [{ text }] });

describe('goal mode in VS Code (issue #16)', { timeout: 900_000 }, () => {
  const suite = chatSuite({ files: { 'notes.txt': 'old\n' } });
  const { check, settle } = suite;
  const center = () => chatLocator(suite.env().page, 'editor');
  const phase = () => center().locator(byId(GOAL_TEST_IDS.phase)).first();
  const stepStatuses = () =>
    center()
      .locator(byId(GOAL_TEST_IDS.step))
      .evaluateAll((els) => els.map((el) => `${el.getAttribute('data-step-id')}:${el.getAttribute('data-status')}`));
  /** `<step>:<state>` of each step's worker run (its subagent row), for the steps that have one. */
  const workerStates = () =>
    center()
      .locator(byId(GOAL_TEST_IDS.step))
      .evaluateAll(
        (els, rowId) =>
          els.flatMap((el) => {
            const row = el.querySelector(`[data-testid="${rowId}"]`);
            return row ? [`${el.getAttribute('data-step-id')}:${row.getAttribute('data-state')}`] : [];
          }),
        TEST_IDS.subagentRow,
      );
  const goalPhase = async () => (await center().locator(byId(GOAL_TEST_IDS.header)).getAttribute('data-phase')) ?? '';

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'Start Goal… from the palette: the plan approved in the Control Center, two waves, a worker edit in the diff editor, certified',
    check(async () => {
      const { page, model } = suite.env();
      // Each goal's speculative scout waits on a route of its own until the goal stops it.
      model.route(SCOUT_ROUTE, parkedScout());
      model.enqueue(toolCallTurn('call_plan', 'goal_write_plan', PLAN));
      model.route(
        '[step-a]',
        toolCallTurn('call_a_write', 'write_file', { path: 'notes.txt', content: 'alpha\n' }),
        textTurn('Step a wrote alpha.'),
      );
      model.route('[step-b]', textTurn('Step b: the workspace holds notes.txt.'));
      model.route('[step-c]', textTurn('Step c: notes.txt reads alpha.'));
      model.route('# Goal verification', textTurn(CERTIFIED));

      await runCommand(page, 'Catalyst: Start Goal…');
      await typeInInputBox(page, GOAL, { prompt: /What should be achieved/ });
      await pickQuickItem(page, 'Review the plan first, then verify until certified');

      // The Control Center opens; the plan waits there for the user's review.
      const plan = center().locator(byId(GOAL_TEST_IDS.plan));
      await plan.waitFor({ state: 'visible', timeout: 60_000 });
      await waitUntil(async () => (await plan.locator(byId(GOAL_TEST_IDS.planStep)).count()) === 3, {
        timeoutMs: 30_000,
        what: 'the three steps of the plan',
      });
      assert.equal(await goalPhase(), 'plan_ready');
      assert.equal(model.requestsFor('[step-a]').length, 0, 'no worker runs before the approval');
      await center().locator(byId(GOAL_TEST_IDS.approve)).click();

      // Wave 1: step a's write_file is a proposal in the diff editor; accepting it writes the file.
      const { diff } = await waitForProposal(page, 'notes.txt', 60_000);
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('alpha'), "the worker's proposal on the right");
      await clickTitleAction(page, 'Accept Proposed Change');
      await suite.waitForDisk('notes.txt', 'alpha\n', 15_000);
      await waitForProposalClosed(page, 'notes.txt');

      // Back in the Control Center: both waves done, the verifier's verdict, the certification and the summary.
      await runCommand(page, 'Catalyst: Open Goal Control Center');
      await center().locator(byId(GOAL_TEST_IDS.certified)).waitFor({ state: 'visible', timeout: 60_000 });
      await waitUntil(async () => (await goalPhase()) === 'done', { timeoutMs: 30_000, what: 'the goal done' });
      assert.deepEqual(await stepStatuses(), ['a:done', 'b:done', 'c:done']);
      assert.equal(await center().locator(byId(GOAL_TEST_IDS.wave)).count(), 2, 'two waves');
      const verdict = center().locator(`${byId(GOAL_TEST_IDS.verdict)}[data-kind="verify"]`);
      assert.equal(await verdict.getAttribute('data-ok'), 'true');
      const summary = center().locator(byId(GOAL_TEST_IDS.summary));
      await summary.waitFor({ state: 'visible', timeout: 15_000 });
      assert.match((await summary.textContent()) ?? '', /notes\.txt now reads alpha\./);
      assert.match((await phase().textContent()) ?? '', /certified|done/i);
    }),
  );

  it(
    'Cancel Goal mid-wave: every worker stops, the goal ends cancelled, the next wave never starts',
    check(async () => {
      const { page, model } = suite.env();
      await settle();
      model.route(SCOUT_ROUTE, parkedScout());
      model.enqueue(
        toolCallTurn('call_plan2', 'goal_write_plan', {
          summary: 'Two at once, then one.',
          steps: [
            { id: 'x', agent: 'delegate', title: 'First', task: '[step-x] Wait.' },
            { id: 'y', agent: 'delegate', title: 'Second', task: '[step-y] Wait too.' },
            { id: 'z', agent: 'delegate', title: 'After both', task: '[step-z] Never reached.', depends_on: ['x', 'y'] },
          ],
        }),
      );
      model.route('[step-x]', held('wave', 'x: too late.'));
      model.route('[step-y]', held('wave', 'y: too late.'));
      model.route('[step-z]', textTurn('z: must not run.'));

      await runCommand(page, 'Catalyst: Start Goal…');
      await typeInInputBox(page, 'Run two workers, then cancel them', { prompt: /What should be achieved/ });
      await pickQuickItem(page, 'Deploy at once');
      await heldAt(model, 'wave', 2);
      await waitUntil(async () => (await stepStatuses()).join(' ') === 'x:running y:running z:pending', {
        timeoutMs: 30_000,
        what: 'wave 1 running in the Control Center',
      });

      const workerEnds = new Map<string, ResponseEnd>();
      for (const key of ['[step-x]', '[step-y]']) {
        const [request] = model.requestsFor(key);
        void model.responseEnd(request).then((end) => workerEnds.set(key, end));
      }

      await runCommand(page, 'Catalyst: Cancel Goal');
      await waitUntil(async () => (await goalPhase()) === 'cancelled', { timeoutMs: 30_000, what: 'the goal cancelled' });
      // Each worker's cancelled end, before the held replies go out: the core abandoned both requests (so nothing the
      // script still holds can reach it, and no reply can finish wave 1) and both runs show cancelled.
      await waitUntil(() => workerEnds.size === 2, { timeoutMs: 30_000, what: "the workers' requests to end" });
      assert.deepEqual(Object.fromEntries(workerEnds), { '[step-x]': 'closed_by_client', '[step-y]': 'closed_by_client' });
      await waitUntil(async () => (await workerStates()).join(' ') === 'x:cancelled y:cancelled', {
        timeoutMs: 30_000,
        what: "both workers' runs cancelled in the Control Center",
      });
      model.release('wave');
      assert.equal(model.requestsFor('[step-z]').length, 0, 'the second wave never started');
      assert.ok(
        (await stepStatuses()).every((s) => !s.endsWith(':done')),
        'no step of a cancelled goal reports done',
      );
    }),
  );

  it(
    '/goal in the chat: the plan-ready notification with the Control Center closed, Review Plan, a revision, Cancel there',
    check(async () => {
      const { page, model } = suite.env();
      await settle();
      const onePlan = (title: string) => ({
        summary: `${title}.`,
        steps: [{ id: 'only', agent: 'delegate', title, task: '[step-only] Tidy.' }],
      });
      model.route(SCOUT_ROUTE, parkedScout());
      model.enqueue(
        { ...toolCallTurn('call_plan3', 'goal_write_plan', onePlan('First draft')), holdUntil: 'plan3' },
        toolCallTurn('call_plan4', 'goal_write_plan', onePlan('Second draft')),
      );
      await promptAgent(suite.chat(), '/goal Tidy the notes folder');
      await heldAt(model, 'plan3', 1);
      await center().locator(byId(GOAL_TEST_IDS.controlCenter)).waitFor({ state: 'visible', timeout: 30_000 });
      await runCommand(page, 'View: Close All Editors');
      await waitUntil(async () => (await page.locator(chatIframeSelector('editor')).count()) === 0, {
        timeoutMs: 15_000,
        what: 'the Control Center closed',
      });

      model.release('plan3');
      const toast = page
        .locator('.notifications-toasts .notification-toast')
        .filter({ hasText: /the plan for "Tidy the notes folder" is ready \(1 step\) and waits for your approval/ })
        .first();
      await toast.waitFor({ state: 'visible', timeout: 30_000 });
      const goalItem = page.locator('.statusbar-item').filter({ hasText: /Goal: plan ready · 0\/1 steps/ });
      await goalItem.first().waitFor({ state: 'visible', timeout: 15_000 });
      await toast.getByRole('button', { name: 'Review Plan' }).click();

      const steps = center().locator(byId(GOAL_TEST_IDS.planStep));
      await steps.filter({ hasText: 'First draft' }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await center().locator(byId(GOAL_TEST_IDS.revise)).click();
      await center().locator(byId(GOAL_TEST_IDS.feedback)).fill('Call it the second draft.');
      await center().locator(byId(GOAL_TEST_IDS.sendRevision)).click();
      await steps.filter({ hasText: 'Second draft' }).first().waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(
        JSON.stringify(model.requests.filter((r) => r.method === 'POST').at(-1)?.body ?? {}),
        /Call it the second draft\./,
        "the planner's second turn reads the feedback",
      );
      assert.equal(await steps.count(), 1);

      // The plan under review has its own Cancel (the header's is for a goal that runs).
      await center().locator(byId(GOAL_TEST_IDS.plan)).getByRole('button', { name: 'Cancel goal' }).click();
      await waitUntil(async () => (await goalPhase()) === 'cancelled', { timeoutMs: 30_000, what: 'the goal cancelled' });
      await waitUntil(async () => (await page.locator('.statusbar-item').filter({ hasText: /Goal:/ }).count()) === 0, {
        timeoutMs: 15_000,
        what: "the status bar's goal item gone",
      });
      assert.equal(model.requestsFor('[step-only]').length, 0, 'a cancelled plan never deploys');
    }),
  );
});

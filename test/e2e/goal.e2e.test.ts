// Issue #16 "Done when", in code-server: a goal started from the palette (review first, CEO mode) shows its plan in the
// Control Center, is approved there, runs two waves of workers (one worker's edit reviewed in the diff editor), and
// ends certified with its summary; a second goal is cancelled mid-wave from the palette.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GOAL_TEST_IDS } from '../../webview/goal/testIds';
import type { ScriptedResponse, StartedScriptedModelServer } from '../support/scriptedModelServer';
import { textTurn, toolCallTurn } from './harness/approvals';
import { chatSuite } from './harness/chatSuite';
import { chatLocator } from './harness/chatView';
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
  const goalPhase = async () => (await center().locator(byId(GOAL_TEST_IDS.header)).getAttribute('data-phase')) ?? '';

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'Start Goal… from the palette: the plan approved in the Control Center, two waves, a worker edit in the diff editor, certified',
    check(async () => {
      const { page, model } = suite.env();
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

      await runCommand(page, 'Catalyst: Cancel Goal');
      await waitUntil(async () => (await goalPhase()) === 'cancelled', { timeoutMs: 30_000, what: 'the goal cancelled' });
      model.release('wave');
      assert.equal(model.requestsFor('[step-z]').length, 0, 'the second wave never started');
      assert.ok(
        (await stepStatuses()).every((s) => !s.endsWith(':done')),
        'no step of a cancelled goal reports done',
      );
    }),
  );
});

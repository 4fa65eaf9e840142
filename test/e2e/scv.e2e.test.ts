// Issue #6 "Done when", end to end in code-server driven by Chromium: the same chat driving an SCV server. The extension
// launches the fake `scv-server` (test/scv/fakeScvServer.mjs) itself, from the workspace's settings (core.kind "scv",
// core.path, core.args pointing it at the scripted model server, scv.approvalPolicy "on-risk"); the fake runs a real
// agent loop against that endpoint. One launch; the checks run in order, each a user flow.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import {
  approvalCard,
  chatRequests,
  drainScript,
  promptAgent,
  textTurn,
  toolCallTurn,
  toolResultSent,
  waitForCardState,
  waitForToolResultSent,
} from './harness/approvals';
import {
  abortRun,
  messageTexts,
  openChatView,
  testId,
  waitForAssistantText,
  waitForIdle,
  waitForRunning,
  waitForUserText,
} from './harness/chatActions';
import { byTestId } from './harness/chatView';
import { clickTitleAction, modifiedSide, originalSide } from './harness/diffEditor';
import { activateTab, activeCodeEditor, openWorkspaceFile, waitForRenderedText } from './harness/editors';
import { startE2eEnv, withArtifacts, type E2eEnv } from './harness/e2eEnv';
import { paletteHasCommand, runCommand } from './harness/quickInput';
import { checkpointStatusItem } from './harness/scm';
import { scvProposalTabs, waitForScvProposal, waitForScvProposalClosed } from './harness/scvProposal';
import {
  describeQueue,
  editQueueEntry,
  moveQueueEntryUp,
  queuePauseToggle,
  queueRowViews,
  removeQueueEntry,
  setQueuePaused,
  waitForQueueRows,
} from './harness/scvQueue';
import { FAKE_SCV_SERVER, processesMatching, scvServerProcesses, writeScvFolderSettings } from './harness/scvServer';
import { waitUntil } from './harness/wait';

const MODEL = 'scv-e2e-model';
const ACCEPT = 'Accept Proposed Change';
const REJECT = 'Reject Proposed Change';
/** What SCV tells the model about a call the user rejected (tool.completed output for error "denied"). */
const SCV_DENIAL = 'tool call denied by policy or user';

const REPLACE_PATH = 'replace-me.txt';
const REPLACE_BEFORE = 'one\ntwo\nthree\n';
const REPLACE_AFTER = 'one\ntwo, rewritten by SCV\nthree\nfour, added by SCV\n';
const CREATE_PATH = 'never-created.txt';

const STREAM_PROMPT = 'Explain how to add two numbers';
const STREAM_HEAD = '## Adding numbers\n\nUse a **typed function** and call it as `add(1, 2)`.\n\n';
const STREAM_TAIL =
  '```typescript\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n\nDone: e2e-scv-stream-ok.\n';

const SLEEP_COMMAND = 'sleep 30';
const SLEEP_PROMPT = 'Wait half a minute with bash';

const QUEUE_RUNNING = 'Queue check: the running turn';
const QUEUE_FIRST = 'Queue check: first queued prompt';
const QUEUE_FIRST_EDITED = 'Queue check: the first queued prompt, edited in the panel';
const QUEUE_SECOND = 'Queue check: second queued prompt';
/**
 * How long the running turn of the queue check keeps streaming: long enough for a user to edit, move, remove, pause and
 * resume (the check asserts the turn was still running when they were done), short enough not to drag the suite.
 */
const QUEUE_TURN_MS = 30_000;

describe('an SCV server through the same UI (issue #6)', { timeout: 600_000 }, () => {
  let env: E2eEnv | undefined;
  const check = withArtifacts(() => env);
  const chat = () => env!.chat('sidebar');
  const path = (rel: string) => join(env!.workspace, rel);
  const onDisk = (rel: string) => (existsSync(path(rel)) ? readFileSync(path(rel), 'utf8') : undefined);
  const waitForDisk = async (rel: string, expected: string, timeoutMs = 15_000) => {
    try {
      await waitUntil(() => onDisk(rel) === expected, { timeoutMs, what: `${rel} on disk to be ${JSON.stringify(expected)}` });
    } catch (error) {
      const now = onDisk(rel);
      throw new Error(`${(error as Error).message}; it is ${now === undefined ? 'missing' : JSON.stringify(now)}`);
    }
  };
  const notices = async () => (await testId(chat(), TEST_IDS.notice).allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());

  before(async () => {
    env = await startE2eEnv({
      models: [MODEL],
      files: { [REPLACE_PATH]: REPLACE_BEFORE },
      beforeLaunch: ({ workspace, model }) => {
        writeScvFolderSettings(workspace, { serverPath: FAKE_SCV_SERVER, baseUrl: model.url, model: MODEL, approvalPolicy: 'on-risk' });
      },
    });
  });
  after(async () => {
    await env?.close();
  });

  /**
   * Puts the session back to idle if an earlier check failed half-way: stops a running turn, empties and resumes the
   * server's queue, drops unused scripted replies, closes leftover proposal tabs.
   */
  async function settle(): Promise<void> {
    const { page, model } = env!;
    await openChatView(page);
    await testId(chat(), TEST_IDS.composer).first().waitFor({ state: 'visible', timeout: 30_000 });
    for (const row of await queueRowViews(chat())) await removeQueueEntry(chat(), row.id);
    const pause = queuePauseToggle(chat());
    if ((await pause.isVisible().catch(() => false)) && (await pause.getAttribute('aria-pressed')) === 'true')
      await setQueuePaused(chat(), false);
    if (
      await testId(chat(), TEST_IDS.abortButton)
        .first()
        .isVisible()
        .catch(() => false)
    ) {
      await abortRun(chat());
      await waitForIdle(chat(), 15_000);
    }
    await drainScript(model);
    if ((await scvProposalTabs(page).count()) > 0) await runCommand(page, 'View: Close All Editors');
  }

  it(
    '1. the chat opens with no log-in; the status shows the SCV server ready',
    check(async (t) => {
      const { page, model, workbench } = env!;
      await runCommand(page, 'Catalyst: Open Chat');
      const composer = testId(chat(), TEST_IDS.composer).first();
      await composer.waitFor({ state: 'visible', timeout: 90_000 });
      const status = testId(chat(), TEST_IDS.coreStatus).first();
      await waitUntil(async () => (await status.getAttribute('data-status')) === 'ready', {
        timeoutMs: 60_000,
        what: 'the chat header to show the core ready',
      });
      t.diagnostic(`chat status: ${(await status.innerText()).trim()} (title: ${await status.getAttribute('title')})`);
      assert.equal(
        await testId(chat(), TEST_IDS.welcome).first().isVisible(),
        false,
        'the chat asks for a log-in although SCV brings its own provider',
      );
      // isVisible() does not wait, and answers false for an absent element; it throws only when the chat cannot be read
      // (its frame gone), which must fail the check rather than pass for "absent".
      assert.equal(await testId(chat(), TEST_IDS.loginButton).first().isVisible(), false, 'a log-in button is shown');

      // The server the extension started is the fake scv-server with the settings' flags, not the embedded core.
      const [server] = await waitUntil(
        () => {
          const found = scvServerProcesses(workbench.rootPid);
          return found.length > 0 ? found : undefined;
        },
        { timeoutMs: 10_000, what: 'the fake scv-server process under code-server' },
      );
      t.diagnostic(`server: ${server.commandLine}`);
      assert.match(server.commandLine, /--approval-policy[ =]on-risk\b/);
      assert.ok(server.commandLine.includes(`--base-url ${model.url}`), `the server did not get the endpoint: ${server.commandLine}`);
      assert.ok(server.commandLine.includes(`--model ${MODEL}`), `the server did not get the model: ${server.commandLine}`);
      assert.deepEqual(env!.corePids(), [], 'an embedded core runs as well');

      // What session.started said: the model, in the picker and in the status bar.
      const picker = testId(chat(), TEST_IDS.modelPicker).first();
      await waitUntil(async () => (await picker.inputValue()) === MODEL, { timeoutMs: 10_000, what: `the model picker to show ${MODEL}` });
      // The status bar names the server by the version its handshake reported: "SCV <version>: idle · <model>".
      const statusBar = page
        .locator('#workbench\\.parts\\.statusbar .statusbar-item')
        .filter({ hasText: /\bSCV\b[^:]*: idle/ })
        .first();
      await statusBar.waitFor({ state: 'visible', timeout: 15_000 });
      const statusText = (await statusBar.innerText()).trim();
      t.diagnostic(`status bar: ${statusText}`);
      assert.ok(statusText.includes(MODEL), `the status bar does not show the model: ${statusText}`);
      assert.equal(chatRequests(model).length, 0, 'the model was called before any prompt');
    }),
  );

  it(
    '2. a prompt streams its reply into the chat as markdown; no Steer while it runs',
    check(async () => {
      await settle();
      const { model } = env!;
      model.enqueue({
        steps: [{ text: STREAM_HEAD }, { delayMs: 2000, text: STREAM_TAIL }],
        chunkDelayMs: 5,
        usage: { prompt: 50, completion: 40 },
      });
      await promptAgent(chat(), STREAM_PROMPT);
      await waitForUserText(chat(), STREAM_PROMPT);
      // Mid-stream: the head is on screen before the endpoint has sent the tail.
      const partial = await waitForAssistantText(chat(), 'typed function', 30_000);
      assert.equal(await partial.getByText('e2e-scv-stream-ok').count(), 0, 'the tail showed before the endpoint sent it');
      await waitForRunning(chat());
      assert.equal(await testId(chat(), TEST_IDS.steerButton).first().isVisible(), false, 'a Steer button is offered for an SCV turn');

      const message = await waitForAssistantText(chat(), 'e2e-scv-stream-ok');
      await message.locator('h2', { hasText: 'Adding numbers' }).waitFor({ timeout: 10_000 });
      await message.locator('strong', { hasText: 'typed function' }).waitFor({ timeout: 10_000 });
      const block = message.locator(byTestId(TEST_IDS.codeBlock)).first();
      await block.waitFor({ timeout: 10_000 });
      assert.match(await block.innerText(), /return a \+ b;/);
      assert.ok(!(await message.innerText()).includes('**'), 'markdown emphasis rendered as raw text');
      await waitForIdle(chat());

      const request = chatRequests(model).at(-1)!;
      assert.equal(request.body?.model, MODEL);
      assert.equal(lastUserText(request), STREAM_PROMPT);
    }),
  );

  it(
    '3. a write proposal (replace) opens as a diff; Accept writes it, the open editor shows it, the card says approved',
    check(async (t) => {
      await settle();
      const { page, model } = env!;
      const editor = await openWorkspaceFile(page, REPLACE_PATH);
      await waitForRenderedText(editor, (s) => s === REPLACE_BEFORE, `${REPLACE_PATH} in its editor`);
      model.enqueue(
        toolCallTurn('call_scv_replace', 'write', { path: REPLACE_PATH, content: REPLACE_AFTER, mode: 'replace' }),
        textTurn('Rewrote it: e2e-scv-replace-done.'),
      );
      await promptAgent(chat(), `Rewrite ${REPLACE_PATH}`);
      const { diff, title } = await waitForScvProposal(page, REPLACE_PATH);
      // SCV applies a proposal only as it is: the proposal side cannot be edited, and the tab says so.
      assert.match(title, /read-only/, `the proposal tab: ${title}`);
      await waitForRenderedText(
        modifiedSide(diff),
        (s) => s.includes('two, rewritten by SCV') && s.includes('four, added by SCV'),
        'the proposal on the right',
      );
      await waitForRenderedText(originalSide(diff), (s) => s === REPLACE_BEFORE, 'the file as it is on the left');
      assert.equal(onDisk(REPLACE_PATH), REPLACE_BEFORE, 'the file changed before the user answered');
      await waitForCardState(approvalCard(chat(), REPLACE_PATH), 'pending');

      await clickTitleAction(page, ACCEPT);
      await waitForDisk(REPLACE_PATH, REPLACE_AFTER);
      await waitForScvProposalClosed(page, REPLACE_PATH);
      await waitForCardState(approvalCard(chat(), REPLACE_PATH), 'approved');
      const told = await waitForToolResultSent(model, 'call_scv_replace');
      t.diagnostic(`the write result the model got: ${told.slice(0, 200)}`);
      assert.ok(!told.includes(SCV_DENIAL), `the model was told the write was denied: ${told}`);
      await waitForAssistantText(chat(), 'e2e-scv-replace-done');
      await waitForIdle(chat());
      // SCV has no checkpoints: the embedded core would have put one in this turn, before the write.
      assert.equal(await testId(chat(), TEST_IDS.checkpointRow).count(), 0, 'a checkpoint row showed for an SCV turn');

      // The editor the user had open shows what is on disk.
      await activateTab(page, REPLACE_PATH);
      await waitForRenderedText(activeCodeEditor(page), (s) => s === REPLACE_AFTER, 'the open editor to show the written text');
    }),
  );

  it(
    '4. a write proposal (create) rejected in the diff editor: no file, and the model is told it was denied',
    check(async () => {
      await settle();
      const { page, model } = env!;
      model.enqueue(
        toolCallTurn('call_scv_create', 'write', { path: CREATE_PATH, content: 'the agent wanted this file\n', mode: 'create' }),
        textTurn('Fine, I did not create it: e2e-scv-create-done.'),
      );
      await promptAgent(chat(), `Create ${CREATE_PATH}`);
      const { diff } = await waitForScvProposal(page, CREATE_PATH);
      await waitForRenderedText(modifiedSide(diff), (s) => s.includes('the agent wanted this file'), 'the proposed new file on the right');
      await clickTitleAction(page, REJECT);
      await waitForScvProposalClosed(page, CREATE_PATH);
      const told = await waitForToolResultSent(model, 'call_scv_create');
      assert.ok(told.includes(SCV_DENIAL), `the tool result the model got: ${told}`);
      await waitForCardState(approvalCard(chat(), CREATE_PATH), 'denied');
      await waitForAssistantText(chat(), 'e2e-scv-create-done');
      await waitForIdle(chat());
      assert.equal(existsSync(path(CREATE_PATH)), false, `${CREATE_PATH} exists although the user rejected it`);
    }),
  );

  it(
    '5. Stop during an approved `sleep 30`: the turn ends at once, the chat says SCV rolled it back, the sleep is gone',
    check(async (t) => {
      await settle();
      const { model, workbench } = env!;
      // No follow-up reply is scripted: a cancelled turn asks the model nothing more.
      model.enqueue(toolCallTurn('call_scv_sleep', 'bash', { command: SLEEP_COMMAND }));
      await promptAgent(chat(), SLEEP_PROMPT);
      const card = approvalCard(chat(), SLEEP_COMMAND);
      await waitForCardState(card, 'pending', 30_000);
      await card.locator(byTestId(TEST_IDS.approvalAccept)).first().click();
      await waitForCardState(card, 'approved');
      const sleeping = () => processesMatching(workbench.rootPid, /(^|\s|\/)sleep 30$/);
      const [sleep] = await waitUntil(() => (sleeping().length > 0 ? sleeping() : undefined), {
        timeoutMs: 15_000,
        what: `\`${SLEEP_COMMAND}\` running under the SCV server`,
      });
      t.diagnostic(`the command's process: ${sleep.pid} ${sleep.commandLine}`);

      await abortRun(chat());
      // Far less than the 30 s the command would take by itself.
      await waitForIdle(chat(), 10_000);
      const said = await waitUntil(async () => (await notices()).find((n) => /rolled back/i.test(n)), {
        timeoutMs: 10_000,
        what: 'a notice that SCV rolled the turn back',
      });
      t.diagnostic(`notice: ${said}`);
      await waitUntil(() => sleeping().length === 0, { timeoutMs: 10_000, what: `\`${SLEEP_COMMAND}\` to be gone` });
      assert.equal(toolResultSent(model, 'call_scv_sleep'), undefined, 'the model was asked again after the turn was stopped');
      assert.equal(await testId(chat(), TEST_IDS.checkpointRow).count(), 0, 'a checkpoint row showed for an SCV turn');
    }),
  );

  it(
    '6. the server queue: two prompts sent during a turn are listed; edit, move, remove, pause and resume; the edited one runs next',
    check(async (t) => {
      await settle();
      const { model } = env!;
      const requestsBefore = chatRequests(model).length;
      model.enqueue(
        {
          steps: [
            { text: 'The running turn begins. ' },
            { delayMs: QUEUE_TURN_MS, text: 'The running turn ends: e2e-scv-queue-running-done.' },
          ],
        },
        textTurn('Answering the edited prompt: e2e-scv-queue-edited-done.'),
      );
      await promptAgent(chat(), QUEUE_RUNNING);
      await waitForAssistantText(chat(), 'The running turn begins');
      await waitForRunning(chat());
      assert.equal(await testId(chat(), TEST_IDS.steerButton).first().isVisible(), false, 'a Steer button is offered for an SCV turn');

      await promptAgent(chat(), QUEUE_FIRST);
      await promptAgent(chat(), QUEUE_SECOND);
      const queued = await waitForQueueRows(chat(), (rows) => rows.length === 2, 'two rows in the queue panel');
      t.diagnostic(`queued: ${describeQueue(queued)}`);
      assert.ok(queued[0].text.includes(QUEUE_FIRST) && queued[1].text.includes(QUEUE_SECOND), `queue order: ${describeQueue(queued)}`);
      const [first, second] = queued;
      // A prompt the server queued is not a turn yet.
      assert.equal(
        await testId(chat(), TEST_IDS.userMessage).filter({ hasText: QUEUE_FIRST }).count(),
        0,
        'the queued prompt shows as a turn already',
      );
      assert.equal(
        await testId(chat(), TEST_IDS.queuedChip).first().isVisible(),
        false,
        'the one-deep queued chip shows besides the server queue',
      );

      await editQueueEntry(chat(), first.id, QUEUE_FIRST_EDITED);
      await waitForQueueRows(
        chat(),
        (rows) =>
          rows.length === 2 && rows[0].id === first.id && rows[0].text.includes(QUEUE_FIRST_EDITED) && rows[0].revision !== first.revision,
        'the first row to show the edited prompt with a new revision',
      );

      await moveQueueEntryUp(chat(), second.id);
      await waitForQueueRows(
        chat(),
        (rows) => rows.map((r) => r.id).join() === [second.id, first.id].join(),
        'the second row moved above the first',
      );

      await removeQueueEntry(chat(), second.id);
      const left = await waitForQueueRows(
        chat(),
        (rows) => rows.length === 1 && rows[0].id === first.id,
        'only the edited prompt left in the queue',
      );
      assert.ok(left[0].text.includes(QUEUE_FIRST_EDITED), `the row left: ${describeQueue(left)}`);

      await setQueuePaused(chat(), true);
      await setQueuePaused(chat(), false);
      assert.equal(
        await testId(chat(), TEST_IDS.assistantMessage).filter({ hasText: 'e2e-scv-queue-running-done' }).count(),
        0,
        'the running turn ended before the queue operations were done: the check proved nothing (raise QUEUE_TURN_MS?)',
      );

      // The running turn ends; the edited prompt becomes the next turn.
      await waitForAssistantText(chat(), 'e2e-scv-queue-running-done', QUEUE_TURN_MS + 30_000);
      await waitForUserText(chat(), QUEUE_FIRST_EDITED);
      await waitForAssistantText(chat(), 'e2e-scv-queue-edited-done');
      await waitForIdle(chat());
      await waitForQueueRows(chat(), (rows) => rows.length === 0, 'an empty queue panel');

      const requests = chatRequests(model).slice(requestsBefore);
      assert.deepEqual(requests.map(lastUserText), [QUEUE_RUNNING, QUEUE_FIRST_EDITED], 'the prompts the model got, in order');
      const everything = JSON.stringify(requests.map((r) => r.body));
      assert.ok(!everything.includes(QUEUE_FIRST), 'the model got the queued prompt as it was before its edit');
      assert.ok(!everything.includes(QUEUE_SECOND), 'the model got the prompt removed from the queue');
      // SCV rolled back the turn stopped in check 5: its prompt is not in the conversation any more.
      assert.ok(!everything.includes(SLEEP_PROMPT), 'the stopped turn is still in the conversation the model gets');
      // The newest turns, at the bottom of the transcript (rendered; older ones may be virtualized away).
      const users = await messageTexts(chat(), TEST_IDS.userMessage);
      assert.ok(!users.includes(QUEUE_SECOND) && !users.includes(QUEUE_FIRST), `user messages: ${JSON.stringify(users)}`);
      const running = users.indexOf(QUEUE_RUNNING);
      assert.ok(running >= 0 && running < users.indexOf(QUEUE_FIRST_EDITED), `user messages: ${JSON.stringify(users)}`);
    }),
  );

  it(
    '7. what SCV lacks is absent: no checkpoints in the chat or Source Control, no Undo / Create Checkpoint in the palette',
    check(async (t) => {
      await settle();
      const { page } = env!;
      assert.equal(await paletteHasCommand(page, 'Catalyst: Open Chat'), true, 'the palette lookup does not work (Open Chat not found)');
      for (const title of ['Catalyst: Undo Last Turn', 'Catalyst: Create Checkpoint', 'Catalyst: Restore Checkpoint…']) {
        assert.equal(await paletteHasCommand(page, title), false, `the palette offers "${title}" with an SCV server`);
      }
      // No checkpoint rows (checks 3 and 5 looked right after the turns where the embedded core makes one).
      assert.equal(await testId(chat(), TEST_IDS.checkpointRow).count(), 0, 'checkpoint rows in an SCV transcript');
      assert.equal(await checkpointStatusItem(page).isVisible(), false, 'the status bar counts checkpoints');

      await runCommand(page, 'Source Control: Focus on Changes View');
      const sidebar = page.locator('.part.sidebar');
      await sidebar
        .locator('.composite.title', { hasText: /source control/i })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      t.diagnostic(`Source Control shows: ${(await sidebar.innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
      assert.equal(await sidebar.getByText('Catalyst Checkpoints').count(), 0, 'Source Control lists the Catalyst Checkpoints provider');
      assert.equal(await sidebar.locator('.scm-view .scm-editor').count(), 0, 'Source Control shows a provider input box');
    }),
  );
});

/** The text of the last user message a chat-completions request carried. */
function lastUserText(request: RecordedRequest): string | undefined {
  const users = ((request.body?.messages ?? []) as Array<{ role?: string; content?: unknown }>).filter((m) => m.role === 'user');
  const content = users.at(-1)?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c?.text ?? '').join('');
  return undefined;
}

// Issue #3 "Done when", end to end in code-server driven by Chromium: one VS Code launch, the checks in order, each
// building on the state the previous one left (as a user's session would).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import { dumpBrowserStorage } from './harness/browserStorage';
import {
  abortRun,
  logInToCustomEndpoint,
  sendPrompt,
  steer,
  testId,
  transcriptTexts,
  waitForAssistantText,
  waitForCoreReady,
  waitForIdle,
  waitForRunning,
  waitForUserText,
} from './harness/chatActions';
import { startE2eEnv, withArtifacts, type E2eEnv } from './harness/e2eEnv';
import { quickPickRow, runCommand } from './harness/quickInput';
import { filesContaining } from './harness/secretScan';
import { waitUntil } from './harness/wait';

const MODEL = 'e2e-model';
const OTHER_MODEL = 'e2e-model-large';
const API_KEY = `sk-e2e-${randomBytes(16).toString('hex')}`;
const FIRST_PROMPT = 'Show me how to add two numbers in TypeScript';
const MARKDOWN_ANSWER_HEAD = '## Adding numbers\n\nUse a **typed function** and call it with `add(1, 2)`.\n\n';
const MARKDOWN_ANSWER_TAIL =
  '```typescript\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n\nThat is all: e2e-markdown-ok.\n';

describe('chat in code-server (issue #3)', { timeout: 600_000 }, () => {
  let env: E2eEnv | undefined;
  const check = withArtifacts(() => env);
  const sidebar = () => env!.chat('sidebar');

  before(async () => {
    env = await startE2eEnv({ models: [MODEL, OTHER_MODEL], files: { 'src/math.ts': 'export const one = 1;\n' } });
  });
  after(async () => {
    await env?.close();
  });

  it(
    'opens the chat from the command palette',
    check(async () => {
      await runCommand(env!.page, 'Catalyst: Open Chat');
      const chat = sidebar();
      await chat
        .locator(`[data-testid="${TEST_IDS.composer}"], [data-testid="${TEST_IDS.welcome}"]`)
        .first()
        .waitFor({ state: 'visible', timeout: 90_000 });
    }),
  );

  it(
    'logs in to a custom OpenAI-compatible endpoint with a key typed into the input box',
    check(async (t) => {
      const { page, model } = env!;
      const asked = await logInToCustomEndpoint(page, { name: 'scripted', baseUrl: model.url, apiKey: API_KEY });
      t.diagnostic(`input boxes: ${JSON.stringify(asked)}`);
      assert.ok(asked.length >= 2, `expected input boxes for the endpoint, saw: ${JSON.stringify(asked)}`);
      // The core fetched the endpoint's model list with the key the user typed.
      await waitUntil(() => model.requests.some((r) => r.method === 'GET' && r.path.includes('/models') && r.apiKey === API_KEY), {
        timeoutMs: 30_000,
        what: `GET /models with the typed key (asked: ${JSON.stringify(asked)})`,
      });
    }),
  );

  it(
    "shows the endpoint's models in the model picker",
    check(async () => {
      const { page } = env!;
      const picker = testId(sidebar(), TEST_IDS.modelPicker).first();
      await picker.waitFor({ state: 'visible', timeout: 30_000 });
      await assertPickerOffers(page, sidebar(), picker, [MODEL, OTHER_MODEL]);
    }),
  );

  it(
    'streams the answer and renders it as markdown with a highlighted code block',
    check(async () => {
      const { model } = env!;
      model.enqueue({
        steps: [{ text: MARKDOWN_ANSWER_HEAD }, { delayMs: 1500, text: MARKDOWN_ANSWER_TAIL }],
        chunkDelayMs: 5,
        usage: { prompt: 120, completion: 60 },
      });
      const chat = sidebar();
      await sendPrompt(chat, FIRST_PROMPT);
      await waitForUserText(chat, FIRST_PROMPT);
      // Mid-stream: the head is on screen before the server has sent the tail.
      const partial = await waitForAssistantText(chat, 'typed function', 30_000);
      assert.equal(await partial.getByText('e2e-markdown-ok').count(), 0, 'the tail showed before the server sent it');
      const message = await waitForAssistantText(chat, 'e2e-markdown-ok');
      await message.locator('h2', { hasText: 'Adding numbers' }).waitFor({ timeout: 10_000 });
      await message.locator('strong', { hasText: 'typed function' }).waitFor({ timeout: 10_000 });
      await message.locator('code', { hasText: 'add(1, 2)' }).first().waitFor({ timeout: 10_000 });
      const block = message.locator(`[data-testid="${TEST_IDS.codeBlock}"]`).first();
      await block.waitFor({ timeout: 10_000 });
      assert.match(await block.innerText(), /return a \+ b;/);
      assert.ok((await block.locator('[class*="hljs-"]').count()) >= 3, 'the code block is not syntax-highlighted');
      assert.ok(!(await message.innerText()).includes('**'), 'markdown emphasis rendered as raw text');
      const request = lastChatRequest(model.requests);
      assert.ok([MODEL, OTHER_MODEL].includes(request.body.model), `unexpected model ${request.body.model}`);
      assert.equal(request.apiKey, API_KEY);
      assert.ok(mentions(request, FIRST_PROMPT));
      await waitForIdle(chat);
    }),
  );

  it(
    'queues a second prompt sent while a turn runs, then runs it',
    check(async () => {
      const { model } = env!;
      model.enqueue(
        { steps: [{ text: 'First answer begins. ' }, { delayMs: 5000, text: 'First answer ends: e2e-queue-1.' }] },
        { steps: [{ text: 'Second answer: e2e-queue-2.' }] },
      );
      const chat = sidebar();
      await sendPrompt(chat, 'First queued-test prompt');
      await waitForAssistantText(chat, 'First answer begins');
      await waitForRunning(chat);
      await sendPrompt(chat, 'Second prompt, sent while running');
      const chip = testId(chat, TEST_IDS.queuedChip).first();
      await chip.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await chip.innerText(), /Second prompt, sent while running/);
      assert.equal(
        await testId(chat, TEST_IDS.assistantMessage).filter({ hasText: 'e2e-queue-1' }).count(),
        0,
        'the first turn ended too early for the test',
      );
      await waitForAssistantText(chat, 'e2e-queue-1');
      await waitForAssistantText(chat, 'e2e-queue-2');
      await waitForUserText(chat, 'Second prompt, sent while running');
      await chip.waitFor({ state: 'hidden', timeout: 10_000 });
      const users = await transcriptTexts(chat, TEST_IDS.userMessage);
      const first = users.indexOf('First queued-test prompt');
      assert.ok(first >= 0 && first < users.indexOf('Second prompt, sent while running'), `order: ${JSON.stringify(users)}`);
      // The queued turn saw the finished first turn.
      assert.ok(mentions(lastChatRequest(model.requests), 'First answer ends: e2e-queue-1.'));
      await waitForIdle(chat);
    }),
  );

  it(
    'steers a running turn',
    check(async () => {
      const { model } = env!;
      model.enqueue(
        { steps: [{ text: 'Working on the old plan. ' }, { delayMs: 20_000, text: 'stale e2e-steer-leak' }] },
        { steps: [{ text: 'Steered answer: e2e-steer-ok.' }] },
      );
      const chat = sidebar();
      await sendPrompt(chat, 'Write the migration plan');
      await waitForAssistantText(chat, 'Working on the old plan');
      await steer(chat, 'Use the new schema instead');
      await waitForAssistantText(chat, 'e2e-steer-ok', 30_000);
      await waitForUserText(chat, 'Use the new schema instead');
      assert.ok(mentions(lastChatRequest(model.requests), 'Use the new schema instead'), 'the steer text did not reach the model');
      await waitForIdle(chat);
      assert.equal(await chat.getByText('e2e-steer-leak').count(), 0);
    }),
  );

  it(
    'aborts a running turn, and the next turn runs clean',
    check(async () => {
      const { model } = env!;
      model.enqueue(
        { steps: [{ text: 'Starting a long job. ' }, { delayMs: 20_000, text: 'never e2e-abort-leak' }] },
        { steps: [{ text: 'Clean answer after the abort: e2e-after-abort.' }] },
      );
      const chat = sidebar();
      await sendPrompt(chat, 'Start a long job');
      await waitForAssistantText(chat, 'Starting a long job');
      await waitForRunning(chat);
      await abortRun(chat);
      await waitForIdle(chat, 15_000);
      await sendPrompt(chat, 'Are you still there?');
      await waitForAssistantText(chat, 'e2e-after-abort');
      await waitForIdle(chat);
      assert.equal(await chat.getByText('e2e-abort-leak').count(), 0);
      assert.equal(model.pending, 0);
    }),
  );

  let oldTranscript: string[] = [];
  it(
    'starts a new session, then reopens the old one from the session list with its transcript',
    check(async (t) => {
      const chat = sidebar();
      oldTranscript = await transcriptTexts(chat, TEST_IDS.userMessage);
      t.diagnostic(`the session's user messages: ${JSON.stringify(oldTranscript)}`);
      assert.ok(oldTranscript.includes(FIRST_PROMPT), `transcript: ${JSON.stringify(oldTranscript)}`);
      await testId(chat, TEST_IDS.newSessionButton).first().click();
      await waitUntil(async () => (await testId(chat, TEST_IDS.userMessage).count()) === 0, {
        timeoutMs: 15_000,
        what: 'an empty transcript in the new session',
      });
      await testId(chat, TEST_IDS.sessionsButton).first().click();
      const list = testId(chat, TEST_IDS.sessionList).first();
      await list.waitFor({ state: 'visible', timeout: 15_000 });
      const oldRow = testId(chat, TEST_IDS.sessionRow)
        .filter({ hasText: FIRST_PROMPT.slice(0, 24) })
        .first();
      await oldRow.waitFor({ state: 'visible', timeout: 15_000 });
      await oldRow.click();
      await waitForUserText(chat, oldTranscript[oldTranscript.length - 1], 15_000);
      assert.deepEqual(await transcriptTexts(chat, TEST_IDS.userMessage), oldTranscript);
      assert.ok((await transcriptTexts(chat, TEST_IDS.assistantMessage)).some((a) => a.includes('e2e-markdown-ok')));
    }),
  );

  it(
    'shows the same chat in an editor tab',
    check(async () => {
      const { page, model } = env!;
      await runCommand(page, 'Catalyst: Open Chat in Editor');
      const editor = env!.chat('editor');
      await waitForUserText(editor, oldTranscript[oldTranscript.length - 1], 60_000);
      assert.deepEqual(await transcriptTexts(editor, TEST_IDS.userMessage), await transcriptTexts(sidebar(), TEST_IDS.userMessage));
      assert.deepEqual(
        await transcriptTexts(editor, TEST_IDS.assistantMessage),
        await transcriptTexts(sidebar(), TEST_IDS.assistantMessage),
      );
      // One live state: a turn sent from the tab streams into the sidebar too.
      model.enqueue({ steps: [{ text: 'Answer seen in both places: e2e-shared-state.' }] });
      await sendPrompt(editor, 'Prompt from the editor tab');
      await waitForAssistantText(editor, 'e2e-shared-state');
      await waitForAssistantText(sidebar(), 'e2e-shared-state');
      await waitForIdle(editor);
    }),
  );

  it(
    'restarts the core killed mid-turn and continues the session',
    check(async () => {
      const { model } = env!;
      const [pid, ...others] = env!.corePids();
      assert.ok(pid, 'no core process found under code-server');
      assert.deepEqual(others, [], 'more than one core for one workspace folder');
      model.enqueue(
        { steps: [{ text: 'Long answer begins. ' }, { delayMs: 30_000, text: 'never e2e-crash-leak' }] },
        { steps: [{ text: 'Answer after the restart: e2e-after-restart.' }] },
      );
      const chat = sidebar();
      await sendPrompt(chat, 'A long task before the crash');
      await waitForAssistantText(chat, 'Long answer begins');
      process.kill(pid, 'SIGKILL');
      const restarted = await waitUntil(() => env!.corePids().find((p) => p !== pid), { timeoutMs: 60_000, what: 'a new core process' });
      // The user is told, once.
      const told = testId(chat, TEST_IDS.notice).filter({ hasText: /restart/i });
      await told.first().waitFor({ state: 'visible', timeout: 30_000 });
      await waitForIdle(chat, 30_000);
      // Neither the notice nor the ended run means the new core is ready: the header's status after the notice does.
      await waitForCoreReady(chat, 60_000);
      await sendPrompt(chat, 'Are you back?');
      await waitForAssistantText(chat, 'e2e-after-restart', 60_000);
      assert.deepEqual(env!.corePids(), [restarted]);
      // The new core resumed the session file: the model sees the conversation from before the crash.
      const request = lastChatRequest(model.requests);
      assert.ok(
        mentions(request, FIRST_PROMPT) && mentions(request, 'A long task before the crash'),
        'the session did not continue after the restart',
      );
      const users = await transcriptTexts(chat, TEST_IDS.userMessage);
      assert.equal(
        users.filter((u) => u === 'A long task before the crash').length,
        1,
        `duplicated or lost message: ${JSON.stringify(users)}`,
      );
      assert.ok(users.includes(FIRST_PROMPT), `the transcript lost the session's start: ${JSON.stringify(users)}`);
      assert.equal(await chat.getByText('e2e-crash-leak').count(), 0);
      assert.equal(await told.count(), 1, 'the restart was announced more than once');
    }),
  );

  it(
    'keeps the key typed at log-in out of the logs, the webview state and the session files',
    check(async () => {
      const { page, workbench, home, configDir, root } = env!;
      // A reload makes the workbench flush its browser-side state (webview state included) the way closing a window does.
      await page.reload();
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90_000 });
      const stored = await dumpBrowserStorage(page);
      // VS Code for the web keeps workbench and webview state in the browser; desktop keeps it in userDataDir (scanned below).
      if (workbench.kind === 'code-server') {
        assert.ok(
          stored.some((s) => s.includes('webviewView.catalystCode.chatView')),
          "the chat view's webview state is not where this check looks",
        );
      }
      assert.deepEqual(
        stored.filter((s) => s.includes(API_KEY)),
        [],
        'the key is in the browser storage (webview or workbench state)',
      );
      await workbench.close();

      const sessionFiles = filesUnder(join(configDir, 'sessions')).filter((f) => f.endsWith('.jsonl'));
      assert.ok(
        sessionFiles.some((f) => readFileSync(f, 'utf8').includes(FIRST_PROMPT)),
        'no session file holds the conversation',
      );
      const ourLogs = filesUnder(workbench.logsDir).filter((f) => /catalyst/i.test(relative(workbench.logsDir, f)));
      assert.ok(ourLogs.length > 0, `no log of our output channel under ${workbench.logsDir}`);
      const leaks = [
        ...filesContaining(workbench.userDataDir, API_KEY),
        ...(workbench.browserProfileDir ? filesContaining(workbench.browserProfileDir, API_KEY) : []),
        ...filesContaining(home, API_KEY),
        ...filesContaining(root, API_KEY, {
          skip: (p) =>
            p.startsWith(home) ||
            p.startsWith(workbench.userDataDir) ||
            (workbench.browserProfileDir !== undefined && p.startsWith(workbench.browserProfileDir)),
        }),
      ];
      assert.deepEqual(
        [...new Set(leaks)].map((f) => relative(root, f)),
        [],
        'files holding the typed key',
      );
    }),
  );
});

function lastChatRequest(requests: RecordedRequest[]): RecordedRequest {
  const posts = requests.filter((r) => r.method === 'POST' && r.path.includes('/chat/completions'));
  assert.ok(posts.length > 0, 'the model server got no chat request');
  return posts[posts.length - 1];
}

function mentions(request: RecordedRequest, text: string): boolean {
  return JSON.stringify(request.body?.messages ?? []).includes(text);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile()) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

/** The picker lists the models either inline (a select) or when clicked (a menu in the webview, or a VS Code quick pick). */
async function assertPickerOffers(
  page: Page,
  chat: FrameLocator,
  picker: ReturnType<FrameLocator['locator']>,
  ids: string[],
): Promise<void> {
  const inline = await picker.evaluate((el: any) => {
    const texts = [el.textContent ?? '', el.value ?? ''];
    for (const o of Array.from(el.querySelectorAll?.('option, vscode-option') ?? []) as any[])
      texts.push(o.value ?? '', o.textContent ?? '');
    for (const o of Array.from(el.options ?? []) as any[]) texts.push(o.value ?? '', o.text ?? '');
    return texts.join('\n');
  });
  if (ids.every((id) => inline.includes(id))) return;
  await picker.click();
  const missing: string[] = [];
  for (const id of ids) {
    const inWebview = chat.getByText(id, { exact: false }).first();
    const inQuickPick = quickPickRow(page, id, false);
    const shown = await Promise.any([
      inWebview.waitFor({ state: 'visible', timeout: 10_000 }),
      inQuickPick.waitFor({ state: 'visible', timeout: 10_000 }),
    ]).then(
      () => true,
      () => false,
    );
    if (!shown) missing.push(id);
  }
  await page.keyboard.press('Escape');
  assert.deepEqual(missing, [], `the model picker does not offer ${missing.join(', ')} (it shows: ${inline.trim().slice(0, 200)})`);
}

// Issue #11: Log In → Custom OpenAI-compatible endpoint with the key box left empty, pointing at a local server.
describe('a keyless local endpoint in code-server (issue #11)', { timeout: 600_000 }, () => {
  let env: E2eEnv | undefined;
  const check = withArtifacts(() => env);
  const sidebar = () => env!.chat('sidebar');
  const LOCAL_MODEL = 'local-e2e-model';

  before(async () => {
    env = await startE2eEnv({ models: [LOCAL_MODEL] });
  });
  after(async () => {
    await env?.close();
  });

  it(
    'shows the welcome (log in) before any provider is configured',
    check(async () => {
      await runCommand(env!.page, 'Catalyst: Open Chat');
      await testId(sidebar(), TEST_IDS.welcome).first().waitFor({ state: 'visible', timeout: 90_000 });
    }),
  );

  it(
    'logs in with the key left empty: the core lists the models without an Authorization header and the welcome goes',
    check(async (t) => {
      const { page, model } = env!;
      const asked = await logInToCustomEndpoint(page, { name: 'ollama', baseUrl: model.url, apiKey: '' });
      t.diagnostic(`input boxes: ${JSON.stringify(asked)}`);
      assert.ok(
        asked.some((p) => /key/i.test(p)),
        `the key box was not shown: ${JSON.stringify(asked)}`,
      );
      await waitUntil(() => model.requests.some((r) => r.method === 'GET' && r.path.includes('/models')), {
        timeoutMs: 30_000,
        what: 'GET /models from the core',
      });
      const listings = model.requests.filter((r) => r.method === 'GET' && r.path.includes('/models'));
      assert.deepEqual(
        listings.map((r) => r.headers.authorization),
        listings.map(() => undefined),
        'a keyless provider sent an Authorization header',
      );
      const chat = sidebar();
      await testId(chat, TEST_IDS.welcome).first().waitFor({ state: 'hidden', timeout: 30_000 });
      const picker = testId(chat, TEST_IDS.modelPicker).first();
      await picker.waitFor({ state: 'visible', timeout: 30_000 });
      await assertPickerOffers(page, chat, picker, [LOCAL_MODEL]);
    }),
  );

  it(
    'sends a prompt and the reply streams in',
    check(async () => {
      const { model } = env!;
      model.enqueue({
        steps: [{ text: 'Local answer begins. ' }, { delayMs: 1500, text: 'Local answer ends: e2e-keyless-ok.' }],
        chunkDelayMs: 5,
      });
      const chat = sidebar();
      await sendPrompt(chat, 'Hello, local model');
      await waitForUserText(chat, 'Hello, local model');
      const partial = await waitForAssistantText(chat, 'Local answer begins', 30_000);
      assert.equal(await partial.getByText('e2e-keyless-ok').count(), 0, 'the tail showed before the server sent it');
      await waitForAssistantText(chat, 'e2e-keyless-ok');
      await waitForIdle(chat);
      const request = lastChatRequest(model.requests);
      assert.equal(request.body.model, LOCAL_MODEL);
      assert.equal(request.headers.authorization, undefined, 'the chat request carried an Authorization header');
      assert.ok(mentions(request, 'Hello, local model'));
    }),
  );

  it(
    'neither stored nor sent an empty key: the extension log shows add_custom_provider and no set_key',
    check(async () => {
      const { workbench } = env!;
      await workbench.close(); // flushes the output channel's log file
      const ourLogs = filesUnder(workbench.logsDir).filter((f) => /catalyst/i.test(relative(workbench.logsDir, f)));
      const log = ourLogs.map((f) => readFileSync(f, 'utf8')).join('\n');
      assert.match(log, /→ add_custom_provider/, `the command log is not where this check looks (${ourLogs.length} files)`);
      assert.match(log, /configured provider ollama without a key/);
      assert.doesNotMatch(log, /→ set_key/);
    }),
  );
});

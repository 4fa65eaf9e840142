import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { TEST_IDS } from '../../../src/shared/webviewMessages';
import { settleAfterFailedCheck } from './approvals';
import { logInToCustomEndpoint, testId } from './chatActions';
import { byTestId } from './chatView';
import { modalDialog } from './dialogs';
import { startE2eEnv, withArtifacts, type E2eEnv, type E2eOptions } from './e2eEnv';
import { runCommand } from './quickInput';
import { waitUntil } from './wait';

/**
 * What a chat suite in code-server starts from: one launch for the `describe` it is called in (before / after hooks), the
 * scripted model listing one model, and the user's first steps against it. A new suite:
 *
 *     describe('my feature (issue #N)', { timeout: 600_000 }, () => {
 *       const suite = chatSuite({ files: { 'a.txt': 'alpha\n' } });
 *       const { check, chat } = suite;
 *       it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));
 *       it('…', check(async () => {
 *         await suite.settle();
 *         const { page, model } = suite.env();
 *         model.enqueue(…);
 *         await promptAgent(chat(), '…');
 *       }));
 *     });
 */
export interface ChatSuite {
  /** The launch; only inside a test (it is made in the `before` hook). */
  env(): E2eEnv;
  /** Wraps a test body so that a failure leaves a screenshot and the logs (see `withArtifacts`). */
  check: ReturnType<typeof withArtifacts>;
  /** Our chat webview in the side bar. */
  chat(): FrameLocator;
  /** The absolute path of `rel` in the workspace. */
  path(rel: string): string;
  /** The file's text on disk; undefined when there is none. */
  onDisk(rel: string): string | undefined;
  /** Waits until `rel` on disk reads `expected` (undefined: the file is gone); the failure says what it reads instead. */
  waitForDisk(rel: string, expected: string | undefined, timeoutMs?: number): Promise<void>;
  /** Opens the chat, logs in to the scripted endpoint with the suite's key, and waits for the model list and the composer. */
  openChatAndLogIn(): Promise<void>;
  /** Puts the session back to idle if an earlier check failed half-way (a run waiting on an approval, leftover script). */
  settle(): Promise<void>;
  /** The key the user types at login (random per suite, so a secret scan can look for it). */
  readonly apiKey: string;
}

export const E2E_MODEL = 'e2e-model';

/** Registers the launch's hooks in the calling `describe`; `options` go to `startE2eEnv` (the model list defaults to one). */
export function chatSuite(options: E2eOptions = {}): ChatSuite {
  let env: E2eEnv | undefined;
  const apiKey = `sk-e2e-${randomBytes(16).toString('hex')}`;
  before(async () => {
    env = await startE2eEnv({ models: [E2E_MODEL], ...options });
  });
  after(async () => {
    await env?.close();
  });

  const current = () => {
    if (!env) throw new Error('the e2e launch is not up (chatSuite is used outside a test, or its before hook failed)');
    return env;
  };
  const chat = () => current().chat('sidebar');
  const path = (rel: string) => join(current().workspace, rel);
  const onDisk = (rel: string) => (existsSync(path(rel)) ? readFileSync(path(rel), 'utf8') : undefined);

  return {
    env: current,
    check: withArtifacts(() => env),
    chat,
    path,
    onDisk,
    apiKey,

    async waitForDisk(rel, expected, timeoutMs = 20_000) {
      try {
        await waitUntil(() => onDisk(rel) === expected, {
          timeoutMs,
          what: `${rel} on disk to be ${expected === undefined ? 'gone' : JSON.stringify(expected)}`,
        });
      } catch (error) {
        const now = onDisk(rel);
        const modal = await modalDialog(current().page)
          .innerText({ timeout: 500 })
          .catch(() => undefined);
        throw new Error(
          `${(error as Error).message}; it is ${now === undefined ? 'missing' : JSON.stringify(now)}${modal ? `; a modal is open: ${modal}` : ''}`,
        );
      }
    },

    async openChatAndLogIn() {
      const { page, model } = current();
      await runCommand(page, 'Catalyst: Open Chat');
      await chat()
        .locator(`${byTestId(TEST_IDS.composer)}, ${byTestId(TEST_IDS.welcome)}`)
        .first()
        .waitFor({ state: 'visible', timeout: 90_000 });
      await logInToCustomEndpoint(page, { name: 'scripted', baseUrl: model.url, apiKey });
      await waitUntil(() => model.requests.some((r) => r.method === 'GET' && r.path.includes('/models') && r.apiKey === apiKey), {
        timeoutMs: 30_000,
        what: 'GET /models with the typed key',
      });
      await testId(chat(), TEST_IDS.composer).first().waitFor({ state: 'visible', timeout: 30_000 });
    },

    async settle() {
      const { page, model } = current();
      await settleAfterFailedCheck(page, chat(), model);
    },
  };
}

// The harness itself: code-server starts with our extension folder, Chromium loads the workbench, the palette runs
// commands, and the extension is installed (and its commands listed once the manifest contributes them).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startE2eEnv, withArtifacts, type E2eEnv } from './harness/e2eEnv';
import { paletteHasCommand, runCommand } from './harness/quickInput';
import { waitUntil } from './harness/wait';

describe('workbench harness', { timeout: 300_000 }, () => {
  let env: E2eEnv | undefined;
  const check = withArtifacts(() => env);
  before(async () => {
    env = await startE2eEnv({ files: { 'README.md': '# e2e workspace\n' } });
  });
  after(async () => {
    await env?.close();
  });

  it(
    'loads the workbench on the fresh workspace',
    check(async () => {
      const { page } = env!;
      await page.locator('.monaco-workbench .explorer-folders-view, .monaco-workbench .part.sidebar').first().waitFor({ timeout: 30_000 });
      assert.match(await page.title(), /workspace/i);
    }),
  );

  it(
    'runs a built-in command from the palette',
    check(async () => {
      const { page } = env!;
      await runCommand(page, 'File: New Untitled Text File');
      await page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).waitFor({ timeout: 30_000 });
    }),
  );

  it(
    'activates our extension: its commands are in the palette and its status bar item shows',
    check(async () => {
      const { page } = env!;
      await runCommand(page, 'View: Close All Editors'); // any command: proves the palette works before asking for ours
      await waitUntil(() => paletteHasCommand(page, 'Catalyst: Open Chat'), {
        timeoutMs: 60_000,
        intervalMs: 500,
        what: 'the "Catalyst: Open Chat" command in the palette',
      });
      await page
        .locator('.part.statusbar .statusbar-item', { hasText: /Catalyst/ })
        .first()
        .waitFor({ timeout: 30_000 });
    }),
  );

  it(
    'lists our extension as installed',
    check(async () => {
      const { page } = env!;
      await runCommand(page, 'Extensions: Show Installed Extensions');
      await page.locator('.extensions-viewlet .extension-list-item', { hasText: 'Catalyst Code' }).first().waitFor({ timeout: 60_000 });
    }),
  );
});

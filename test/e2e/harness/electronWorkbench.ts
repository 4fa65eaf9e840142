import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import { BASE_SETTINGS } from './codeServer';
import { KEEP_NAMES_SHIM, waitForWorkbench } from './browser';
import { REPO_ROOT } from './paths';
import type { Workbench, WorkbenchOptions } from './workbench';

/**
 * Desktop VS Code (downloaded by test/e2e/electron/runElectron.mjs) driven by Playwright's Electron support, the way VS Code's
 * own smoke tests drive it. Not exercised on machines that cannot download VS Code.
 */
export async function launchElectronWorkbench(executablePath: string, opts: WorkbenchOptions): Promise<Workbench> {
  const userDataDir = join(opts.runDir, 'user-data');
  const extensionsDir = join(opts.runDir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...opts.settings }, null, 2));
  const output: string[] = [];
  const app = await _electron.launch({
    executablePath,
    args: [
      ...(opts.withoutExtension ? [] : [`--extensionDevelopmentPath=${REPO_ROOT}`]),
      `--user-data-dir=${userDataDir}`,
      `--extensions-dir=${extensionsDir}`,
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--disable-telemetry',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-updates',
      '--new-window',
      opts.workspace,
    ],
    env: {
      ...(process.env as Record<string, string>),
      HOME: opts.home,
      XDG_CONFIG_HOME: join(opts.home, '.config'),
      ...opts.env,
    },
    cwd: opts.workspace,
    timeout: 90_000,
  });
  app.process().stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  app.process().stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  await app.context().addInitScript({ content: KEEP_NAMES_SHIM });
  const page = await app.firstWindow();
  await page.setViewportSize({ width: 1600, height: 1000 }).catch(() => undefined);
  await waitForWorkbench(page);
  return {
    kind: 'electron',
    page,
    rootPid: app.process().pid!,
    userDataDir,
    logsDir: join(userDataDir, 'logs'),
    serverLog: () => output.join(''),
    close: () => app.close(),
  };
}

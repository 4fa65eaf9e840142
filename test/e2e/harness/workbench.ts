import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, openWorkbench } from './browser';
import { startCodeServer } from './codeServer';
import { launchElectronWorkbench } from './electronWorkbench';

/** A running VS Code (code-server + Chromium, or desktop Electron) showing a workspace, driven through `page`. */
export interface Workbench {
  kind: 'code-server' | 'electron';
  page: Page;
  /** The process whose descendants include the extension host and the core. */
  rootPid: number;
  userDataDir: string;
  logsDir: string;
  /** Browser-side storage (Chromium profile); undefined when it lives in userDataDir (Electron). */
  browserProfileDir?: string;
  serverLog(): string;
  close(): Promise<void>;
}

export interface WorkbenchOptions {
  runDir: string;
  workspace: string;
  home: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  chromiumArgs?: string[];
  /** VS Code without this extension (a baseline for the benches). */
  withoutExtension?: boolean;
}

/** Electron when CATALYST_E2E_VSCODE_EXECUTABLE names a downloaded VS Code (test/e2e/electron/), else code-server. */
export async function launchWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const executable = process.env.CATALYST_E2E_VSCODE_EXECUTABLE;
  if (executable) return launchElectronWorkbench(executable, opts);
  return launchCodeServerWorkbench(opts);
}

async function launchCodeServerWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const server = await startCodeServer(opts);
  const profileDir = join(opts.runDir, 'chromium-profile');
  mkdirSync(profileDir, { recursive: true });
  let browser;
  try {
    browser = await launchBrowser(profileDir, opts.chromiumArgs);
    await openWorkbench(browser.page, server.url, opts.workspace);
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw error;
  }
  const opened = browser;
  return {
    kind: 'code-server',
    page: opened.page,
    rootPid: server.pid,
    userDataDir: server.userDataDir,
    logsDir: server.logsDir,
    browserProfileDir: profileDir,
    serverLog: server.log,
    async close() {
      await opened.close().catch(() => undefined);
      await server.stop();
    },
  };
}

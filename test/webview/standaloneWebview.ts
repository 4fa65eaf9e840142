// The chat webview bundle in a plain Chromium page, without VS Code: webview/main.ts with the dev host stand-in
// (webview/dev/devHost.ts) for acquireVsCodeApi, the real styles and codicons, and the dev theme's --vscode-* variables.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { SessionState } from '../../src/shared/sessionState';
import type { HostToWebview, ViewContext } from '../../src/shared/webviewMessages';
import { REPO_ROOT } from '../e2e/harness/paths';

export interface StandaloneWebview {
  /** Loads the page and waits for the webview's `ready`. */
  open(page: Page, theme?: string): Promise<void>;
  /** Sends a host snapshot, as the extension does after `ready`. */
  sendSnapshot(page: Page, state: SessionState, placement: ViewContext['placement']): Promise<void>;
  dispose(): void;
}

export async function buildStandaloneWebview(): Promise<StandaloneWebview> {
  const dir = mkdtempSync(join(tmpdir(), 'catalyst-webview-test-'));
  const fromRepo = (p: string) => join(REPO_ROOT, p);
  const common = { bundle: true, logLevel: 'warning' as const, legalComments: 'none' as const };
  const script = { ...common, platform: 'browser' as const, format: 'iife' as const, target: 'es2022' };
  await esbuild.build({ ...script, entryPoints: [fromRepo('webview/main.ts')], outfile: join(dir, 'webview.js') });
  await esbuild.build({ ...script, entryPoints: [fromRepo('webview/dev/devHost.ts')], outfile: join(dir, 'devHost.js') });
  await esbuild.build({ ...common, entryPoints: [fromRepo('webview/styles.css')], outfile: join(dir, 'webview.css') });
  mkdirSync(join(dir, 'codicons'));
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(fromRepo(`node_modules/@vscode/codicons/dist/${f}`), join(dir, 'codicons', f));
  copyFileSync(fromRepo('webview/dev/theme.css'), join(dir, 'theme.css'));
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="theme.css"><link rel="stylesheet" href="codicons/codicon.css"><link rel="stylesheet" href="webview.css">
</head><body class="vscode-dark"><div id="app"></div><script src="devHost.js"></script><script src="webview.js"></script></body></html>`);
  const url = pathToFileURL(join(dir, 'index.html')).href;

  return {
    async open(page, theme = 'vscode-dark') {
      await page.goto(url);
      await page.evaluate((t) => ((globalThis as any).document.body.className = t), theme);
      await page.waitForFunction(() => (globalThis as any).__posted.some((m: { type: string }) => m.type === 'ready'));
    },
    async sendSnapshot(page, state, placement) {
      const message: HostToWebview = { type: 'snapshot', seq: 1, state, view: { placement, slashCommands: [] } };
      await page.evaluate((m) => (globalThis as any).__host.send(m), message);
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

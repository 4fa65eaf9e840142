import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from './paths';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * tsx compiles this code with esbuild's keepNames, which wraps functions declared inside `evaluate` callbacks in a
 * `__name(fn, "name")` helper that only exists in Node. Every frame gets a no-op one.
 */
export const KEEP_NAMES_SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Chromium's profile: the workbench's browser-side storage (IndexedDB, localStorage) lives here. */
  profileDir: string;
  close(): Promise<void>;
}

/** Debian's Chromium with a profile of our own, so a test can inspect what the workbench stored in the browser. */
export async function launchBrowser(profileDir: string, extraArgs: string[] = []): Promise<BrowserSession> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1600, height: 1000 },
  });
  await context.addInitScript({ content: KEEP_NAMES_SHIM });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, profileDir, close: () => context.close() };
}

/** Opens the workbench on `folder` and waits until it can take commands. */
export async function openWorkbench(page: Page, serverUrl: string, folder: string): Promise<void> {
  await page.goto(`${serverUrl}/?folder=${encodeURIComponent(folder)}`);
  await waitForWorkbench(page);
}

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
  await page.locator('.monaco-workbench .part.activitybar, .monaco-workbench .part.sidebar').first().waitFor({ timeout: 30_000 });
}

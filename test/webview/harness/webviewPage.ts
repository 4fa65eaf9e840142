// One chat webview in a Chromium page, driven the way the extension drives it: host messages of the real union in
// (a snapshot, then patches with consecutive seq), the webview's posted messages out (recorded as they are posted).
// Everything that goes wrong in the page — a CSP violation, a console error or warning, an uncaught error, a request
// that fails — is a `problem`; the suites assert there are none after every test.
import { chromium, type Browser, type Page } from 'playwright-core';
import type { SessionState } from '../../../src/shared/sessionState';
import type { Patch } from '../../../src/shared/statePatch';
import type { HostToWebview, ViewContext, WebviewToHost } from '../../../src/shared/webviewMessages';
import { CHROMIUM_ARGS, KEEP_NAMES_SHIM } from '../../e2e/harness/browser';
import { CHROMIUM } from '../../e2e/harness/paths';
import { buildWebviewBundle, serveWebview, type WebviewBundle, type WebviewServer } from './webviewServer';

export type Theme = 'vscode-dark' | 'vscode-light' | 'vscode-high-contrast';
/** How long a posted message may take before the wait fails (Playwright's locator waits have the same kind of bound). */
const POSTED_TIMEOUT_MS = 15_000;

export type PostedOf<K extends WebviewToHost['type']> = Extract<WebviewToHost, { type: K }>;

export const SIDEBAR_VIEW: ViewContext = {
  placement: 'sidebar',
  slashCommands: [
    { name: 'compact', description: 'Summarize older turns' },
    { name: 'clear', description: 'Clear the transcript' },
    { name: 'model', description: 'Pick a model', args: '<id>' },
    { name: 'sessions', description: 'Switch sessions' },
    { name: 'undo', description: 'Undo the last turn' },
    { name: 'steer', description: 'Redirect the running turn', args: '<text>' },
  ],
};

export interface OpenOptions {
  viewport?: { width: number; height: number };
  theme?: Theme;
  /** Scripts that run before the bundle, after the VS Code API stand-in (counters, probes). */
  initScripts?: string[];
  /** Which webview's page (and bundle) to load: the chat's by default, or the Goal Control Center's. */
  placement?: ViewContext['placement'];
}

/** Runs in the page before anything else: reports CSP violations, applies the theme as VS Code does (body class + variables). */
function pageSetupScript(themeCss: string, theme: Theme): string {
  return `
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__catalystProblem(\`CSP violation: \${e.violatedDirective} blocked \${e.blockedURI || '(inline)'} at \${e.sourceFile}:\${e.lineNumber}\`));
    const themeSheet = new CSSStyleSheet();
    themeSheet.replaceSync(${JSON.stringify(themeCss)});
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, themeSheet];
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      document.body.className = ${JSON.stringify(theme)};
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  `;
}

export class WebviewPage {
  /** Every message the webview posted, in order. */
  readonly posted: WebviewToHost[] = [];
  readonly problems: string[] = [];
  private readCursor = 0;
  private seq = 0;
  private readonly waiters = new Set<() => void>();
  private closed = false;

  private constructor(readonly page: Page) {}

  static async open(browser: Browser, server: WebviewServer, bundle: WebviewBundle, options: OpenOptions = {}): Promise<WebviewPage> {
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 420, height: 800 } });
    const view = new WebviewPage(page);
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') view.problems.push(`console ${m.type()}: ${m.text()} (${m.location().url})`);
    });
    page.on('close', () => view.wakeAll());
    page.on('pageerror', (e) => view.problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => view.problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) view.problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    await page.exposeBinding('__catalystPosted', (_source, message: WebviewToHost) => view.onPosted(message));
    await page.exposeBinding('__catalystProblem', (_source, problem: string) => view.problems.push(problem));
    await page.addInitScript({ content: KEEP_NAMES_SHIM });
    await page.addInitScript({ content: pageSetupScript(bundle.themeCss, options.theme ?? 'vscode-dark') });
    await page.addInitScript({ content: bundle.vscodeApiStandIn });
    for (const script of options.initScripts ?? []) await page.addInitScript({ content: script });
    await page.goto(server.urlOf(options.placement ?? 'sidebar'));
    await view.nextPosted('ready', 30_000);
    return view;
  }

  /** A host message, as the extension's postMessage delivers it. */
  async send(message: HostToWebview): Promise<void> {
    await this.page.evaluate((m) => (globalThis as any).__host.send(m), message);
  }

  /** A fresh snapshot: the sequence starts again from its seq. */
  async snapshot(state: SessionState, view: ViewContext = SIDEBAR_VIEW): Promise<void> {
    await this.send({ type: 'snapshot', seq: ++this.seq, state, view });
  }

  /** One batch of patches with the next sequence number. */
  async patch(...patches: Patch[]): Promise<void> {
    await this.send({ type: 'patches', seq: ++this.seq, patches });
  }

  /**
   * Waits for the next message of `type` the webview posts and returns everything posted since the last read up to
   * it: a test that expects nothing else in between deep-equals the result with [that message].
   */
  async postedUntil<K extends WebviewToHost['type']>(type: K, timeoutMs = POSTED_TIMEOUT_MS): Promise<WebviewToHost[]> {
    const at = await this.waitFor(
      () => this.posted.findIndex((m, i) => i >= this.readCursor && m.type === type),
      timeoutMs,
      `a posted "${type}"`,
    );
    const read = this.posted.slice(this.readCursor, at + 1);
    this.readCursor = at + 1;
    return read;
  }

  /** The next message of `type`, whatever else came before it. */
  async nextPosted<K extends WebviewToHost['type']>(type: K, timeoutMs?: number): Promise<PostedOf<K>> {
    const read = await this.postedUntil(type, timeoutMs);
    return read[read.length - 1] as PostedOf<K>;
  }

  /** Marks everything posted so far as read. */
  skipPosted(): void {
    this.readCursor = this.posted.length;
  }

  async setTheme(theme: Theme): Promise<void> {
    await this.page.evaluate((t) => ((globalThis as any).document.body.className = t), theme);
  }

  async close(): Promise<void> {
    this.wakeAll();
    await this.page.close();
  }

  private wakeAll(): void {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
  }

  private onPosted(message: WebviewToHost): void {
    this.posted.push(message);
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves with `find()` once it is ≥ 0: re-checked on every posted message, never on a timer. */
  private waitFor(find: () => number, timeoutMs: number, what: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        this.waiters.delete(check);
        clearTimeout(timer);
        reject(new Error(`${why} waiting for ${what}; unread: ${JSON.stringify(this.posted.slice(this.readCursor))}`));
      };
      // Not a wait for time: the bound after which a missing message is reported, like a locator's timeout.
      const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs);
      const check = () => {
        if (this.closed || this.page.isClosed()) {
          fail('the page closed');
          return;
        }
        const at = find();
        if (at < 0) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(at);
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** One Chromium, one server and one bundle for a test file; a page per view under test. */
export interface WebviewHarness {
  readonly browser: Browser;
  readonly server: WebviewServer;
  readonly bundle: WebviewBundle;
  open(options?: OpenOptions): Promise<WebviewPage>;
  close(): Promise<void>;
}

export async function startWebviewHarness(options: { minify?: boolean; chromiumArgs?: string[] } = {}): Promise<WebviewHarness> {
  const bundle = await buildWebviewBundle({ minify: options.minify });
  const server = await serveWebview(bundle);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.chromiumArgs ?? [])],
  });
  return {
    browser,
    server,
    bundle,
    open: (openOptions) => WebviewPage.open(browser, server, bundle, openOptions),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

// The chat webview as VS Code serves it, minus VS Code: the real HTML shell (chatWebviewShell: its CSP, its one nonce'd
// script, its stylesheets) over HTTP on 127.0.0.1, so `cspSource` is a real origin and Chromium enforces the CSP; the
// bundles built by esbuild from webview/main.ts (the chat), webview/controlCenterMain.ts (the Goal Control Center),
// webview/highlighterMain.ts (loaded on the first code block) and webview/styles.css, as scripts/build.mjs builds dist/.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chatWebviewShell, webviewScriptFor } from '../../../src/client/chatView/webviewHtml';
import { REPO_ROOT } from '../../e2e/harness/paths';
import type { ViewContext } from '../../../src/shared/webviewMessages';

const fromRepo = (p: string) => join(REPO_ROOT, p);

interface ServedFile {
  contentType: string;
  body: Buffer | string;
}

export interface WebviewBundle {
  /** What the extension ships in dist/ for the webview, by path below the bundle root. */
  files: ReadonlyMap<string, ServedFile>;
  /** webview/dev/devHost.ts as a classic script: the acquireVsCodeApi stand-in, for Page.addInitScript. */
  vscodeApiStandIn: string;
  /** webview/dev/theme.css: a subset of the --vscode-* variables VS Code injects, per body theme class. */
  themeCss: string;
}

const BROWSER_SCRIPT = {
  bundle: true,
  write: false,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  logLevel: 'warning',
  legalComments: 'none',
} as const;

async function bundleScript(entry: string, minify: boolean): Promise<string> {
  const result = await esbuild.build({ ...BROWSER_SCRIPT, minify, entryPoints: [fromRepo(entry)], outfile: 'out.js' });
  return result.outputFiles[0].text;
}

async function bundleCss(entry: string): Promise<string> {
  const result = await esbuild.build({
    bundle: true,
    write: false,
    logLevel: 'warning',
    legalComments: 'none',
    entryPoints: [fromRepo(entry)],
    outfile: 'out.css',
  });
  return result.outputFiles[0].text;
}

/** Builds the webview bundles from source (`minify` as in the shipped build; off by default for readable stack traces). */
export async function buildWebviewBundle(options: { minify?: boolean } = {}): Promise<WebviewBundle> {
  const [script, controlCenterScript, highlighterScript, css, vscodeApiStandIn] = await Promise.all([
    bundleScript('webview/main.ts', options.minify ?? false),
    bundleScript('webview/controlCenterMain.ts', options.minify ?? false),
    bundleScript('webview/highlighterMain.ts', options.minify ?? false),
    bundleCss('webview/styles.css'),
    bundleScript('webview/dev/devHost.ts', false),
  ]);
  const codicon = (file: string) => readFileSync(fromRepo(`node_modules/@vscode/codicons/dist/${file}`));
  const files = new Map<string, ServedFile>([
    ['webview.js', { contentType: 'text/javascript', body: script }],
    ['controlCenter.js', { contentType: 'text/javascript', body: controlCenterScript }],
    ['highlighter.js', { contentType: 'text/javascript', body: highlighterScript }],
    ['webview.css', { contentType: 'text/css', body: css }],
    ['codicons/codicon.css', { contentType: 'text/css', body: codicon('codicon.css') }],
    ['codicons/codicon.ttf', { contentType: 'font/ttf', body: codicon('codicon.ttf') }],
  ]);
  return { files, vscodeApiStandIn, themeCss: readFileSync(fromRepo('webview/dev/theme.css'), 'utf8') };
}

export interface WebviewServer {
  /** http://127.0.0.1:<port>: the webview's `cspSource`. */
  origin: string;
  /** The chat's page: a fresh nonce per load, as the extension makes one per HTML load. */
  url: string;
  /** The page of a placement: the shell with that placement's bundle (the Control Center has its own). */
  urlOf(placement: Placement): string;
  close(): Promise<void>;
}

type Placement = ViewContext['placement'];
const SHELL_PATH = '/index.html';
const shellPath = (placement: Placement) => (placement === 'controlCenter' ? '/controlCenter.html' : SHELL_PATH);

/** The real shell for a webview whose resources are served by `origin` (what asWebviewUri gives in VS Code). */
function shellHtml(origin: string, placement: Placement): string {
  const webview = { cspSource: origin, asWebviewUri: (path: string) => `${origin}/${path}` };
  const join = (base: string, ...segments: string[]) => [base, ...segments].filter(Boolean).join('/');
  return chatWebviewShell(webview, '', join, { script: webviewScriptFor(placement) }).html;
}

export async function serveWebview(bundle: WebviewBundle): Promise<WebviewServer> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    // A top-level page asks for one; a webview (an iframe in VS Code) does not.
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const shellOf: Placement | undefined =
      path === SHELL_PATH ? 'sidebar' : path === shellPath('controlCenter') ? 'controlCenter' : undefined;
    const file: ServedFile | undefined = shellOf
      ? { contentType: 'text/html', body: shellHtml(origin, shellOf) }
      : bundle.files.get(path.slice(1));
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the webview server has no TCP address');
  origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    url: `${origin}${SHELL_PATH}`,
    urlOf: (placement) => `${origin}${shellPath(placement)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { randomBytes } from 'node:crypto';
import type { ViewContext } from '../../shared/webviewMessages';

/** What the chat webview's HTML shell needs: every URI already converted with `webview.asWebviewUri`. */
export interface WebviewShellOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUris: string[];
  title: string;
}

/** The part of a VS Code webview the shell needs (vscode.Webview has it; tests pass plain paths). */
export interface ShellWebview<U> {
  readonly cspSource: string;
  asWebviewUri(localResource: U): { toString(): string };
}

/** The options of every chat webview: scripts on (only the nonce'd bundle runs, see the CSP), local files only from the bundle. */
export function chatWebviewOptions<U>(bundleRoot: U): { enableScripts: true; localResourceRoots: U[] } {
  return { enableScripts: true, localResourceRoots: [bundleRoot] };
}

/**
 * The script bundle (in dist/) of a webview by its placement: the Goal Control Center has its own, so the chat's bundle,
 * which every window loads, does not carry it.
 */
export function webviewScriptFor(placement: ViewContext['placement']): string {
  return placement === 'controlCenter' ? 'controlCenter.js' : 'webview.js';
}

/**
 * A chat webview's options and HTML shell, every resource it loads taken from `bundleRoot` (the extension's dist/).
 * Generic over the URI type so that it stays free of `vscode`. `script` defaults to the chat's bundle.
 */
export function chatWebviewShell<U>(
  webview: ShellWebview<U>,
  bundleRoot: U,
  joinPath: (base: U, ...segments: string[]) => U,
  { nonce = createNonce(), script = 'webview.js' }: { nonce?: string; script?: string } = {},
): { options: { enableScripts: true; localResourceRoots: U[] }; html: string } {
  const bundled = (...segments: string[]) => webview.asWebviewUri(joinPath(bundleRoot, ...segments)).toString();
  const html = buildWebviewHtml({
    cspSource: webview.cspSource,
    nonce,
    scriptUri: bundled(script),
    styleUris: [bundled('codicons', 'codicon.css'), bundled('webview.css')],
    title: 'Catalyst Code',
  });
  return { options: chatWebviewOptions(bundleRoot), html };
}

/** A fresh nonce per HTML load: 128 random bits, base64 without padding characters that need escaping. */
export function createNonce(): string {
  return randomBytes(16)
    .toString('base64')
    .replace(/[+/=]/g, (c) => ({ '+': '-', '/': '_', '=': '' })[c] ?? '');
}

/**
 * The CSP of the chat (BRIEF §5): nothing by default, scripts only with the nonce (no inline, no eval), styles and fonts
 * only from the extension's bundle, images from the bundle or data: URLs (pasted images, thumbnails). `base-uri` and
 * `form-action` do not fall back to default-src, so they are closed explicitly: an injected <base> or <form> gets nowhere.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The chat's HTML shell: the CSP, the stylesheets, one nonce'd script and the `#app` mount point. */
export function buildWebviewHtml(o: WebviewShellOptions): string {
  const links = o.styleUris.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(o.cspSource, o.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${links}
    <title>${escapeText(o.title)}</title>
  </head>
  <body>
    <div id="app"></div>
    <script nonce="${escapeAttribute(o.nonce)}" src="${escapeAttribute(o.scriptUri)}"></script>
  </body>
</html>
`;
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

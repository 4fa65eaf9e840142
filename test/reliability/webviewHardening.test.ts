// The webview renders model output, so everything it sends is untrusted and everything it renders must be inert
// (BRIEF §5): hostile messages are rejected by validateWebviewMessage, file links cannot leave the workspace, hostile
// markdown renders to plain elements only, and the served HTML carries the CSP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { MAX_IMAGES, MAX_TEXT, validateWebviewMessage } from '../../src/shared/webviewMessages';
import { chatWebviewShell, createNonce, webviewScriptFor } from '../../src/client/chatView/webviewHtml';
import { resolveInsideWorkspace } from '../../src/client/workspacePaths';
import { fileLinkOf } from '../../webview/markdown/links';

const REPO = resolve(__dirname, '../..');

test('hostile webview messages are rejected: not objects, unknown or prototype commands, wrong field types, huge values', () => {
  const big = (n: number) => 'x'.repeat(n);
  const png = 'data:image/png;base64,iVBORw0KGgo=';
  const hostile: unknown[] = [
    null,
    undefined,
    'send',
    42,
    true,
    [],
    [{ type: 'send', text: 'hi', images: [] }],
    () => 'send',
    {},
    { type: 5 },
    { type: null },
    { type: ['send'] },
    { type: '' },
    { type: 'SEND', text: 'hi', images: [] },
    { type: 'exec', command: 'rm -rf /' },
    { type: 'runCommand' },
    { type: 'eval' },
    ...['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'].map((type) => ({ type })),
    { type: 'send', text: 5, images: [] },
    { type: 'send', text: '', images: [] },
    { type: 'send', text: 'hi' },
    { type: 'send', text: 'hi', images: 'x' },
    { type: 'send', text: big(MAX_TEXT + 1), images: [] },
    { type: 'send', text: 'hi', images: Array(MAX_IMAGES + 1).fill(png) },
    { type: 'send', text: 'hi', images: ['https://evil.example/track.png'] },
    { type: 'send', text: 'hi', images: ['data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+'] },
    { type: 'send', text: 'hi', images: ['data:text/html;base64,PHNjcmlwdD4='] },
    { type: 'send', text: 'hi', images: [`${png}"><script>`] },
    { type: 'steer', text: { toString: () => 'x' } },
    { type: 'approve', requestId: 'r1', decision: 'maybe' },
    { type: 'approve', requestId: big(301), decision: 'yes' },
    { type: 'approve', requestId: 'r1', decision: 'yes', pattern: '' },
    { type: 'approve', requestId: 'r1', decision: 'yes', pattern: big(4097) },
    { type: 'approve', requestId: 1, decision: 'yes' },
    { type: 'askReply', requestId: 'r', answers: ['a'] },
    { type: 'askReply', requestId: 'r', answers: { q: 1 } },
    { type: 'askReply', requestId: 'r', answers: { [big(301)]: 'a' } },
    { type: 'setModel', model: big(501) },
    { type: 'setReasoning', effort: big(51) },
    { type: 'setApprovalMode', mode: 'yolo' },
    { type: 'setApprovalMode', mode: 'NEVER' },
    { type: 'slash', name: 'Compact', args: '' },
    { type: 'slash', name: '../x', args: '' },
    { type: 'slash', name: 'a'.repeat(42), args: '' },
    { type: 'slash', name: 'compact', args: 5 },
    { type: 'slash', name: ['compact'], args: '' },
    { type: 'askReply', requestId: 'ask-1', answers: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, 'x'])) },
    { type: 'openSession', path: '' },
    { type: 'openSession', path: big(4097) },
    { type: 'renameSession', path: 'a.jsonl', title: big(201) },
    { type: 'pinSession', path: 'a.jsonl', pinned: 'true' },
    { type: 'deleteSession', path: 7 },
    { type: 'resync', lastSeq: -1 },
    { type: 'resync', lastSeq: 1.5 },
    { type: 'resync', lastSeq: Number.NaN },
    { type: 'resync', lastSeq: Infinity },
    { type: 'resync', lastSeq: '3' },
    { type: 'complete', requestId: 1, kind: 'exec', query: '' },
    { type: 'complete', requestId: -1, kind: 'file', query: '' },
    { type: 'complete', requestId: 1, kind: 'file', query: big(501) },
    { type: 'copy', text: big(MAX_TEXT + 1) },
    { type: 'insertAtCursor', text: null },
    { type: 'openFile', path: '' },
    { type: 'openFile', path: big(4097) },
    { type: 'openFile', path: 'a.ts', line: -1 },
    { type: 'openFile', path: 'a.ts', line: 1.5 },
    { type: 'openFile', path: 'a.ts', line: '3' },
    { type: 'openFile', path: ['a.ts'] },
    { type: 'action', action: 'runTerminalCommand' },
    { type: 'action', action: 'login', arg: big(4097) },
    { type: 'action', action: '__proto__' },
    { type: 'checkpointAction', id: 'cp\n1', action: 'restore' },
    { type: 'checkpointAction', id: 'cp1', action: 'rm' },
    { type: 'checkpointAction', id: big(201), action: 'restore' },
    { type: 'queueEdit', id: 'q', prompt: '' },
    { type: 'queueMove', id: 'q', beforeId: 5 },
    { type: 'queueRemove', id: '' },
    { type: 'queuePause', paused: 'yes' },
  ];
  for (const message of hostile) {
    assert.equal(validateWebviewMessage(message), undefined, `accepted: ${describe(message)}`);
  }
  // The same shapes, well-formed, pass: the rejections above are about the hostile parts.
  for (const message of [
    { type: 'send', text: 'hi', images: [png] },
    { type: 'approve', requestId: 'r1', decision: 'allow_pattern', pattern: 'src/**' },
    { type: 'openFile', path: 'src/a.ts', line: 3 },
    { type: 'slash', name: 'compact', args: '' },
    { type: 'resync', lastSeq: 0 },
    { type: 'checkpointAction', id: 'cp-1', action: 'restoreFiles' },
    { type: 'askReply', requestId: 'r', answers: { q: 'a' } },
  ]) {
    assert.deepEqual(validateWebviewMessage(message), message);
  }
});

test('a "__proto__" key in a webview message stays an own property and pollutes nothing', () => {
  const raw: unknown = JSON.parse(
    '{"type":"askReply","requestId":"r","answers":{"__proto__":{"polluted":"yes"},"q":"a"},"__proto__":{"polluted":"yes"}}',
  );
  const accepted = validateWebviewMessage(raw);
  assert.equal(accepted, undefined, 'an answer that is not a string is refused');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const extra = validateWebviewMessage(JSON.parse('{"type":"abort","__proto__":{"polluted":"yes"}}'));
  assert.ok(extra);
  assert.equal(Object.getPrototypeOf(extra), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('openFile is confined to the workspace by the host; file links in the chat never name a path outside it', () => {
  const root = '/work/space';
  for (const path of [
    '../x',
    '../../etc/passwd',
    '/etc/passwd',
    'a/../../x',
    'a\0b',
    '@../x',
    '"../x"',
    '/work/spacey/x',
    '/work/space/../other',
  ]) {
    assert.equal(resolveInsideWorkspace(path, root, [root]), undefined, path);
  }
  assert.equal(resolveInsideWorkspace('src/a.ts', root, [root]), '/work/space/src/a.ts');
  assert.equal(resolveInsideWorkspace('/work/space/src/a.ts', root, [root]), '/work/space/src/a.ts');

  for (const href of [
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vscode://file/etc/passwd',
    'command:workbench.action.terminal.new',
    '//evil.example/x',
    '\\\\server\\share\\x',
    'C:\\Windows\\win.ini',
    '%2e%2e/secret',
    '..%2fsecret',
    '%2Fetc%2Fpasswd',
    '%5C%5Cserver%5Cshare',
    'javascript%3Aalert(1)',
    'src/%00.ts',
    'a%0Ab.ts',
    '~/../x/../../etc/passwd',
  ]) {
    assert.equal(fileLinkOf(href), undefined, href);
  }
  assert.deepEqual(fileLinkOf('src/a.ts#L10'), { path: 'src/a.ts', line: 10 });
});

test('hostile markdown renders inert: only plain elements, no handlers, no script, style, frame or form, no dangerous URLs', async () => {
  // The webview modules need the DOM lib, which the tsconfig that checks test/ leaves out (webview/tsconfig.json
  // checks them), so the renderer is loaded by path at run time.
  type Highlighter = (code: string, lang: string) => string;
  const { renderMarkdown } = (await import(join(REPO, 'webview', 'markdown', 'markdownRenderer.ts'))) as {
    renderMarkdown(source: string, highlight?: Highlighter): string;
  };
  const { highlightCode } = (await import(join(REPO, 'webview', 'markdown', 'highlight.ts'))) as { highlightCode: Highlighter };
  const inputs = [
    '<script>alert(1)</script>',
    'text <img src=x onerror=alert(1)> more',
    '<svg onload=alert(1)><script>alert(1)</script></svg>',
    '<svg><use href="data:image/svg+xml;base64,PHN2ZyBpZD0neCcgb25sb2FkPSdhbGVydCgxKScvPg==#x"/></svg>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<style>body { display: none }</style>',
    '<div style="position:fixed;inset:0;background:url(https://evil.example/x)">cover</div>',
    '<a href="javascript:alert(1)">html link</a>',
    '<details open ontoggle=alert(1)>x</details>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="https://evil.example/">',
    '<object data="data:text/html,<script>alert(1)</script>"></object><embed src="x.swf">',
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    '<input autofocus onfocus=alert(1)>',
    '[md link](javascript:alert(1))',
    '[mixed case](JaVaScRiPt:alert(1))',
    '[entity](&#106;avascript:alert(1))',
    '[hex entity](&#x6A;avascript:alert(1))',
    '[tab](java\tscript:alert(1))',
    '[spaced]( javascript:alert(1))',
    '[data html](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[data svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
    '[vb](vbscript:msgbox(1))',
    '[file](file:///etc/passwd)',
    '<javascript:alert(1)>',
    '<data:text/html,alert(1)>',
    '[ref][1]\n\n[1]: javascript:alert(1)',
    '![image](javascript:alert(1))',
    '![svg](data:image/svg+xml,<svg onload=alert(1)>)',
    '[title](https://ok.example "a\\" onmouseover=\\"alert(1)")',
    '[<img src=x onerror=alert(1)>](https://ok.example)',
    '| a | b |\n|---|---|\n| <script>alert(1)</script> | <img src=x onerror=alert(1)> |',
    '```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n```',
    '```"><img src=x onerror=alert(1)>\ncode\n```',
    '```js onload=alert(1)\nlet a = 1;\n```',
    '    <script>indented code</script>',
    '`<script>inline code</script>`',
    '> <script>alert(1)</script>',
    'javascript:alert(1) as plain text, and www.example.com, and //evil.example/x',
    '<!-- <script>alert(1)</script> -->',
    '<![CDATA[<script>alert(1)</script>]]>',
    '\u0000<script>alert(1)</script>',
  ];
  for (const source of inputs) {
    for (const highlight of [highlightCode, undefined]) {
      const problems = inertProblems(renderMarkdown(source, highlight));
      assert.deepEqual(problems, [], `${JSON.stringify(source)} (${highlight ? 'highlighted' : 'plain'})`);
    }
  }
});

test('the served HTML carries the CSP: nothing by default, nonce-only scripts, resources only from the bundle', () => {
  const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
  const nonce = createNonce();
  const { html } = chatWebviewShell({ cspSource, asWebviewUri: (path: string) => `${cspSource}${path}` }, '/ext/dist', posix.join, {
    nonce,
  });
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? '';
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(head);
  assert.ok(meta, 'a CSP meta tag');
  assert.ok(head.indexOf(meta[0]) < head.search(/<link|<script/), 'the CSP comes before any resource it must govern');
  const csp = new Map(
    meta[1]
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  assert.deepEqual(
    csp.get('script-src'),
    [`'nonce-${nonce}'`],
    'scripts: the nonce only (no unsafe-inline, unsafe-eval, hosts or schemes)',
  );
  assert.deepEqual(csp.get('style-src'), [cspSource, `'nonce-${nonce}'`]);
  assert.deepEqual(csp.get('font-src'), [cspSource]);
  assert.deepEqual(csp.get('img-src'), [cspSource, 'data:']);
  assert.deepEqual(csp.get('base-uri'), ["'none'"]);
  assert.deepEqual(csp.get('form-action'), ["'none'"]);
  for (const name of ['connect-src', 'frame-src', 'child-src', 'worker-src', 'object-src', 'media-src', 'manifest-src']) {
    assert.equal(csp.has(name), false, `${name} falls back to default-src 'none'`);
  }
  assert.doesNotMatch(meta[1], /unsafe-|\*|https?:(?!\/\/file\+\.vscode-resource)|blob:|filesystem:/);

  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0][1], new RegExp(`nonce="${nonce}"`));
  assert.equal(scripts[0][2], '', 'no inline script body');
  for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g))
    assert.ok(url.startsWith(`${cspSource}/`), `${url} is served from the bundle`);
  assert.doesNotMatch(html, /\son[a-z]+=|style="/i, 'no inline handlers or styles in the shell');
});

test('webviews load local resources from the bundle only, and the bundle needs no eval', () => {
  // The shell the sidebar and the editor panel both get, built with plain paths for URIs.
  const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
  const bundleRoot = '/ext/dist';
  const webview = { cspSource, asWebviewUri: (path: string) => `${cspSource}${path}` };
  const { options, html } = chatWebviewShell(webview, bundleRoot, posix.join);
  assert.deepEqual(options, { enableScripts: true, localResourceRoots: [bundleRoot] }, 'one root, no command URIs, no port mapping');
  const loaded = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map(([, url]) => url);
  assert.equal(loaded.length, 3, 'the script and two stylesheets');
  for (const url of loaded) {
    assert.ok(url.startsWith(cspSource), `${url} is a webview resource URI`);
    const local = url.slice(cspSource.length);
    const root = options.localResourceRoots.find((r) => !posix.relative(r, local).startsWith('..'));
    assert.ok(root, `${local} lies inside a local resource root`);
    assert.ok(existsSync(join(REPO, 'dist', posix.relative(root, local))), `${local} is a file the build produces`);
  }
  for (const name of ['webview.js', 'controlCenter.js', 'highlighter.js']) {
    const bundle = join(REPO, 'dist', name);
    assert.ok(existsSync(bundle), `dist/${name} is built (npm run build)`);
    assert.doesNotMatch(readFileSync(bundle, 'utf8'), /\beval\(|new Function\(/, `the CSP forbids eval; ${name} must not need it`);
  }
});

test('highlight.js is only in the highlighter bundle, which the webviews load on their first code block', () => {
  // A text of highlight.js's core marks whether it is in a bundle.
  const marker = 'Could not find the language';
  assert.ok(readFileSync(join(REPO, 'dist', 'highlighter.js'), 'utf8').includes(marker), 'the marker is in the highlighter');
  for (const name of ['webview.js', 'controlCenter.js'])
    assert.ok(!readFileSync(join(REPO, 'dist', name), 'utf8').includes(marker), `and not in ${name}`);
});

test("the chat's bundle does not carry the Goal Control Center, which its panel loads as its own bundle", () => {
  // A text only the Control Center renders (webview/goal/controlCenter.ts) marks whether its code is in a bundle.
  const marker = 'The planner is writing the plan';
  assert.ok(readFileSync(join(REPO, 'dist', 'controlCenter.js'), 'utf8').includes(marker), 'the marker is in the Control Center');
  assert.ok(!readFileSync(join(REPO, 'dist', 'webview.js'), 'utf8').includes(marker), 'and not in the chat');
  assert.equal(webviewScriptFor('controlCenter'), 'controlCenter.js');
  for (const placement of ['sidebar', 'editor'] as const) assert.equal(webviewScriptFor(placement), 'webview.js');
});

const ALLOWED_TAGS = new Set([
  'p',
  'a',
  'em',
  'strong',
  's',
  'code',
  'pre',
  'div',
  'span',
  'button',
  'ul',
  'ol',
  'li',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ALLOWED_ATTRIBUTES = new Set([
  'href',
  'title',
  'class',
  'data-testid',
  'data-code-action',
  'data-lang',
  'type',
  'aria-label',
  'aria-hidden',
  'style',
  'start',
]);
const SAFE_HREF = /^(https?:|mailto:|ftp:|\/\/|#|[^:]*$)/i;

/**
 * Why the HTML is not inert, if it is not: every `<` must open or close an allowed tag (everything else is escaped
 * text), attributes are from a short list (no `on*`), styles only align table cells, and link targets, entity-decoded,
 * are web, mail or relative addresses.
 */
function inertProblems(html: string): string[] {
  const problems: string[] = [];
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-:]+(?:="[^"]*")?)*)\s*(\/?)>/g;
  const rest = html.replace(tag, (_whole, _close: string, name: string, attrs: string) => {
    if (!ALLOWED_TAGS.has(name.toLowerCase())) problems.push(`tag <${name}>`);
    for (const [, attr, value = ''] of attrs.matchAll(/([a-zA-Z-:]+)(?:="([^"]*)")?/g)) {
      const decoded = decodeEntities(value);
      if (!ALLOWED_ATTRIBUTES.has(attr.toLowerCase())) problems.push(`attribute ${attr} on <${name}>`);
      else if (attr === 'style' && !/^text-align:(left|right|center)$/.test(decoded)) problems.push(`style="${decoded}"`);
      else if (attr === 'href' && !SAFE_HREF.test(decoded.replace(/[\u0000-\u0020]/g, ''))) problems.push(`href="${decoded}"`);
    }
    return '';
  });
  if (rest.includes('<')) problems.push(`unparsed markup: ${rest.slice(rest.indexOf('<'), rest.indexOf('<') + 60)}`);
  return problems;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(
      /&(quot|apos|lt|gt|amp|colon|tab|newline);/g,
      (_, name: string) => ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&', colon: ':', tab: '\t', newline: '\n' })[name] ?? '',
    );
}

function describe(message: unknown): string {
  const text = typeof message === 'function' ? 'a function' : (JSON.stringify(message) ?? String(message));
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

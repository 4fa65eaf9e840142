import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWebviewHtml, contentSecurityPolicy, createNonce } from './webviewHtml';

const SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';
const opts = {
  cspSource: SOURCE,
  nonce: 'abc123',
  scriptUri: `${SOURCE}/ext/dist/webview.js`,
  styleUris: [`${SOURCE}/ext/dist/webview.css`, `${SOURCE}/ext/dist/codicons/codicon.css`],
  title: 'Catalyst Code',
};

describe('contentSecurityPolicy', () => {
  test('is exactly the brief’s policy', () => {
    assert.equal(
      contentSecurityPolicy(SOURCE, 'N'),
      `default-src 'none'; script-src 'nonce-N'; style-src ${SOURCE} 'nonce-N'; font-src ${SOURCE}; img-src ${SOURCE} data:; base-uri 'none'; form-action 'none'`,
    );
  });

  test('never allows inline or eval', () => {
    const csp = contentSecurityPolicy(SOURCE, 'N');
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });
});

describe('buildWebviewHtml', () => {
  const html = buildWebviewHtml(opts);

  test('has the CSP meta, both stylesheets, one nonce’d script and the mount point', () => {
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-abc123';/);
    assert.match(html, new RegExp(`<link rel="stylesheet" href="${escapeRe(opts.styleUris[0])}">`));
    assert.match(html, new RegExp(`<link rel="stylesheet" href="${escapeRe(opts.styleUris[1])}">`));
    assert.match(html, new RegExp(`<script nonce="abc123" src="${escapeRe(opts.scriptUri)}"></script>`));
    assert.match(html, /<body>\s*<div id="app"><\/div>/);
  });

  test('has no inline script or style', () => {
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.doesNotMatch(html, /<style|style="/);
    assert.doesNotMatch(html, /<script[^>]*>[^<]+<\/script>/);
  });

  test('escapes attribute and text values', () => {
    const evil = buildWebviewHtml({ ...opts, scriptUri: 'x"><script>alert(1)</script>', title: '</title><script>' });
    assert.equal(evil.match(/<script/g)?.length, 1);
    assert.match(evil, /src="x&quot;&gt;&lt;script&gt;/);
  });
});

describe('createNonce', () => {
  test('is fresh, long and attribute-safe', () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    assert.equal(nonces.size, 100);
    for (const n of nonces) assert.match(n, /^[A-Za-z0-9_-]{20,}$/);
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

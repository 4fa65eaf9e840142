import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hostAllowed, hostMatches, hostRefusal, parseHttpUrl } from './hostPolicy';
import { isPrivateAddress, isPrivateHost } from './privateHosts';

describe('host policy', () => {
  test('only absolute http(s) URLs with a host; userinfo never becomes the host', () => {
    assert.equal(parseHttpUrl('https://Doc.Rust-Lang.org/std/')?.host, 'doc.rust-lang.org');
    assert.equal(parseHttpUrl('http://example.com:8080/x')?.host, 'example.com');
    assert.equal(parseHttpUrl('http://[::1]:8080/x')?.host, '::1');
    const tricked = parseHttpUrl('http://evil@169.254.169.254/latest');
    assert.equal(tricked?.host, '169.254.169.254');
    assert.equal(tricked?.url.href, 'http://169.254.169.254/latest', 'userinfo stripped from the request');
    for (const raw of ['file:///etc/passwd', 'ftp://example.com/', 'data:text/html,hi', 'not a url', '/relative', 'javascript:alert(1)']) {
      assert.equal(parseHttpUrl(raw), undefined, raw);
    }
  });

  test("upstream's private ranges and names are refused with an empty allowlist; public hosts are not", () => {
    for (const host of [
      '127.0.0.1',
      '127.255.255.255',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00::1',
      '::ffff:169.254.169.254',
      '::ffff:7f00:1',
      'localhost',
      'LOCALHOST',
      'localhost.',
      'api.localhost',
      'metadata.google.internal',
      'metadata',
      'broadcasthost',
    ]) {
      assert.equal(hostAllowed(host, []), false, host);
    }
    for (const host of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', 'example.com']) {
      assert.equal(hostAllowed(host, []), true, host);
    }
    assert.equal(isPrivateHost('example.com'), false, 'no DNS in the name check (the connect-time lookup checks addresses)');
    assert.equal(isPrivateAddress('not-an-ip'), false);
  });

  test('an allowlist admits exactly its hosts, private ones included; *.x matches x and its subdomains', () => {
    assert.ok(hostMatches('doc.rust-lang.org', '*.rust-lang.org'));
    assert.ok(hostMatches('rust-lang.org', '*.rust-lang.org'));
    assert.ok(!hostMatches('evilrust-lang.org', '*.rust-lang.org'));
    assert.ok(hostMatches('docs.rs', ' Docs.RS '));
    const list = ['127.0.0.1', '*.example.com'];
    assert.ok(hostAllowed('127.0.0.1', list));
    assert.ok(hostAllowed('a.b.example.com', list));
    assert.ok(!hostAllowed('localhost', list));
    assert.ok(!hostAllowed('8.8.8.8', list));
  });

  test("refusals in upstream's words", () => {
    assert.equal(
      hostRefusal('fetch', 'example.com', { allowlist: [], noNetwork: true }),
      'fetch: network egress is disabled (--no-network) and no fetch_allowlist is configured; populate fetch_allowlist to opt specific hosts in for fetch while keeping bash offline',
    );
    assert.equal(hostRefusal('fetch', 'example.com', { allowlist: ['example.com'], noNetwork: true }), undefined);
    assert.equal(
      hostRefusal('fetch', '10.0.0.1', { allowlist: [], noNetwork: false }),
      "fetch: host '10.0.0.1' is a private/loopback/link-local address and is blocked by default (empty fetch_allowlist); add it to fetch_allowlist to explicitly opt in",
    );
    assert.equal(
      hostRefusal('web_search', 'evil.com', { allowlist: ['a', 'b'], noNetwork: false }),
      "web_search: host 'evil.com' is not in the allowlist (2 pattern(s) configured); add it to fetch_allowlist to permit it",
    );
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseHttpUrl } from './hostPolicy';
import { publicOnlyLookup, webRequest } from './httpClient';

describe('webRequest', () => {
  test('with an empty allowlist, a name that resolves to a private address is refused at connect time', async () => {
    const err = await new Promise<Error | null>((resolve) => publicOnlyLookup('localhost', {}, (e) => resolve(e)));
    assert.match(String(err?.message), /^host 'localhost' resolves to a private\/loopback\/link-local address$/);
  });

  test('a gzip body is decoded before the byte cap counts it; the user agent is upstream-shaped', async () => {
    const { gzipSync } = await import('node:zlib');
    let agent: string | undefined;
    const server = createServer((req, res) => {
      agent = req.headers['user-agent'];
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('z'.repeat(5000)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const response = await webRequest({
        method: 'GET',
        target: parseHttpUrl(`http://127.0.0.1:${port}/`)!,
        label: 'fetch',
        policy: { allowlist: ['127.0.0.1'], noNetwork: false },
        timeoutMs: 10_000,
        maxBytes: 1024,
        signal: new AbortController().signal,
        followRedirects: true,
      });
      assert.equal(agent, 'catalyst-code-fetch/0.1');
      assert.equal(response.truncated, true);
      assert.equal(response.body.toString(), 'z'.repeat(1024));
    } finally {
      server.close();
    }
  });
});

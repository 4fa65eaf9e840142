/**
 * A stand-in for the Exa and Tavily search APIs on 127.0.0.1: `POST /exa/search` answers in Exa's shape
 * (`results[].{title, url, text}`), `POST /tavily/search` in Tavily's (`results[].{title, url, content}`, `usage`). Each
 * request is recorded (headers and JSON body) so a test can check the request shape and the key it carried. Each
 * provider answers its next requests as queued: `failNext` a status (e.g. 429 with a retry-after; the body names the key
 * it was sent, as some real APIs do), `passNext` the hits.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SearchApiRequest {
  provider: 'exa' | 'tavily';
  headers: IncomingHttpHeaders;
  body: any;
}

export interface StandInHit {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchApiStandIn {
  /** The URLs for CATALYST_CODE_EXA_URL and CATALYST_CODE_TAVILY_URL. */
  exaUrl: string;
  tavilyUrl: string;
  requests: SearchApiRequest[];
  failNext(provider: 'exa' | 'tavily', status: number, headers?: Record<string, string>): void;
  passNext(provider: 'exa' | 'tavily'): void;
  close(): Promise<void>;
}

export async function startSearchApiStandIn(hits: readonly StandInHit[]): Promise<SearchApiStandIn> {
  const requests: SearchApiRequest[] = [];
  const failures: Record<string, ({ status: number; headers: Record<string, string> } | undefined)[]> = { exa: [], tavily: [] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const provider = req.url === '/exa/search' ? 'exa' : req.url === '/tavily/search' ? 'tavily' : undefined;
      if (req.method !== 'POST' || !provider) {
        res.writeHead(404).end();
        return;
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end('{"error":"bad json"}');
        return;
      }
      requests.push({ provider, headers: req.headers, body });
      const failure = failures[provider].shift();
      if (failure) {
        // Like some real APIs, the error names the key it refused: the core must scrub it.
        const key = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '').replace(/^Bearer /, '');
        res
          .writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers })
          .end(JSON.stringify({ error: `bad key ${key}` }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(provider, body, hits)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    exaUrl: `${base}/exa/search`,
    tavilyUrl: `${base}/tavily/search`,
    requests,
    failNext: (provider, status, headers = {}) => failures[provider].push({ status, headers }),
    passNext: (provider) => failures[provider].push(undefined),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function answer(provider: 'exa' | 'tavily', body: any, hits: readonly StandInHit[]): object {
  if (provider === 'exa') {
    const shown = hits.slice(0, body.numResults ?? 10);
    return { requestId: 'stand-in', results: shown.map((h, i) => ({ title: h.title, url: h.url, text: h.snippet, score: 1 - i / 10 })) };
  }
  const shown = hits.slice(0, body.max_results ?? 5);
  return {
    query: body.query,
    results: shown.map((h, i) => ({ title: h.title, url: h.url, content: h.snippet, score: 1 - i / 10 })),
    usage: { credits: 1 },
  };
}

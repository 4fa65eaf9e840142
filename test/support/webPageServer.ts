/**
 * Web pages on 127.0.0.1 for the fetch scenarios: fixed routes (HTML, text, a large body), redirects (a loop, one to
 * another host) and a request log, so a test can prove which URLs the core did and did not ask for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebRoute {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface WebPageServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Paths requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

export async function startWebPageServer(routes: Record<string, WebRoute>): Promise<WebPageServer> {
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const route = Object.hasOwn(routes, req.url ?? '') ? routes[req.url!] : undefined;
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

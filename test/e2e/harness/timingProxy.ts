import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the scripted model server that notes when response bytes leave for the client:
 * the benchmarks time "the server sent the last delta" with it. Epoch milliseconds with sub-ms precision.
 */
export interface TimingProxy {
  /** http://127.0.0.1:PORT/v1, to configure as the provider's base URL. */
  url: string;
  /** When the first response chunk of a chat request went out (undefined until one did). */
  firstChunkAt?: number;
  /** When a chunk containing `marker` (the first, when several were given) went out. */
  markerAt?: number;
  /** When a chunk containing each marker went out (several streams at once: one marker each). */
  markersAt: Map<string, number>;
  /** Response chunks forwarded for chat requests. */
  chunks: number;
  close(): Promise<void>;
}

export const epochNow = (): number => performance.timeOrigin + performance.now();

export async function startTimingProxy(targetBaseUrl: string, marker: string | readonly string[]): Promise<TimingProxy> {
  const target = new URL(targetBaseUrl);
  const markers = typeof marker === 'string' ? [marker] : marker;
  const proxy: TimingProxy = { url: '', chunks: 0, markersAt: new Map(), close: () => closeServer(server) };
  const server: Server = createServer((req, res) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        const isChat = req.method === 'POST';
        up.on('data', (chunk: Buffer) => {
          res.write(chunk);
          if (!isChat) return;
          const now = epochNow();
          proxy.chunks++;
          proxy.firstChunkAt ??= now;
          for (const m of markers) if (!proxy.markersAt.has(m) && chunk.includes(m)) proxy.markersAt.set(m, now);
          proxy.markerAt ??= proxy.markersAt.get(markers[0]);
        });
        up.on('end', () => res.end());
        up.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`;
  return proxy;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A stand-in for models.dev's `api.json` (real HTTP on 127.0.0.1): `GET /api.json` answers the catalog the test set
 * with `serve`, in models.dev's shape (`{<provider>: {models: {<id>: {cost}}}}`). Each request is counted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelsDevStandIn {
  /** The api.json URL, for CATALYST_CODE_MODELS_DEV_URL. */
  url: string;
  readonly requests: number;
  serve(catalog: unknown): void;
  close(): Promise<void>;
}

export async function startModelsDevStandIn(catalog: unknown = {}): Promise<ModelsDevStandIn> {
  let current = catalog;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const found = req.method === 'GET' && req.url === '/api.json';
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(found ? current : { error: 'no route' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api.json`,
    get requests() {
      return requests;
    },
    serve(next) {
      current = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

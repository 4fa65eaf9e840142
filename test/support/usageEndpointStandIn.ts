/**
 * A stand-in for a provider that publishes usage (real HTTP on 127.0.0.1): `GET <any>/models` lists one model, and each
 * usage route upstream asks — Umans' `/v1/usage`, ChatGPT's `/backend-api/wham/usage`, Anthropic's `/api/oauth/usage`,
 * xAI's `/v1/billing?format=credits` — answers what the test set with `answer`: a JSON body, an error status, or `hang`
 * (headers never come, to exercise the core's timeout). Every request is recorded with its headers.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GATEWAY_MODEL = 'gateway-model';

const USAGE_PATHS = new Set(['/v1/usage', '/backend-api/wham/usage', '/api/oauth/usage', '/v1/billing?format=credits']);

export type UsageAnswer = { json: unknown } | { status: number } | 'hang';

export interface UsageEndpointStandIn {
  /** The provider's base_url (ends in /v1). */
  url: string;
  /** `http://127.0.0.1:<port>`, for the other routes' bases. */
  origin: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  answer(next: UsageAnswer): void;
  close(): Promise<void>;
}

export async function startUsageEndpointStandIn(): Promise<UsageEndpointStandIn> {
  const requests: UsageEndpointStandIn['requests'] = [];
  let answer: UsageAnswer = { status: 404 };
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    if (req.method === 'GET' && path.endsWith('/models')) return json(res, 200, { data: [{ id: GATEWAY_MODEL }] });
    if (req.method !== 'GET' || !USAGE_PATHS.has(path)) return json(res, 404, { error: 'no route' });
    if (answer === 'hang') {
      hanging.add(res);
      return;
    }
    if ('status' in answer) return json(res, answer.status, { error: `status ${answer.status}` });
    json(res, 200, answer.json);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      answer = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

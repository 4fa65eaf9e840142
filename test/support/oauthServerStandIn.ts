/**
 * A local authorization server stand-in (real HTTP on 127.0.0.1) for the plugin OAuth scenarios: it stands in for a
 * vendor's OAuth endpoints, which a test cannot reach.
 * - GET /authorize?redirect_uri=…&state=… — the web flow: 302 to the redirect_uri with a fresh code and the state;
 *   with mode=manual and no redirect_uri: a page showing the code to paste (the manual flow).
 * - POST /token {grant_type:"authorization_code", code} | {grant_type:"refresh_token", refresh_token} — issues
 *   `at-<n>` access tokens (expiring in `expiresIn` seconds) and `rt-<n>` refresh tokens; a bad code or refresh token is 400.
 * - POST /revoke {refresh_token} — what the plugin's `clear` action calls.
 * - POST /device — a device-code grant: {device_code, user_code, verification_uri}; GET /device/verify?user_code=… is the
 *   user approving it on the page; until then POST /token {grant_type:"device_code", device_code} is 400
 *   authorization_pending.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OauthServerStandIn {
  url: string;
  /** Seconds until the next issued access token expires (the plugin writes expires_at = now + this). */
  expiresIn: number;
  /** Every access token issued, in order. */
  readonly accessTokens: string[];
  readonly grants: Array<'authorization_code' | 'refresh_token' | 'device_code'>;
  readonly revoked: string[];
  close(): Promise<void>;
}

export async function startOauthServerStandIn(): Promise<OauthServerStandIn> {
  let n = 0;
  const codes = new Set<string>();
  /** device_code → user_code, and whether the user approved it. */
  const devices = new Map<string, { userCode: string; approved: boolean }>();
  const refreshTokens = new Set<string>();
  const state: OauthServerStandIn = {
    url: '',
    expiresIn: 3600,
    accessTokens: [],
    grants: [],
    revoked: [],
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const issue = () => {
    n += 1;
    const access = `at-${n}-${Math.random().toString(36).slice(2, 10)}`;
    const refresh = `rt-${n}`;
    refreshTokens.add(refresh);
    state.accessTokens.push(access);
    return { access_token: access, refresh_token: refresh, expires_in: state.expiresIn, token_type: 'Bearer' };
  };
  const server = createServer((req, res) => void handle(req, res));
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
    if (req.method === 'GET' && url.pathname === '/device/verify') {
      const entry = [...devices.values()].find((d) => d.userCode === url.searchParams.get('user_code'));
      if (entry) entry.approved = true;
      res.writeHead(entry ? 200 : 404, { 'content-type': 'text/plain' }).end(entry ? 'Device approved.' : 'Unknown code.');
      return;
    }
    const body = req.method === 'POST' ? await jsonBody(req) : {};
    if (url.pathname === '/device') {
      n += 1;
      const device = { device_code: `dc-${n}`, user_code: `UC-${n}`, verification_uri: `${state.url}/device/verify` };
      devices.set(device.device_code, { userCode: device.user_code, approved: false });
      return send(res, 200, device);
    }
    if (url.pathname === '/token' && body.grant_type === 'device_code') {
      const device = devices.get(String(body.device_code));
      if (!device) return send(res, 400, { error: 'invalid_grant' });
      if (!device.approved) return send(res, 400, { error: 'authorization_pending' });
      devices.delete(String(body.device_code));
      state.grants.push('device_code');
      return send(res, 200, issue());
    }
    if (url.pathname === '/token') {
      if (body.grant_type === 'authorization_code' && codes.delete(String(body.code))) {
        state.grants.push('authorization_code');
        return send(res, 200, issue());
      }
      if (body.grant_type === 'refresh_token' && refreshTokens.delete(String(body.refresh_token))) {
        state.grants.push('refresh_token');
        return send(res, 200, issue());
      }
      return send(res, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/revoke') {
      state.revoked.push(String(body.refresh_token));
      return send(res, 200, {});
    }
    send(res, 404, { error: 'not_found' });
  };
  const authorize = (url: URL, res: ServerResponse) => {
    const code = `code-${(n += 1)}`;
    codes.add(code);
    const redirect = url.searchParams.get('redirect_uri');
    if (!redirect) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`Your code: ${code}`);
      return;
    }
    const target = new URL(redirect);
    target.searchParams.set('code', code);
    target.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: target.toString() }).end();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

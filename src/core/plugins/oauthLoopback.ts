/**
 * The web flow's redirect target (upstream: `127.0.0.1:0`, plus `::1` on the same port when it can): one GET
 * `/callback?code=…&state=…` ends the wait. The page tells the user to go back to the editor.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const OAUTH_REDIRECT_WAIT_MS = 300_000;

export interface Redirect {
  code: string;
  state?: string;
}

export class OauthLoopback {
  private servers: Server[] = [];
  private waiter: { resolve(r: Redirect): void; reject(e: Error): void } | undefined;
  private received: Redirect | Error | undefined;
  port = 0;
  /** The login script's `state`: a redirect carrying another one is refused (a forged or stale redirect). */
  expectedState: string | undefined;

  static async open(): Promise<OauthLoopback> {
    const loopback = new OauthLoopback();
    const v4 = loopback.server();
    await new Promise<void>((resolve, reject) => {
      v4.once('error', reject);
      v4.listen(0, '127.0.0.1', () => resolve());
    });
    loopback.port = (v4.address() as AddressInfo).port;
    const v6 = loopback.server();
    await new Promise<void>((resolve) => {
      v6.once('error', () => resolve());
      v6.listen(loopback.port, '::1', () => resolve());
    });
    return loopback;
  }

  get redirectUri(): string {
    return `http://localhost:${this.port}/callback`;
  }

  /** The redirect's code; rejects after `timeoutMs`, on an `error` parameter, or when `cancel` is called. */
  wait(timeoutMs = OAUTH_REDIRECT_WAIT_MS): Promise<Redirect> {
    return new Promise<Redirect>((resolve, reject) => {
      if (this.received) return this.received instanceof Error ? reject(this.received) : resolve(this.received);
      const timer = setTimeout(
        () => this.settle(new Error(`timed out after ${Math.round(timeoutMs / 1000)}s waiting for the OAuth redirect`)),
        timeoutMs,
      );
      this.waiter = {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
    });
  }

  cancel(reason: Error): void {
    this.settle(reason);
  }

  close(): void {
    for (const s of this.servers) {
      s.close();
      s.closeAllConnections();
    }
    this.servers = [];
  }

  private server(): Server {
    const s = createServer((req, res) => this.handle(req, res));
    this.servers.push(s);
    return s;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state') ?? undefined;
    if (error || !code) {
      const detail = url.searchParams.get('error_description') ?? error ?? 'no code in the redirect';
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`Login failed: ${detail}. You can close this window.`);
      this.settle(new Error(`the authorization server answered: ${detail.slice(0, 300)}`));
      return;
    }
    if (this.expectedState !== undefined && state !== this.expectedState) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Login failed: the state does not match. You can close this window.');
      this.settle(new Error('the OAuth redirect carried a different state (possible CSRF); try /login again'));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Logged in. You can close this window and return to the editor.');
    this.settle({ code, ...(state !== undefined ? { state } : {}) });
  }

  private settle(outcome: Redirect | Error): void {
    if (this.received) return;
    this.received = outcome;
    const w = this.waiter;
    this.waiter = undefined;
    if (!w) return;
    if (outcome instanceof Error) w.reject(outcome);
    else w.resolve(outcome);
  }
}

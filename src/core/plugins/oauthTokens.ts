/**
 * Request-time OAuth credentials (upstream's `enrich_oauth`): the plugin's `token` action, cached in memory until 60 s
 * before its `expires_at` (a missing or zero expiry counts as five minutes). Refreshing is the plugin's business: the core
 * only asks again when the cache runs out. Tokens live only here and in the request headers.
 */
import type { OauthConfig } from './oauthManifest';
import { runOauthAction, type OauthScriptHost } from './oauthScripts';

export const TOKEN_EXPIRY_MARGIN_S = 60;
export const TOKEN_DEFAULT_LIFETIME_S = 300;

export interface OauthCredentials {
  accessToken: string;
  headers: Array<[string, string]>;
}

interface CachedToken extends OauthCredentials {
  /** Unix seconds after which the token is asked for again. */
  usableUntil: number;
}

export class OauthTokenCache {
  private readonly cache = new Map<string, CachedToken>();
  /** One `token` run per provider at a time: concurrent requests share it. */
  private readonly inflight = new Map<string, Promise<OauthCredentials>>();

  constructor(private readonly host: OauthScriptHost) {}

  /** The provider's credentials; throws when the token action fails or returns no access_token. */
  async get(cfg: OauthConfig, now = () => Date.now() / 1000): Promise<OauthCredentials> {
    const cached = this.cache.get(cfg.providerId);
    if (cached && cached.usableUntil > now()) return cached;
    const running = this.inflight.get(cfg.providerId);
    if (running) return running;
    const fetching = this.fetch(cfg, now).finally(() => this.inflight.delete(cfg.providerId));
    this.inflight.set(cfg.providerId, fetching);
    return fetching;
  }

  drop(providerId: string): void {
    this.cache.delete(providerId);
  }

  /** Every cached access token, so that logs and events can be scrubbed of them. */
  secrets(): string[] {
    return [...this.cache.values()].map((t) => t.accessToken);
  }

  private async fetch(cfg: OauthConfig, now: () => number): Promise<OauthCredentials> {
    const out = await runOauthAction(this.host, cfg, 'token');
    const accessToken = typeof out.access_token === 'string' ? out.access_token.trim() : '';
    if (!accessToken) throw new Error(`oauth token script of plugin '${cfg.plugin}' returned no access_token`);
    const expiresAt = typeof out.expires_at === 'number' && Number.isFinite(out.expires_at) ? out.expires_at : 0;
    const usableUntil = (expiresAt > 0 ? expiresAt : now() + TOKEN_DEFAULT_LIFETIME_S) - TOKEN_EXPIRY_MARGIN_S;
    const token: CachedToken = { accessToken, headers: headerPairs(out.headers), usableUntil };
    this.cache.set(cfg.providerId, token);
    return token;
  }
}

/** The headers these credentials add to a request: the bearer token, then the headers the token action returned. */
export function credentialHeaders(creds: OauthCredentials): Array<[string, string]> {
  return [['authorization', `Bearer ${creds.accessToken}`], ...creds.headers];
}

function headerPairs(value: unknown): Array<[string, string]> {
  if (!Array.isArray(value)) return [];
  return value
    .filter((p): p is [string, string] => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')
    .map(([k, v]) => [k, v]);
}

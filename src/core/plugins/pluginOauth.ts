/**
 * The OAuth providers the enabled plugins declare (research A §8): which one serves a provider config, whether its
 * credentials exist, the request-time token, and logging out.
 */
import { existsSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ProviderConfig } from '../config/providers';
import type { ProviderOauth } from '../models/providerRegistry';
import type { OauthConfig } from './oauthManifest';
import { oauthTokenFile, runOauthAction, type OauthScriptHost } from './oauthScripts';
import { credentialHeaders, OauthTokenCache } from './oauthTokens';
import type { PluginManager } from './pluginManager';

export interface PluginOauthOptions extends OauthScriptHost {
  homeDir: string;
  log(message: string): void;
}

export class PluginOauth implements ProviderOauth {
  readonly tokens: OauthTokenCache;

  constructor(
    private readonly manager: PluginManager,
    readonly host: PluginOauthOptions,
  ) {
    this.tokens = new OauthTokenCache(host);
  }

  /** Every enabled plugin's OAuth provider, by plugin name order; the first one declaring an id wins. */
  providers(): OauthConfig[] {
    const seen = new Set<string>();
    const out: OauthConfig[] = [];
    for (const p of this.manager.enabled()) {
      if (!p.oauth || seen.has(p.oauth.providerId)) continue;
      seen.add(p.oauth.providerId);
      out.push(p.oauth);
    }
    return out;
  }

  byId(providerId: string): OauthConfig | undefined {
    return this.providers().find((c) => c.providerId === providerId);
  }

  /** The plugin provider for a provider config: by name == provider_id, else by the base URL's host. */
  forProvider(p: Pick<ProviderConfig, 'name' | 'baseUrl'>): OauthConfig | undefined {
    const all = this.providers();
    return all.find((c) => c.providerId === p.name) ?? all.find((c) => sameHost(c.baseUrl, p.baseUrl));
  }

  /** The token file or the detect_path exists: how upstream decides a provider is logged in (`has_oauth_creds`). */
  credentialsExist(cfg: OauthConfig): boolean {
    if (existsSync(oauthTokenFile(this.host.configDir, cfg))) return true;
    const detected = this.detectPath(cfg);
    return !!detected && existsSync(detected);
  }

  hasCredentials(p: ProviderConfig): boolean {
    const cfg = this.forProvider(p);
    return !!cfg && this.credentialsExist(cfg);
  }

  authorizer(p: ProviderConfig): (() => Promise<Array<[string, string]> | undefined>) | undefined {
    const cfg = this.forProvider(p);
    if (!cfg) return undefined;
    return async () => {
      try {
        return credentialHeaders(await this.tokens.get(cfg));
      } catch (err) {
        // Without a token the request goes out unauthenticated: the provider's 401 then says so.
        this.host.log(`[oauth] no credentials for '${cfg.providerId}': ${(err as Error).message}`);
        return undefined;
      }
    };
  }

  secrets(): string[] {
    return this.tokens.secrets();
  }

  /** Deletes the token file, runs `clear` (its result ignored), drops the cached token. */
  async logout(cfg: OauthConfig): Promise<void> {
    rmSync(oauthTokenFile(this.host.configDir, cfg), { force: true });
    this.tokens.drop(cfg.providerId);
    try {
      await runOauthAction(this.host, cfg, 'clear');
    } catch (err) {
      this.host.log(`[oauth] clear for '${cfg.providerId}' failed: ${(err as Error).message}`);
    }
  }

  /** `$CODEX_HOME/…`, `~/…` or a path relative to HOME (research A §8.1). */
  private detectPath(cfg: OauthConfig): string | undefined {
    const raw = cfg.detectPath;
    if (!raw) return undefined;
    if (raw.startsWith('$CODEX_HOME/')) {
      const base = this.host.env.CODEX_HOME;
      return base ? join(base, raw.slice('$CODEX_HOME/'.length)) : undefined;
    }
    if (raw.startsWith('~/')) return join(this.host.homeDir, raw.slice(2));
    if (isAbsolute(raw) || raw.split(/[\\/]/).includes('..')) return undefined;
    return join(this.host.homeDir, raw);
  }
}

function sameHost(a: string, b: string): boolean {
  try {
    return new URL(a).host.toLowerCase() === new URL(b).host.toLowerCase();
  } catch {
    return false;
  }
}

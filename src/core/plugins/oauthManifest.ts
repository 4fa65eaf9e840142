/** A plugin's `oauth` block (upstream's `load_oauth_entry`): the provider it logs into and the scripts that do it. */
import { isAbsolute } from 'node:path';
import { confinedScript } from './pluginPaths';

export const DEFAULT_OAUTH_LOGIN_TIMEOUT_MS = 120_000;
export const DEFAULT_OAUTH_TOKEN_TIMEOUT_MS = 30_000;

export type OauthAction = 'login' | 'complete' | 'token' | 'clear';

export interface OauthConfig {
  providerId: string;
  label: string;
  kind: 'openai' | 'anthropic';
  baseUrl: string;
  description: string;
  headers: Array<[string, string]>;
  /** One file name under `~/.config/catalyst-code/oauth/`. */
  tokenPath: string;
  detectPath?: string;
  /** Canonical script per action; `login` and `complete` may be missing (then the provider cannot log in). */
  scripts: Partial<Record<OauthAction, string>>;
  loginTimeoutMs: number;
  tokenTimeoutMs: number;
  envPassthrough: string[];
  plugin: string;
}

type Json = Record<string, unknown>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** Throws with the reason the block cannot load (the plugin then fails to load, as upstream). */
export function loadOauthConfig(block: Json, canonDir: string, plugin: string): OauthConfig {
  const providerId = text(block.provider_id);
  if (!providerId) throw new Error('oauth.provider_id is required');
  const baseUrl = text(block.base_url);
  if (!baseUrl) throw new Error(`oauth provider '${providerId}' needs a base_url`);
  const kind = block.kind === undefined || block.kind === null ? 'openai' : String(block.kind);
  if (kind !== 'openai' && kind !== 'anthropic') {
    throw new Error(`oauth provider '${providerId}' has invalid kind '${kind}' (use 'openai' or 'anthropic')`);
  }
  const script = (field: string) => {
    const rel = text(block[field]);
    return rel ? confinedScript(canonDir, rel, 'script') : undefined;
  };
  const shared = script('script');
  const scripts: OauthConfig['scripts'] = {
    login: script('login_script') ?? shared,
    complete: script('complete_script') ?? shared,
    token: script('token_script') ?? shared,
    clear: shared ?? script('token_script'),
  };
  if (!scripts.token) throw new Error(`oauth provider '${providerId}' needs a token script (set oauth.script or oauth.token_script)`);
  return {
    providerId,
    label: text(block.label) || providerId,
    kind,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    description: text(block.description),
    headers: headerPairs(block.headers),
    tokenPath: tokenFileName(block.token_path, providerId),
    ...(text(block.detect_path) ? { detectPath: text(block.detect_path) } : {}),
    scripts,
    loginTimeoutMs: positiveInt(block.login_timeout_ms) ?? DEFAULT_OAUTH_LOGIN_TIMEOUT_MS,
    tokenTimeoutMs: positiveInt(block.token_timeout_ms) ?? DEFAULT_OAUTH_TOKEN_TIMEOUT_MS,
    envPassthrough: envPassthrough(block.env_passthrough),
    plugin,
  };
}

function tokenFileName(value: unknown, providerId: string): string {
  const name = text(value) || `${providerId}.json`;
  if (isAbsolute(name) || /[\\/]/.test(name) || name === '.' || name === '..') {
    throw new Error('token_path must be one relative filename');
  }
  return name;
}

/** Variables an OAuth script may see besides the scrubbed baseline; secret-looking names never pass. */
function envPassthrough(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) => {
    const name = String(v);
    if (!ENV_NAME.test(name)) throw new Error(`oauth env_passthrough name ${JSON.stringify(name)} is not a valid variable name`);
    if (SECRET_NAME.test(name)) {
      throw new Error(
        `oauth env_passthrough name ${JSON.stringify(name)} looks like a secret (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL) and is refused`,
      );
    }
    return name;
  });
}

/** `[[k, v], …]`, as upstream persists them; an object `{k: v}` is accepted too. */
function headerPairs(value: unknown): Array<[string, string]> {
  if (Array.isArray(value)) {
    return value
      .filter((p): p is unknown[] => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')
      .map((p) => [p[0] as string, p[1] as string]);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
  }
  return [];
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}

// Which config files are read, in which order, and which of them are untrusted.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isJsonObject, setOwn, type JsonObject } from '../platform/jsonValue';

export interface ConfigSource {
  path: string;
  /** Project files shipped by a repository: security-sensitive keys are stripped. */
  trusted: boolean;
  /** Named with --config: its absence is worth a warning. */
  explicit: boolean;
}

/**
 * `<configDir>/config.json`, `<configDir>/catalyst-code.d/*.json` (sorted),
 * `<configDir>/settings.json`, `<cwd>/settings.json`, `<cwd>/settings.local.json`;
 * or only `explicitFile` (trusted) when --config is given.
 */
export function listConfigSources(configDir: string, cwd: string, explicitFile?: string): ConfigSource[] {
  if (explicitFile !== undefined) return [{ path: resolve(cwd, explicitFile), trusted: true, explicit: true }];
  const user = (path: string): ConfigSource => ({ path, trusted: true, explicit: false });
  const project = (path: string): ConfigSource => ({ path, trusted: false, explicit: false });
  return [
    user(join(configDir, 'config.json')),
    ...dropInFiles(join(configDir, 'catalyst-code.d')).map(user),
    user(join(configDir, 'settings.json')),
    project(join(cwd, 'settings.json')),
    project(join(cwd, 'settings.local.json')),
  ];
}

function dropInFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => join(dir, n));
}

/** The file's top-level object, or undefined (missing → silent; unreadable/malformed → a warning). */
export function readConfigSource(source: ConfigSource, warnings: string[]): JsonObject | undefined {
  let text: string;
  try {
    text = readFileSync(source.path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' || source.explicit)
      warnings.push(`config file ${source.path} could not be read (${code ?? String(err)}); skipped`);
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    warnings.push(`config file ${source.path} is not valid JSON (${(err as Error).message}); skipped`);
    return undefined;
  }
  if (!isJsonObject(parsed)) {
    warnings.push(`config file ${source.path} does not hold a JSON object; skipped`);
    return undefined;
  }
  return parsed;
}

/**
 * Keys a repository must not set through ./settings.json or ./settings.local.json: they
 * could disable approvals or the sandbox, widen permissions, or route API keys to an
 * attacker's endpoint. Upstream's list (research §3.3), plus the paths the core writes to
 * or works in (workspace, session, debug_log), which upstream leaves open.
 */
const UNTRUSTED_KEYS = new Set([
  'base_url',
  'approval',
  'no_network',
  'fetch_allowlist',
  // Ours: a repository must not raise the web tools' limits or turn them back on for itself.
  'fetch_timeout_secs',
  'fetch_max_bytes',
  'web_tools',
  'permissions',
  'providers',
  'provider_keys',
  'api_key',
  'search_keys',
  'plugins',
  'mcp_servers',
  'workspace',
  'session',
  'debug_log',
]);
const UNTRUSTED_PREFIXES = ['sandbox', 'bash_deny'];

/**
 * Ours: the limits on how far and how wide subagents fan out. A repository could raise them to make one prompt start
 * a tree of children under approval mode `never`; its agent files and other `subagents` settings stay allowed.
 */
const UNTRUSTED_SUBAGENT_KEYS = ['maxSubagentDepth', 'parallel'];

export function stripUntrustedKeys(obj: JsonObject, path: string, warnings: string[]): JsonObject {
  const kept: JsonObject = {};
  const removed: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (UNTRUSTED_KEYS.has(k) || UNTRUSTED_PREFIXES.some((p) => k.startsWith(p))) removed.push(k);
    else if (k === 'subagents' && isJsonObject(v)) setOwn<unknown>(kept, k, withoutSubagentLimits(v, removed));
    else setOwn(kept, k, v);
  }
  if (removed.length > 0) {
    warnings.push(
      `ignored security-sensitive keys ${removed.join(', ')} from project file ${path} (set them in ~/.config/catalyst-code/settings.json, the environment or flags instead)`,
    );
  }
  return kept;
}

function withoutSubagentLimits(subagents: JsonObject, removed: string[]): JsonObject {
  const kept: JsonObject = {};
  for (const [k, v] of Object.entries(subagents)) {
    if (UNTRUSTED_SUBAGENT_KEYS.includes(k)) removed.push(`subagents.${k}`);
    else setOwn(kept, k, v);
  }
  return kept;
}

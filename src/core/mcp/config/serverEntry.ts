/**
 * One server entry of an MCP configuration file → the `McpServerConfig` the server manager runs: transport chosen
 * (`type`, else `command` → stdio, `url` → http), variables expanded, `envFile` merged under `env`, `cwd` resolved
 * against the workspace folder, keys we do not support listed, the trust nonce computed. A definition that cannot run
 * (no command or url, a bad type, an unreadable envFile) is a problem naming the server, never a crash.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpConfigSource, McpServerConfig, McpTransportConfig } from '../serverConfig';
import { parseEnvFile } from './envFile';
import { isPlainObject } from './jsoncFile';
import { trustNonce } from './trustNonce';
import { expandVariables, newExpansionNotes, type ExpansionNotes, type VariableContext, type VariableDialect } from './variables';

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const STDIO_KEYS = ['command', 'args', 'env', 'envFile', 'cwd'];
const HTTP_KEYS = ['url', 'headers'];
const COMMON_KEYS = ['type', 'startupTimeoutMs', 'callTimeoutMs'];
/** Descriptive keys VS Code's gallery writes; they change nothing about how the server runs. */
const METADATA_KEYS = ['gallery', 'version'];
/** Servers from these sources run only after the user trusted their launch configuration. */
const WORKSPACE_SOURCES: ReadonlySet<McpConfigSource> = new Set(['vscode-workspace', 'mcp-json', 'cursor']);

export interface EntryContext {
  source: McpConfigSource;
  file: string;
  dialect: VariableDialect;
  vars: VariableContext;
}

export type EntryResult =
  { ok: true; config: McpServerConfig; missingInputs: string[]; warnings: string[] } | { ok: false; message: string };

export function readServerEntry(name: string, entry: unknown, ctx: EntryContext): EntryResult {
  if (name.trim() === '') return { ok: false, message: 'a server has an empty name' };
  if (!isPlainObject(entry)) return { ok: false, message: `server "${name}" is not an object` };
  const type = transportType(entry);
  if (typeof type === 'object') return { ok: false, message: `server "${name}": ${type.error}` };
  const notes = newExpansionNotes();
  const expand = (text: string): string => expandVariables(text, ctx.dialect, ctx.vars, notes);
  const warnings: string[] = [];
  let transport: McpTransportConfig;
  let envFileContent: string | undefined;
  try {
    if (type === 'stdio') {
      const envFile = readEnvFile(entry.envFile, expand, ctx.vars.workspaceFolder);
      envFileContent = envFile?.text;
      transport = stdioTransport(entry, expand, ctx.vars.workspaceFolder, envFile?.env ?? {});
    } else {
      transport = httpTransport(type, entry, expand);
    }
  } catch (err) {
    return { ok: false, message: `server "${name}": ${(err as Error).message}` };
  }
  const config: McpServerConfig = {
    name,
    source: ctx.source,
    file: ctx.file,
    transport,
    unsupported: unsupportedKeys(entry, type, notes),
    needsTrust: WORKSPACE_SOURCES.has(ctx.source),
    trustNonce: trustNonce(entry, envFileContent),
    startupTimeoutMs: timeout(entry, 'startupTimeoutMs', DEFAULT_STARTUP_TIMEOUT_MS, name, warnings),
    callTimeoutMs: timeout(entry, 'callTimeoutMs', DEFAULT_CALL_TIMEOUT_MS, name, warnings),
  };
  return { ok: true, config, missingInputs: [...notes.missingInputs], warnings };
}

function transportType(entry: Record<string, unknown>): 'stdio' | 'http' | 'sse' | { error: string } {
  const type = entry.type;
  if (type === undefined) {
    if (typeof entry.command === 'string') return 'stdio';
    if (typeof entry.url === 'string') return 'http';
    return { error: 'has neither "command" nor "url"' };
  }
  if (type === 'stdio' || type === 'http' || type === 'sse') return type;
  // Cline's and Roo's spelling of Streamable HTTP.
  if (type === 'streamableHttp' || type === 'streamable-http') return 'http';
  return { error: `has an unknown "type" ${JSON.stringify(type)} (stdio, http or sse)` };
}

function stdioTransport(
  entry: Record<string, unknown>,
  expand: (s: string) => string,
  workspaceFolder: string,
  envFromFile: Record<string, string>,
): McpTransportConfig {
  if (typeof entry.command !== 'string' || entry.command.trim() === '') throw new Error('"command" must be a non-empty string');
  const args = entry.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number'))
    throw new Error('"args" must be an array of strings');
  const env: Record<string, string> = {};
  Object.assign(env, envFromFile);
  for (const [k, v] of Object.entries(stringMap(entry.env, 'env', true))) {
    if (v === null) delete env[k];
    else env[k] = expand(v);
  }
  const cwd = entry.cwd === undefined ? workspaceFolder : resolve(workspaceFolder, expand(requireString(entry.cwd, 'cwd')));
  return { type: 'stdio', command: expand(entry.command), args: args.map((a) => expand(String(a))), env, cwd };
}

function httpTransport(type: 'http' | 'sse', entry: Record<string, unknown>, expand: (s: string) => string): McpTransportConfig {
  const url = expand(requireString(entry.url, 'url'));
  if (!url.includes('${input:')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"url" ${JSON.stringify(url)} is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"url" must be http or https, not ${parsed.protocol}`);
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(stringMap(entry.headers, 'headers', false))) if (v !== null) headers[k] = expand(v);
  return { type, url, headers };
}

function readEnvFile(
  value: unknown,
  expand: (s: string) => string,
  workspaceFolder: string,
): { env: Record<string, string>; text: string } | undefined {
  if (value === undefined) return undefined;
  const path = resolve(workspaceFolder, expand(requireString(value, 'envFile')));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`envFile ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return { env: parseEnvFile(text), text };
}

/** A `{name: string}` map; numbers become strings, `null` (VS Code: "remove this variable") only where allowed. */
function stringMap(value: unknown, key: string, allowNull: boolean): Record<string, string | null> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new Error(`"${key}" must be an object`);
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (v === null && allowNull) out[k] = null;
    else throw new Error(`"${key}.${k}" must be a string`);
  }
  return out;
}

function requireString(value: unknown, key: string): string {
  if (typeof value !== 'string') throw new Error(`"${key}" must be a string`);
  return value;
}

function unsupportedKeys(entry: Record<string, unknown>, type: 'stdio' | 'http' | 'sse', notes: ExpansionNotes): string[] {
  const known = new Set([...COMMON_KEYS, ...METADATA_KEYS, ...(type === 'stdio' ? STDIO_KEYS : HTTP_KEYS)]);
  const keys = Object.keys(entry).filter((k) => !known.has(k));
  return [...keys.sort(), ...[...notes.unsupported].sort()];
}

function timeout(entry: Record<string, unknown>, key: string, fallback: number, name: string, warnings: string[]): number {
  const value = entry[key];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  warnings.push(`server "${name}": "${key}" must be a positive number of milliseconds; using ${fallback}`);
  return fallback;
}

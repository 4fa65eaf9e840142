/**
 * Every MCP server the user configured, read from the files they already keep, in this order:
 *
 *   1. `vscode-user`      VS Code's user (profile) `mcp.json` — path handed over by the extension
 *   2. `vscode-workspace` `<folder>/.vscode/mcp.json` (VS Code: `servers`, `inputs`; a `mcpServers` key is accepted too)
 *   3. `mcp-json`         `<folder>/.mcp.json` (Claude Code: `mcpServers`, `${VAR}` / `${VAR:-default}`)
 *   4. `cursor`           `<folder>/.cursor/mcp.json` (`mcpServers`)
 *   5. `catalyst-user`    our own user file, `~/.config/catalyst-code/mcp.json` (VS Code's format)
 *
 * Name clash: a server name is unique (its tools are `mcp__<name>__…`). A user-level definition (5, then 1) wins over
 * a workspace one, so a cloned repository can never replace a server the user defined; among workspace files the
 * earlier one in the list wins. The hidden definition is reported as a problem, never dropped silently. The servers
 * come out in the list's order. A missing file is fine; an unreadable or malformed one is a problem (file and
 * message) and the other files still load.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { McpConfigSource, McpInputRequest, McpServerConfig } from '../serverConfig';
import { isPlainObject, readJsoncObjectFile } from './jsoncFile';
import { readServerEntry } from './serverEntry';
import type { VariableContext, VariableDialect } from './variables';

export interface LoadMcpConfigOptions {
  workspaceFolder: string;
  /** VS Code's user `mcp.json` (env `CATALYST_CODE_VSCODE_MCP_CONFIG`); absent outside VS Code. */
  vscodeUserConfigPath?: string;
  /** Our own user file: `catalystUserMcpConfigPath(configDir)`. */
  catalystUserConfigPath: string;
  env: Record<string, string | undefined>;
  /** `${input:id}` values the user already gave (never stored by the core). */
  inputs: Record<string, string>;
  /** Defaults to the OS home directory. */
  userHome?: string;
}

export interface McpConfigProblem {
  file: string;
  message: string;
}

export interface LoadedMcpConfig {
  servers: McpServerConfig[];
  needInputs: McpInputRequest[];
  problems: McpConfigProblem[];
}

interface SourceFile {
  source: McpConfigSource;
  file: string;
  dialect: VariableDialect;
  /** The top-level key the format documents; the other one is accepted too. */
  serversKey: 'servers' | 'mcpServers';
}

/** Lower rank wins a name clash. */
const CLASH_RANK: Record<McpConfigSource, number> = {
  'catalyst-user': 0,
  'vscode-user': 1,
  'vscode-workspace': 2,
  'mcp-json': 3,
  cursor: 4,
};

const TOP_LEVEL_KEYS = new Set(['servers', 'mcpServers', 'inputs']);

export function catalystUserMcpConfigPath(configDir: string): string {
  return join(configDir, 'mcp.json');
}

export function mcpConfigFiles(
  opts: Pick<LoadMcpConfigOptions, 'workspaceFolder' | 'vscodeUserConfigPath' | 'catalystUserConfigPath'>,
): SourceFile[] {
  const ws = opts.workspaceFolder;
  const files: SourceFile[] = [];
  if (opts.vscodeUserConfigPath)
    files.push({ source: 'vscode-user', file: opts.vscodeUserConfigPath, dialect: 'vscode', serversKey: 'servers' });
  files.push(
    { source: 'vscode-workspace', file: join(ws, '.vscode', 'mcp.json'), dialect: 'vscode', serversKey: 'servers' },
    { source: 'mcp-json', file: join(ws, '.mcp.json'), dialect: 'claude', serversKey: 'mcpServers' },
    { source: 'cursor', file: join(ws, '.cursor', 'mcp.json'), dialect: 'vscode', serversKey: 'mcpServers' },
    { source: 'catalyst-user', file: opts.catalystUserConfigPath, dialect: 'vscode', serversKey: 'servers' },
  );
  return files;
}

export function loadMcpConfig(opts: LoadMcpConfigOptions): LoadedMcpConfig {
  const vars: VariableContext = {
    workspaceFolder: opts.workspaceFolder,
    userHome: opts.userHome ?? homedir(),
    env: opts.env,
    inputs: opts.inputs,
  };
  const problems: McpConfigProblem[] = [];
  const inputs = new Map<string, McpInputRequest>();
  const servers: McpServerConfig[] = [];
  for (const source of mcpConfigFiles(opts)) {
    const read = readJsoncObjectFile(source.file);
    if (read.kind === 'missing') continue;
    if (read.kind === 'problem') {
      problems.push({ file: source.file, message: `${source.file} ${read.message}; its servers are not loaded` });
      continue;
    }
    const problem = (message: string): void => void problems.push({ file: source.file, message });
    declareInputs(read.value.inputs, inputs, problem);
    for (const key of Object.keys(read.value)) if (!TOP_LEVEL_KEYS.has(key)) problem(`top-level key "${key}" is not supported; ignored`);
    for (const [name, entry] of serverEntries(read.value, source, problem)) {
      const result = readServerEntry(name, entry, { source: source.source, file: source.file, dialect: source.dialect, vars });
      if (!result.ok) {
        problem(`${result.message}; not loaded`);
        continue;
      }
      result.warnings.forEach(problem);
      for (const id of result.missingInputs) requestInput(inputs, id, name, problem);
      servers.push(result.config);
    }
  }
  const unique = resolveClashes(servers, problems);
  const waiting = new Set(unique.map((s) => s.name));
  const needInputs = [...inputs.values()]
    .map((req) => ({ ...req, servers: req.servers.filter((s) => waiting.has(s)) }))
    .filter((req) => req.servers.length > 0);
  return { servers: unique, needInputs, problems };
}

/** The file's server entries: its documented key first, then the other spelling (VS Code migrates `mcpServers`). */
function serverEntries(doc: Record<string, unknown>, source: SourceFile, problem: (m: string) => void): [string, unknown][] {
  const other = source.serversKey === 'servers' ? 'mcpServers' : 'servers';
  const entries = new Map<string, unknown>();
  for (const key of [source.serversKey, other]) {
    const block = doc[key];
    if (block === undefined) continue;
    if (!isPlainObject(block)) {
      problem(`"${key}" must be an object of servers; ignored`);
      continue;
    }
    if (key === other && source.source === 'mcp-json') problem('uses VS Code\'s "servers" key; Claude Code reads only "mcpServers"');
    for (const [name, entry] of Object.entries(block)) {
      if (entries.has(name))
        problem(`server "${name}" is defined under both "servers" and "mcpServers"; the "${source.serversKey}" one is used`);
      else entries.set(name, entry);
    }
  }
  return [...entries];
}

function declareInputs(value: unknown, inputs: Map<string, McpInputRequest>, problem: (m: string) => void): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) return problem('"inputs" must be an array; ignored');
  for (const input of value) {
    if (!isPlainObject(input) || typeof input.id !== 'string' || input.id === '') {
      problem('an "inputs" entry has no "id"; ignored');
      continue;
    }
    if (inputs.has(input.id)) continue; // the first file that declares an id describes it
    let description = typeof input.description === 'string' && input.description !== '' ? input.description : input.id;
    if (input.type === 'pickString' && Array.isArray(input.options)) {
      description += ` (one of: ${input.options.map((o) => (isPlainObject(o) ? String(o.value ?? o.label) : String(o))).join(', ')})`;
    } else if (input.type !== undefined && input.type !== 'promptString' && input.type !== 'pickString') {
      problem(`input "${input.id}" has type ${JSON.stringify(input.type)}; it is asked as a text prompt`);
    }
    inputs.set(input.id, { id: input.id, description, password: input.password === true, servers: [] });
  }
}

function requestInput(inputs: Map<string, McpInputRequest>, id: string, server: string, problem: (m: string) => void): void {
  let req = inputs.get(id);
  if (!req) {
    problem(`server "${server}" uses \${input:${id}}, which no "inputs" entry declares; it is asked as a secret`);
    req = { id, description: id, password: true, servers: [] };
    inputs.set(id, req);
  }
  if (!req.servers.includes(server)) req.servers.push(server);
}

function resolveClashes(servers: McpServerConfig[], problems: McpConfigProblem[]): McpServerConfig[] {
  const winners = new Map<string, McpServerConfig>();
  for (const server of servers) {
    const held = winners.get(server.name);
    if (!held || CLASH_RANK[server.source] < CLASH_RANK[held.source]) winners.set(server.name, server);
  }
  for (const server of servers) {
    const winner = winners.get(server.name);
    if (winner && winner !== server) {
      problems.push({
        file: server.file,
        message: `server "${server.name}" is also defined in ${winner.file}, which wins; this one is not loaded`,
      });
    }
  }
  return servers.filter((s) => winners.get(s.name) === s);
}

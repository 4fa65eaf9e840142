/**
 * One MCP server as the core runs it, after its configuration file was read, its variables were expanded and its
 * source was ranked (see `docs/architecture.md`, "MCP"). The config loader produces these; the server manager
 * consumes them. Nothing here holds a secret in clear once it leaves the loader except `env`/`headers`, which go
 * only to the spawned server or the HTTP request, never to an event, a log or a session file.
 */
export type McpConfigSource =
  | 'vscode-user' // VS Code's user (profile) mcp.json, path handed over by the extension
  | 'vscode-workspace' // <folder>/.vscode/mcp.json
  | 'mcp-json' // <folder>/.mcp.json (Claude Code's format)
  | 'cursor' // <folder>/.cursor/mcp.json
  | 'catalyst-user'; // our own user file

export type McpTransportConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string> };

export interface McpServerConfig {
  /** The server's key in its file; unique after precedence (a higher source hides a lower one of the same name). */
  name: string;
  source: McpConfigSource;
  /** Absolute path of the file it came from. */
  file: string;
  transport: McpTransportConfig;
  /** Keys we read but do not support (`dev`, `sandbox`, `sandboxEnabled`, …): shown to the user, never dropped silently. */
  unsupported: string[];
  /** Workspace-file servers run only after the user trusts this exact launch configuration. */
  needsTrust: boolean;
  /** Hash of the launch configuration (command, args, env names and values, cwd / url, headers); a change asks again. */
  trustNonce: string;
  startupTimeoutMs: number; // default 30 000
  callTimeoutMs: number; // default 60 000, reset on progress
}

/** A `${input:id}` the configuration needs and the core does not have yet (asked once by the extension). */
export interface McpInputRequest {
  id: string;
  description: string;
  password: boolean;
  /** Servers that wait for it. */
  servers: string[];
}

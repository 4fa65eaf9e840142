/**
 * What the user decided about MCP servers in a workspace: servers and tools turned off, and trust decisions for
 * workspace-defined servers. Kept in `~/.config/catalyst-code/mcp-state.json`, keyed by the canonical workspace —
 * never in the shared mcp.json files, which a repository ships and VS Code rewrites:
 *
 *   { "workspaces": { "<canonical ws>": { "servers": { "<name>": {
 *       "enabled": false, "tools": { "<tool>": false }, "trust": { "nonce": "<trustNonce>", "decision": "trusted" } } } } } }
 *
 * A trust decision holds for one launch configuration only: a server whose nonce changed (its command, URL or env
 * changed) is undecided again and asks. Only "off" is stored: a server or tool is on unless the user turned it off.
 * Every change is written at once (atomically, under a lock), so it sticks across restarts and reloads.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { LockedJsonFile } from '../../platform/lockedJsonFile';

export type McpTrustDecision = 'trusted' | 'distrusted';

interface ServerState {
  enabled?: false;
  tools?: Record<string, false>;
  trust?: { nonce: string; decision: McpTrustDecision };
}

interface WorkspaceState {
  servers: Record<string, ServerState>;
}

interface StateData {
  workspaces: Record<string, WorkspaceState>;
}

export function mcpStatePath(configDir: string): string {
  return join(configDir, 'mcp-state.json');
}

export class McpState {
  private readonly file: LockedJsonFile<StateData>;
  private readonly workspace: string;
  private current: WorkspaceState;

  constructor(configDir: string, workspace: string) {
    const path = mcpStatePath(configDir);
    this.file = new LockedJsonFile(path, `${path}.lock`, stateData, () => ({ workspaces: {} }));
    this.workspace = canonical(workspace);
    this.current = this.project(this.file.read());
  }

  get path(): string {
    return this.file.path;
  }

  /** Re-reads the file (another core may have changed it). */
  reload(): void {
    this.current = this.project(this.file.read());
  }

  isServerEnabled(name: string): boolean {
    return this.server(name)?.enabled !== false;
  }

  isToolEnabled(server: string, tool: string): boolean {
    return this.server(server)?.tools?.[tool] !== false;
  }

  /** Turns a server (`tool` undefined) or one of its tools on or off; throws when the state cannot be written. */
  setEnabled(server: string, tool: string | undefined, enabled: boolean): void {
    this.change(server, (s) => {
      if (tool === undefined) {
        if (enabled) delete s.enabled;
        else s.enabled = false;
        return;
      }
      const tools = { ...s.tools };
      if (enabled) delete tools[tool];
      else tools[tool] = false;
      if (Object.keys(tools).length > 0) s.tools = tools;
      else delete s.tools;
    });
  }

  /** The decision for this exact launch configuration, or undefined when the user was not asked about it yet. */
  trustDecision(name: string, nonce: string): McpTrustDecision | undefined {
    const trust = this.server(name)?.trust;
    return trust?.nonce === nonce ? trust.decision : undefined;
  }

  decideTrust(name: string, nonce: string, decision: McpTrustDecision): void {
    this.change(name, (s) => (s.trust = { nonce, decision }));
  }

  /** Forgets every trust decision of this workspace ("MCP: Reset Trust"); toggles stay. */
  resetTrust(): void {
    this.current = this.project(
      this.file.update((data) => {
        const ws: unknown = Object.hasOwn(data.workspaces, this.workspace) ? data.workspaces[this.workspace] : undefined;
        for (const s of Object.values(isRecord(ws) && isRecord(ws.servers) ? ws.servers : {})) if (isRecord(s)) delete s.trust;
      }),
    );
  }

  private server(name: string): ServerState | undefined {
    return Object.hasOwn(this.current.servers, name) ? this.current.servers[name] : undefined;
  }

  private change(name: string, edit: (s: ServerState) => void): void {
    const data = this.file.update((d) => {
      const held = Object.hasOwn(d.workspaces, this.workspace) ? d.workspaces[this.workspace] : undefined;
      const ws = isRecord(held) && isRecord(held.servers) ? held : (d.workspaces[this.workspace] = { servers: {} });
      const s: ServerState = Object.hasOwn(ws.servers, name) && isRecord(ws.servers[name]) ? ws.servers[name] : {};
      edit(s);
      if (Object.keys(s).length > 0) ws.servers[name] = s;
      else delete ws.servers[name];
    });
    this.current = this.project(data);
  }

  private project(data: StateData): WorkspaceState {
    const ws: unknown = Object.hasOwn(data.workspaces, this.workspace) ? data.workspaces[this.workspace] : undefined;
    return { servers: wellFormed(isRecord(ws) ? ws.servers : undefined) };
  }
}

/** The file as it is (keys this version does not know are kept on write); only its outer shape is checked. */
function stateData(raw: unknown): StateData {
  if (!isRecord(raw)) throw new Error('not an object');
  if (!isRecord(raw.workspaces)) raw.workspaces = {};
  return raw as unknown as StateData;
}

/** Only well-formed entries count, so a hand-edited file cannot make a tool look on when it is off or vice versa. */
function wellFormed(servers: unknown): Record<string, ServerState> {
  const out: Record<string, ServerState> = {};
  for (const [name, s] of Object.entries(isRecord(servers) ? servers : {})) {
    if (!isRecord(s)) continue;
    const state: ServerState = {};
    if (s.enabled === false) state.enabled = false;
    const tools = Object.entries(isRecord(s.tools) ? s.tools : {}).filter(([, v]) => v === false);
    if (tools.length > 0) state.tools = Object.fromEntries(tools.map(([t]) => [t, false as const]));
    const trust = s.trust;
    if (isRecord(trust) && typeof trust.nonce === 'string' && (trust.decision === 'trusted' || trust.decision === 'distrusted'))
      state.trust = { nonce: trust.nonce, decision: trust.decision };
    out[name] = state;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

// A client of the core written from upstream's shapes, not from ours: the wire types of upstream's SDK
// (sdk/src/core-events.ts, sdk/src/core-process.ts) and the fields its web UI reads (web/src/lib/reducer.ts), as
// the research report quotes them. It imports nothing from src/: the regression net for drop-in fidelity is a client
// that only knows what upstream's clients know.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
// Test infrastructure, not protocol knowledge: the jitter test mode's variable, passed on to the core.
import { inheritedCoreEnv } from './coreTestEnv';

/** Upstream's `CoreEvent`: an open object with a `type`, and the v2 metadata. */
export type UpstreamEvent = { type: string; protocol_version?: number; session_id?: string; run_id?: string; sequence?: number } & Record<
  string,
  unknown
>;

type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string|null';

/** The fields upstream's SDK and web UI read from each event they handle, with the JSON type they read them as. */
export const UPSTREAM_READS: Readonly<Record<string, Readonly<Record<string, FieldKind>>>> = {
  ready: {
    models: 'array',
    authed: 'boolean',
    workspace: 'string',
    approval: 'string',
    provider: 'string',
    providerKind: 'string',
    providers: 'array',
  },
  protocol_hello: { version: 'string', protocol_version: 'number', min_client: 'string', capabilities: 'array' },
  delta: { text: 'string' },
  tool_call: { id: 'string', name: 'string', args: 'string' },
  tool_result: { id: 'string', ok: 'boolean', status: 'string', output: 'string' },
  approval_request: { request_id: 'string', tool_call_id: 'string', tool: 'string', risk: 'string', args: 'string' },
  file_change: { path: 'string', tool: 'string' },
  bash_execution: { command: 'string', ok: 'boolean', output: 'string', exclude_from_context: 'boolean' },
  compacting: {
    trigger: 'string',
    before_tokens: 'number',
    context_window: 'number',
    threshold_tokens: 'number',
    hard_limit_tokens: 'number',
  },
  compacted: {
    before_tokens: 'number',
    after_tokens: 'number',
    within_limit: 'boolean',
    summary_chars: 'number',
    context_window: 'number',
  },
  session_changed: { path: 'string', new: 'boolean' },
  sessions: { sessions: 'array', files: 'array' },
  stats: { tokens_in: 'number', tokens_out: 'number', turns: 'number', messages: 'number', session_file: 'string' },
  memory_list: { entries: 'array', count: 'number' },
  plugins_list: { plugins: 'array' },
  plugin_commands: { commands: 'array' },
  vision_config: { enabled: 'boolean', vision_models: 'array', vision_model: 'string|null' },
  skills: { skills: 'array' },
  checkpoints: { checkpoints: 'array' },
  info: { message: 'string' },
  // Subagents (research catcode-agents.md §1.5-§1.9: web/src/lib/reducer.ts:1282-1402 and the SDK's event table).
  agents: { agents: 'array' },
  subagent_start: { run_id: 'string', mode: 'string', agents: 'array', task: 'string', depth: 'number', started_at: 'number' },
  subagent_progress: {
    run_id: 'string',
    agent: 'string',
    phase: 'string',
    tool_count: 'number',
    tokens_in: 'number',
    tokens_out: 'number',
    elapsed_ms: 'number',
  },
  subagent_message: { run_id: 'string', role: 'string', content: 'string' },
  subagent_tool_call: { run_id: 'string', call_id: 'string', name: 'string', args: 'object', tool_count: 'number' },
  subagent_tool_result: { run_id: 'string', call_id: 'string', name: 'string', result: 'string', ok: 'boolean' },
  subagent_done: { run_id: 'string', state: 'string', ended_at: 'number', duration_ms: 'number' },
  intercom_message: { id: 'string', from: 'string', to: 'string', reason: 'string', message: 'string' },
  worktree_ready: { run_id: 'string', path: 'string', branch: 'string' },
  worktree_seeded: { run_id: 'string', paths: 'array' },
  worktree_promoted: { run_id: 'string', paths: 'array' },
  worktree_cleaned: { path: 'string' },
};

/** The 7 values of upstream's `ToolResultStatus`. */
export const TOOL_RESULT_STATUSES = ['success', 'denied', 'cancelled', 'timed_out', 'failed', 'stale', 'partially_completed'];

/** What an event lacks of what upstream reads from it: "field: expected kind, got …" lines, empty when nothing. */
export function missingUpstreamFields(event: UpstreamEvent): string[] {
  const reads = UPSTREAM_READS[event.type] ?? {};
  return Object.entries(reads)
    .filter(([field, kind]) => !hasKind(event[field], kind))
    .map(([field, kind]) => `${event.type}.${field}: expected ${kind}, got ${JSON.stringify(event[field])}`);
}

function parseEvent(line: string): UpstreamEvent | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && typeof (value as UpstreamEvent).type === 'string'
      ? (value as UpstreamEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (kind === 'string|null') return value === null || typeof value === 'string';
  return typeof value === kind;
}

export interface UpstreamClientOptions {
  workspace: string;
  home: string;
  sessionFile: string;
  approval?: 'never' | 'destructive' | 'always';
}

/** dist/core.js, or the build CATALYST_TEST_CORE_JS names (as test/support/coreProcess.ts). */
const CORE_JS = process.env.CATALYST_TEST_CORE_JS ?? resolve(__dirname, '../../dist/core.js');

/** Spawns the core the way upstream's SDK `CoreProcess` does and records every event line it prints. */
export class UpstreamShapedClient {
  readonly events: UpstreamEvent[] = [];
  /** Stdout lines that are not a JSON object with a string `type` (the SDK skips them; a drop-in core prints none). */
  readonly badLines: string[] = [];
  private readonly waiters = new Set<() => void>();
  private exited = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
    child.stderr.resume();
    child.on('exit', () => ((this.exited = true), this.notify()));
  }

  /** `--workspace --approval --session --debug-log`, as the SDK passes them; cwd is the workspace. */
  static spawn(o: UpstreamClientOptions): UpstreamShapedClient {
    const args = [
      '--workspace',
      o.workspace,
      '--approval',
      o.approval ?? 'destructive',
      '--session',
      o.sessionFile,
      '--debug-log',
      join(o.home, 'debug.jsonl'),
    ];
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: o.home,
      XDG_CONFIG_HOME: join(o.home, '.config'),
      CATALYST_CODE_NO_BROWSER: '1',
      ...inheritedCoreEnv(),
    };
    return new UpstreamShapedClient(spawn(process.execPath, [CORE_JS, ...args], { cwd: o.workspace, env, stdio: 'pipe' }));
  }

  /** The SDK's handshake: `init` v2 as `catcode-sdk`, resolved by `ready`. */
  async start(): Promise<UpstreamEvent> {
    this.send({
      type: 'init',
      protocol_version: 2,
      client: { name: 'catcode-sdk', version: '0.2.0', capabilities: ['run_ids', 'session_ids', 'event_sequence'] },
    });
    return this.next('ready', 0);
  }

  send(command: { type: string } & Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Sends a command and resolves with the first event of `type` printed after it. */
  async request(command: { type: string } & Record<string, unknown>, type: string): Promise<UpstreamEvent> {
    const from = this.events.length;
    this.send(command);
    return this.next(type, from);
  }

  /** The first event of `type` from index `from` on. The deadline only turns a hang into a failure. */
  next(type: string, from: number, hangGuardMs = 30_000): Promise<UpstreamEvent> {
    return new Promise((resolvePromise, reject) => {
      const check = (): void => {
        const found = this.events.slice(from).find((e) => e.type === type);
        if (found) return settle(() => resolvePromise(found));
        if (this.exited) settle(() => reject(new Error(`the core exited before ${type}; last events: ${this.tail()}`)));
      };
      const timer = setTimeout(
        () => settle(() => reject(new Error(`no ${type} within ${hangGuardMs} ms; last events: ${this.tail()}`))),
        hangGuardMs,
      );
      const settle = (finish: () => void): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        finish();
      };
      this.waiters.add(check);
      check();
    });
  }

  ofType(type: string, from = 0): UpstreamEvent[] {
    return this.events.slice(from).filter((e) => e.type === type);
  }

  /** The SDK's shutdown: close stdin (the core exits on EOF), SIGKILL after 3 s. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exit;
    clearTimeout(timer);
  }

  private onLine(line: string): void {
    const trimmed = line.trim();
    if (!trimmed) return;
    const event = parseEvent(trimmed);
    if (event) this.events.push(event);
    else this.badLines.push(trimmed.slice(0, 200));
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private tail(): string {
    return this.events
      .slice(-12)
      .map((e) => JSON.stringify(e).slice(0, 240))
      .join('\n');
  }
}

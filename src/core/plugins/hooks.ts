/**
 * Upstream's hook protocol (`execute_hook`, `build_context`, `apply_modify`): one process per plugin per invocation in
 * plugin-name order, a JSON context on stdin, `{allow, reason?, modify?, notify?, status?}` on stdout. A missing `allow`
 * is a deny; a failure (exit, timeout, empty or invalid stdout) denies for pre hooks and is skipped for the rest.
 */
import type { PreHooksResult } from '../agent/gatePlugins';
import type { ToolOutcome } from '../tools/types';
import { isObject } from './manifest';
import { exitStatusText, runPluginScript } from './scriptRunner';
import type { HookConfig, HookPoint, Plugin } from './types';

/** What a hook run needs of the core: where it runs, and where its `notify`/`status` go. */
export interface HookHost {
  workspace: string;
  /** The session file's path, or "" (upstream's `session_id` in a hook's context). */
  sessionId: string;
  env: NodeJS.ProcessEnv;
  notify(plugin: string, notify: string | undefined, status: string | undefined): void;
}

interface HookResult {
  allow: boolean;
  reason: string;
  modify?: unknown;
}

const PRE_POINTS: ReadonlySet<HookPoint> = new Set(['pre_bash', 'pre_write', 'pre_read', 'pre_tool', 'pre_input']);

export async function executeHook(host: HookHost, point: HookPoint, plugin: string, cfg: HookConfig, context: object): Promise<HookResult> {
  const blocking = PRE_POINTS.has(point);
  const fail = (message: string): HookResult =>
    blocking ? { allow: false, reason: message } : { allow: true, reason: `[${plugin}] ${message}` };
  const run = await runPluginScript({
    script: cfg.script,
    input: JSON.stringify(context),
    timeoutMs: cfg.timeoutMs,
    env: host.env,
    label: 'plugin hook',
  });
  if (run.kind === 'timed_out' || run.kind === 'aborted') return fail(`hook '${point}' timed out after ${cfg.timeoutMs}ms`);
  if (run.kind === 'failed') return fail(run.message);
  if (run.code !== 0) return fail(`hook '${point}' exited with ${exitStatusText(run.code, run.signal)}: ${run.stderr.trim()}`);
  const stdout = run.stdout.trim();
  if (!stdout) return fail(`hook '${point}' returned empty stdout`);
  let response: unknown;
  try {
    response = JSON.parse(stdout);
  } catch (err) {
    return fail(`hook '${point}' returned invalid JSON: ${(err as Error).message}`);
  }
  const r = isObject(response) ? response : {};
  const reason = typeof r.reason === 'string' ? r.reason : '';
  host.notify(
    plugin,
    typeof r.notify === 'string' ? r.notify : undefined,
    'status' in r ? (typeof r.status === 'string' ? r.status : '') : undefined,
  );
  if (!blocking) return { allow: true, reason: reason ? `[${plugin}] ${reason}` : '', modify: r.modify };
  return { allow: r.allow === true, reason, modify: r.modify };
}

function context(host: HookHost, point: HookPoint, tool: string, args: object | undefined, passArgs: boolean): Record<string, unknown> {
  return {
    hook: point,
    tool,
    workspace: host.workspace,
    session_id: host.sessionId,
    timestamp: Math.floor(Date.now() / 1000),
    ...(passArgs && args ? { args } : {}),
  };
}

/** The enabled plugins that register `point`, in name order. */
function hooked(plugins: readonly Plugin[], point: HookPoint): Array<[Plugin, HookConfig]> {
  return plugins
    .filter((p) => p.enabled && p.hooks.has(point))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((p) => [p, p.hooks.get(point)!]);
}

/** upstream: pre_bash for bash; pre_write for write_file and edit; pre_read for read_file, grep and glob. */
function specificPoint(tool: string, phase: 'pre' | 'post'): HookPoint | undefined {
  if (tool === 'bash') return `${phase}_bash`;
  if (tool === 'write_file' || tool === 'edit') return `${phase}_write`;
  if (tool === 'read_file' || tool === 'grep' || tool === 'glob') return `${phase}_read`;
  return undefined;
}

function pointsFor(tool: string, phase: 'pre' | 'post'): HookPoint[] {
  const points: HookPoint[] = [];
  const specific = specificPoint(tool, phase);
  if (specific) points.push(specific);
  if (tool !== 'finish') points.push(`${phase}_tool`);
  return points;
}

export function hasToolHooks(plugins: readonly Plugin[], tool: string, phase: 'pre' | 'post'): boolean {
  return pointsFor(tool, phase).some((point) => hooked(plugins, point).length > 0);
}

/** The specific pre hook, then pre_tool; each hook sees the arguments as the earlier ones changed them. */
export async function runPreToolHooks(
  host: HookHost,
  plugins: readonly Plugin[],
  tool: string,
  original: Record<string, unknown>,
): Promise<PreHooksResult> {
  let args = { ...original };
  const rewrittenBy: string[] = [];
  const notes: string[] = [];
  for (const point of pointsFor(tool, 'pre')) {
    for (const [plugin, cfg] of hooked(plugins, point)) {
      const result = await executeHook(host, point, plugin.name, cfg, context(host, point, tool, args, cfg.passArgs));
      if (!result.allow) {
        return {
          denied: `tool call '${tool}' denied by plugin '${plugin.name}' hook '${point}': ${result.reason}`,
          args,
          rewrittenBy,
          notes,
        };
      }
      if (result.reason) notes.push(`${plugin.name}/${point}: ${result.reason}`);
      if (isObject(result.modify)) {
        const next = { ...args, ...result.modify };
        if (JSON.stringify(next) !== JSON.stringify(args)) rewrittenBy.push(`${plugin.name}/${point}`);
        args = next;
      }
    }
  }
  return { args, rewrittenBy, notes };
}

/** The specific post hook, then post_tool; each may replace `output`, `ok` and `diff` of the result. Never blocks. */
export async function runPostToolHooks(
  host: HookHost,
  plugins: readonly Plugin[],
  tool: string,
  args: Record<string, unknown>,
  outcome: ToolOutcome,
  notes: string[],
): Promise<ToolOutcome> {
  let current = outcome;
  for (const point of pointsFor(tool, 'post')) {
    for (const [plugin, cfg] of hooked(plugins, point)) {
      const ctx = {
        ...context(host, point, tool, args, cfg.passArgs),
        result: { ok: current.ok, output: current.output, diff: current.diff ?? null },
      };
      const result = await executeHook(host, point, plugin.name, cfg, ctx);
      if (result.reason) notes.push(result.reason);
      if (isObject(result.modify)) current = applyResultModify(current, result.modify);
    }
  }
  return current;
}

function applyResultModify(outcome: ToolOutcome, modify: Record<string, unknown>): ToolOutcome {
  const next = { ...outcome };
  if (typeof modify.output === 'string') next.output = modify.output;
  if (typeof modify.ok === 'boolean') {
    next.ok = modify.ok;
    if (!modify.ok && next.status === 'success') next.status = 'failed';
  }
  if (typeof modify.diff === 'string') next.diff = modify.diff;
  else if (modify.diff === null) delete next.diff;
  return next;
}

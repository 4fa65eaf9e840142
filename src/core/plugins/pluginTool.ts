/** A plugin-declared tool as one of the core's tools (upstream's `execute_plugin_tool`): its script is its handler. */
import type { ToolDefinition, ToolOutcome } from '../tools/types';
import { isObject } from './manifest';
import { exitStatusText, runPluginScript, type ScriptResult } from './scriptRunner';
import type { PluginToolConfig } from './types';

export interface PluginToolHost {
  env: NodeJS.ProcessEnv;
  /** The session file's path, or "". */
  sessionId(): string;
  notify(plugin: string, notify: string | undefined, status: string | undefined): void;
}

export function pluginToolDefinition(cfg: PluginToolConfig, host: PluginToolHost): ToolDefinition {
  return {
    name: cfg.name,
    kind: cfg.kind,
    schema: { name: cfg.name, description: cfg.description, parameters: cfg.parameters },
    targets: () => ({ paths: [] }),
    execute: async (args, ctx) => {
      const input = JSON.stringify({
        args,
        workspace: ctx.workspace,
        session_id: host.sessionId(),
        timestamp: Math.floor(Date.now() / 1000),
      });
      const run = await runPluginScript({
        script: cfg.script,
        input,
        timeoutMs: cfg.timeoutMs,
        env: host.env,
        label: 'plugin tool',
        signal: ctx.signal,
      });
      return toolOutcome(cfg, run, host);
    },
  };
}

/** The handler's answer, also a script command's: `{ok?, output|result, error?, notify?, status?}`, or plain text. */
export function scriptAnswer(
  label: string,
  run: Extract<ScriptResult, { kind: 'exited' }>,
  plugin: string,
  notify: PluginToolHost['notify'],
): { ok: boolean; output: string } {
  if (run.code !== 0)
    return { ok: false, output: `${label} handler exited with ${exitStatusText(run.code, run.signal)}: ${run.stderr.trim()}` };
  const stdout = run.stdout.trim();
  if (!stdout) return { ok: false, output: `${label} handler returned empty stdout` };
  let v: unknown;
  try {
    v = JSON.parse(stdout);
  } catch {
    return { ok: true, output: stdout };
  }
  if (!isObject(v)) return { ok: true, output: stdout };
  notify(
    plugin,
    typeof v.notify === 'string' ? v.notify : undefined,
    'status' in v ? (typeof v.status === 'string' ? v.status : '') : undefined,
  );
  if (typeof v.error === 'string' && v.error) return { ok: false, output: `${label}: ${v.error}` };
  const text = typeof v.output === 'string' ? v.output : typeof v.result === 'string' ? v.result : stdout;
  return { ok: v.ok !== false, output: text };
}

function toolOutcome(cfg: PluginToolConfig, run: ScriptResult, host: PluginToolHost): ToolOutcome {
  const label = `plugin tool '${cfg.name}'`;
  switch (run.kind) {
    case 'timed_out':
      return { ok: false, output: `${label} handler timed out after ${cfg.timeoutMs}ms`, status: 'timed_out', fileChanges: [] };
    case 'aborted':
      return { ok: false, output: `${cfg.name} aborted`, status: 'cancelled', fileChanges: [] };
    case 'failed':
      return { ok: false, output: run.message, status: 'failed', fileChanges: [] };
    case 'exited': {
      const answer = scriptAnswer(label, run, cfg.plugin, host.notify);
      return { ...answer, status: answer.ok ? 'success' : 'failed', fileChanges: [] };
    }
  }
}

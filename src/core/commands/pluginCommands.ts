/** The plugin commands (research A §7.3, §7.6): list, install, remove, enable, disable, reload, trust, plugin_command. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { MAX_PROMPT_COMMAND_BYTES } from '../plugins/pluginPaths';
import { scriptAnswer } from '../plugins/pluginTool';
import { runPluginScript } from '../plugins/scriptRunner';
import type { Plugin, PluginCommandConfig, PluginScope, TrustDecision } from '../plugins/types';
import type { SessionEventOf } from '../runtime/eventSink';
import { refreshingOauthPresets } from './providerEvents';
import { startOrQueue } from '../app/turns';

export function pluginsListEvent(rt: CoreRuntime): SessionEventOf<'plugins_list'> {
  return { type: 'plugins_list', plugins: rt.plugins.manager.list().map(pluginInfo) };
}

function pluginInfo(p: Plugin) {
  return {
    name: p.name,
    version: p.version,
    enabled: p.enabled,
    description: p.description,
    hooks: [...p.hooks.keys()].sort(),
    tools: p.tools.map((t) => t.name),
    commands: p.commands.map((c) => c.name),
    disable_tools: p.disableTools,
    has_oauth: p.hasOauth,
    has_memory_provider: p.hasMemoryProvider,
    has_system_prompt: p.systemPrompt !== undefined,
    path: p.dir,
    scope: p.scope,
  };
}

export function pluginCommandsEvent(rt: CoreRuntime): SessionEventOf<'plugin_commands'> {
  const commands = rt.plugins.manager
    .enabled()
    .flatMap((p) => p.commands.map((c) => ({ name: c.name, description: c.description, plugin: p.name, mode: c.mode })));
  return { type: 'plugin_commands', commands };
}

/** `list_plugins`: upstream answers `plugins_list`, then `plugin_commands`. */
export function handleListPlugins(rt: CoreRuntime): void {
  rt.emit(pluginsListEvent(rt));
  rt.emit(pluginCommandsEvent(rt));
}

/** `list_plugin_commands` (the TUI sends it after `ready`). */
export function handleListPluginCommands(rt: CoreRuntime): void {
  rt.emit(pluginCommandsEvent(rt));
}

export function handleInstallPlugin(rt: CoreRuntime, cmd: CommandOf<'install_plugin'>): void {
  refreshingOauthPresets(rt, () => installPlugin(rt, cmd));
}

function installPlugin(rt: CoreRuntime, cmd: CommandOf<'install_plugin'>): void {
  const source = typeof cmd.path === 'string' ? cmd.path : '';
  try {
    const p = rt.plugins.manager.install(source, installScope(cmd.scope));
    rt.emit({
      type: 'plugin_installed',
      name: p.name,
      version: p.version,
      description: p.description,
      hooks: [...p.hooks.keys()].sort(),
      scope: p.scope,
      path: p.dir,
    });
  } catch (err) {
    rt.emit({ type: 'plugin_error', name: source, message: (err as Error).message });
  }
}

/** upstream's `PluginInstallScope::parse`. */
function installScope(value: unknown): PluginScope {
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (['', 'global', 'user', 'g', '-g', '--global'].includes(s)) return 'global';
  if (['workspace', 'project', 'local', 'w', '-w', '--workspace'].includes(s)) return 'workspace';
  throw new Error(`unknown plugin scope '${s}' (use 'global' or 'workspace')`);
}

export function handleRemovePlugin(rt: CoreRuntime, cmd: CommandOf<'remove_plugin'>): void {
  byName(rt, cmd.name, (name) => {
    rt.plugins.manager.remove(name);
    rt.emit({ type: 'plugin_removed', name });
  });
}

export function handleEnablePlugin(rt: CoreRuntime, cmd: CommandOf<'enable_plugin'>): void {
  byName(rt, cmd.name, (name) => {
    rt.plugins.manager.setEnabled(name, true);
    rt.emit({ type: 'plugin_enabled', name });
  });
}

export function handleDisablePlugin(rt: CoreRuntime, cmd: CommandOf<'disable_plugin'>): void {
  byName(rt, cmd.name, (name) => {
    rt.plugins.manager.setEnabled(name, false);
    rt.emit({ type: 'plugin_disabled', name });
  });
}

function byName(rt: CoreRuntime, value: unknown, act: (name: string) => void): void {
  const name = typeof value === 'string' ? value : '';
  refreshingOauthPresets(rt, () => {
    try {
      act(name);
    } catch (err) {
      rt.emit({ type: 'plugin_error', name, message: (err as Error).message });
    }
  });
}

export function handleReloadPlugins(rt: CoreRuntime): void {
  let errors: unknown[] = [];
  refreshingOauthPresets(rt, () => (errors = rt.plugins.manager.scan()));
  handleListPlugins(rt);
  const loaded = rt.plugins.manager.list().length;
  const skipped = rt.plugins.manager.skippedPlugins().length;
  rt.emit({ type: 'info', message: `plugins reloaded: ${loaded} loaded, ${skipped} skipped, ${errors.length} errors` });
}

export function trustPromptEvent(rt: CoreRuntime): SessionEventOf<'plugin_trust_prompt'> {
  return { type: 'plugin_trust_prompt', plugins: rt.plugins.manager.trustEntries() };
}

export function handlePluginTrustPrompt(rt: CoreRuntime): void {
  rt.emit(trustPromptEvent(rt));
}

export function handlePluginTrustDecisions(rt: CoreRuntime, cmd: CommandOf<'plugin_trust_decisions'>): void {
  const raw: Record<string, unknown> = typeof cmd.decisions === 'object' && cmd.decisions !== null ? cmd.decisions : {};
  const invalid = Object.entries(raw)
    .filter(([, v]) => v !== 'trust' && v !== 'deny')
    .map(([k]) => k);
  if (invalid.length > 0) {
    rt.emit({
      type: 'error',
      code: 'invalid_command',
      message: `plugin_trust_decisions: invalid value for ${invalid.join(', ')} (expected "trust" or "deny")`,
    });
    return;
  }
  let applied: ReturnType<typeof rt.plugins.manager.applyDecisions>;
  try {
    applied = rt.plugins.manager.applyDecisions(Object.entries(raw) as Array<[string, TrustDecision]>);
  } catch (err) {
    rt.emit({ type: 'error', code: 'plugin_trust', message: (err as Error).message });
    return;
  }
  const { failed, ...decided } = applied;
  rt.emit({ type: 'plugin_trust_applied', ...decided, loaded: rt.plugins.manager.list().length });
  // Trusted, yet not loaded: said, or the user would take the plugin for working (the README promises a notification).
  for (const f of failed) rt.emit({ type: 'plugin_error', name: f.name, message: f.message });
  handleListPlugins(rt);
}

export async function handlePluginCommand(rt: CoreRuntime, cmd: CommandOf<'plugin_command'>): Promise<void> {
  const raw = typeof cmd.name === 'string' ? cmd.name : '';
  const name = raw.startsWith('/') ? raw.slice(1) : raw;
  const args = typeof cmd.args === 'string' ? cmd.args : '';
  const command = rt.plugins.manager
    .enabled()
    .flatMap((p) => p.commands)
    .find((c) => c.name === name);
  if (!command) {
    rt.emit({ type: 'error', code: 'unknown_plugin_command', message: `unknown plugin command '${name}'` });
    return;
  }
  if (command.mode === 'script') await runScriptCommand(rt, command, args);
  else startPromptCommand(rt, command, args);
}

async function runScriptCommand(rt: CoreRuntime, command: PluginCommandConfig, args: string): Promise<void> {
  const input = JSON.stringify({
    command: command.name,
    args,
    workspace: rt.workspace,
    session_id: basename(rt.conversation.path ?? ''),
    timestamp: Math.floor(Date.now() / 1000),
    plugin: command.plugin,
  });
  const label = `plugin command '${command.name}'`;
  const run = await runPluginScript({ script: command.script!, input, timeoutMs: command.timeoutMs, env: rt.env, label: 'plugin command' });
  let answer: { ok: boolean; output: string };
  if (run.kind === 'exited') answer = scriptAnswer(label, run, command.plugin, (p, n, s) => rt.plugins.notify(p, n, s));
  else if (run.kind === 'failed') answer = { ok: false, output: run.message };
  else answer = { ok: false, output: `${label} handler timed out after ${command.timeoutMs}ms` };
  if (answer.ok) rt.emit({ type: 'info', message: answer.output });
  else rt.emit({ type: 'error', code: 'plugin_command', message: answer.output });
}

function startPromptCommand(rt: CoreRuntime, command: PluginCommandConfig, args: string): void {
  let prompt: string;
  try {
    prompt = renderPrompt(rt, command, args);
  } catch (err) {
    rt.emit({ type: 'error', code: 'plugin_command', message: (err as Error).message });
    return;
  }
  if (!prompt.trim()) {
    rt.emit({
      type: 'error',
      code: 'plugin_command',
      message: `/${command.name} requires a request. Usage: /${command.name} <research request>`,
    });
    return;
  }
  const models = rt.providers.models();
  const model = rt.lastModel && models.some((m) => m.id === rt.lastModel) ? rt.lastModel : models[0]?.id;
  if (!model) {
    rt.emit({ type: 'error', code: 'no_model', message: 'no model available; set a provider/key first' });
    return;
  }
  rt.emit({ type: 'info', message: `/${command.name}${args ? ` ${args}` : ''} — starting agent turn` });
  startOrQueue(rt, { prompt, model, reasoning_effort: 'medium' });
}

/** upstream's `render_command_template`: `{{args}}`, `{{workspace}}`, … with optional spaces; unknown `{{…}}` stay. */
function renderPrompt(rt: CoreRuntime, command: PluginCommandConfig, args: string): string {
  const template = readFileSync(command.promptFile!, 'utf8');
  const values: Record<string, string> = {
    args,
    workspace: rt.workspace,
    session_id: basename(rt.conversation.path ?? ''),
    timestamp: String(Math.floor(Date.now() / 1000)),
    plugin: command.plugin,
    command: command.name,
  };
  const rendered = template.replace(/\{\{ ?(args|workspace|session_id|timestamp|plugin|command) ?\}\}/g, (_, key: string) => values[key]);
  if (Buffer.byteLength(rendered) > MAX_PROMPT_COMMAND_BYTES) {
    throw new Error(`rendered prompt for command '${command.name}' exceeds the ${MAX_PROMPT_COMMAND_BYTES} byte limit`);
  }
  return rendered;
}

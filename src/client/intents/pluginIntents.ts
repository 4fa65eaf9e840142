// The plugin commands as the UI sends them (docs/plans/issue-17-plugins.md §2, research A §7.3). The core checks every
// field again; these refuse what is plainly wrong before it is sent, with the text the user sees.
import type { CommandOf, InstallScope, PluginTrustDecision } from '../../protocol';

export type PluginAction = 'enable' | 'disable' | 'remove';

/** Decisions keyed by the plugin's path (names can collide; the core resolves paths too). An empty set is no command. */
export function trustDecisionsCommand(decisions: Record<string, unknown>): CommandOf<'plugin_trust_decisions'> | string {
  if (typeof decisions !== 'object' || decisions === null) return 'No trust decisions were given.';
  const entries = Object.entries(decisions);
  if (entries.length === 0) return 'No trust decisions were given.';
  const bad = entries.filter(([key, v]) => !key || (v !== 'trust' && v !== 'deny')).map(([key]) => key || '(empty)');
  if (bad.length > 0) return `A trust decision is "trust" or "deny" (not for ${bad.join(', ')}).`;
  return { type: 'plugin_trust_decisions', decisions: Object.fromEntries(entries) as Record<string, PluginTrustDecision> };
}

/** install_plugin from a local folder (absolute: the core resolves a relative one against its own cwd). */
export function installPluginCommand(path: string, scope: InstallScope): CommandOf<'install_plugin'> | string {
  const dir = typeof path === 'string' ? path.trim() : '';
  if (!dir) return 'Pick the plugin folder to install.';
  if (scope !== 'global' && scope !== 'workspace') return `Unknown plugin scope: ${String(scope)}.`;
  return { type: 'install_plugin', path: dir, scope };
}

export function pluginActionCommand(
  action: PluginAction,
  name: string,
): CommandOf<'enable_plugin' | 'disable_plugin' | 'remove_plugin'> | string {
  const plugin = typeof name === 'string' ? name.trim() : '';
  if (!plugin) return 'No plugin was named.';
  switch (action) {
    case 'enable':
      return { type: 'enable_plugin', name: plugin };
    case 'disable':
      return { type: 'disable_plugin', name: plugin };
    case 'remove':
      return { type: 'remove_plugin', name: plugin };
    default:
      return `Unknown plugin action: ${String(action)}.`;
  }
}

/** `/name args` for a plugin's command; `name` with or without its slash. */
export function runPluginCommand(name: string, args: string): CommandOf<'plugin_command'> | string {
  const command = typeof name === 'string' ? name.trim().replace(/^\//, '') : '';
  if (!command || /\s/.test(command)) return 'Name the plugin command: /plugin <command> [args].';
  return { type: 'plugin_command', name: command, args: typeof args === 'string' ? args.trim() : '' };
}

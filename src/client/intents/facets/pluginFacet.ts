import type { Command, InstallScope } from '../../../protocol';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import type { IntentContext } from '../intentContext';
import { installPluginCommand, pluginActionCommand, runPluginCommand, trustDecisionsCommand, type PluginAction } from '../pluginIntents';

export type PluginIntents = ReturnType<typeof pluginFacet>;

/**
 * Plugins (research A §7.3): each sends one checked command, false when refused (no plugins on this core, not ready,
 * bad input); the answers arrive as core events.
 */
export function pluginFacet(ctx: IntentContext) {
  /** A command, or the text refusing it. */
  const sendPluginCommand = (cmd: Command | string): boolean => {
    if (typeof cmd === 'string') return ctx.refuse(cmd);
    if (!ctx.requireFeature(UI_CAPABILITIES.plugins, 'has no plugins') || !ctx.requireReady()) return false;
    return ctx.send(cmd);
  };

  return {
    /** plugins_list and plugin_commands. */
    listPlugins(): boolean {
      return sendPluginCommand({ type: 'list_plugins' });
    },

    /** reload_plugins: a rescan, then the lists and a "plugins reloaded" line. */
    reloadPlugins(): boolean {
      return sendPluginCommand({ type: 'reload_plugins' });
    },

    /** Asks the core for its plugin_trust_prompt (every project plugin with its decision). */
    requestPluginTrust(): boolean {
      return sendPluginCommand({ type: 'plugin_trust_prompt' });
    },

    /** plugin_trust_decisions keyed by plugin path. */
    trustPlugins(decisions: Record<string, string>): boolean {
      return sendPluginCommand(trustDecisionsCommand(decisions));
    },

    installPlugin(path: string, scope: InstallScope): boolean {
      return sendPluginCommand(installPluginCommand(path, scope));
    },

    pluginAction(action: PluginAction, name: string): boolean {
      return sendPluginCommand(pluginActionCommand(action, name));
    },

    /** `/plugin <command> args`, or a plugin's own `/command args`. */
    pluginCommand(name: string, args = ''): boolean {
      return sendPluginCommand(runPluginCommand(name, args));
    },
  };
}

import type { SessionState } from '../../src/shared/sessionState';
import type { SlashCommandInfo } from '../../src/shared/webviewMessages';

const INPUT = /^\/(\S+)(?:\s+([\s\S]*))?$/;

/** The plugins' own commands (`plugin_commands`) for the completion; a built-in command's name is never shadowed. */
export function pluginCommands(state: Pick<SessionState, 'plugins'>, builtIn: readonly SlashCommandInfo[]): SlashCommandInfo[] {
  return (state.plugins?.commands ?? [])
    .filter((c) => !builtIn.some((b) => b.name === c.name))
    .map((c) => ({ name: c.name, description: `${c.description || 'Plugin command'} (${c.plugin})`, args: '[args]' }));
}

/** `/<plugin command> args` as the host's `plugin` command (`args` = "<command> args"), when the host has one. */
export function parsePluginInput(text: string, plugin: readonly SlashCommandInfo[], builtIn: readonly SlashCommandInfo[]) {
  const match = INPUT.exec(text.trim());
  if (!match || !builtIn.some((c) => c.name === 'plugin') || !plugin.some((c) => c.name === match[1])) return undefined;
  return { name: 'plugin', args: `${match[1]} ${(match[2] ?? '').trim()}`.trim() };
}

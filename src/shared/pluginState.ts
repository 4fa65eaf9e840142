/**
 * The core's plugins as the UI shows them (issue #17, docs/plans/issue-17-plugins.md §2): the Plugins view's list, the
 * plugin slash commands of the chat's completion, and the last trust prompt. Pure types only: the webview bundles this file.
 */

export type PluginScope = 'global' | 'workspace';
export type PluginTrustChoice = '' | 'trust' | 'deny';

/** One loaded plugin (`plugins_list`). */
export interface PluginView {
  name: string;
  version: string;
  description: string;
  enabled: boolean;
  scope: PluginScope;
  path: string;
  hooks: string[];
  tools: string[];
  commands: string[];
}

/** One plugin slash command (`plugin_commands`): `/name args` runs it. */
export interface PluginCommandView {
  name: string;
  description: string;
  plugin: string;
  mode: 'script' | 'agent_turn';
}

/** One project plugin the core asks about (`plugin_trust_prompt`); decisions are keyed by `path`. */
export interface PluginTrustEntryView {
  name: string;
  version: string;
  description: string;
  path: string;
  /** '' = not decided yet: the plugin stays unloaded until the user says. */
  decision: PluginTrustChoice;
}

export interface PluginsView {
  /** Loaded plugins, sorted by name; empty until the core lists them. */
  list: PluginView[];
  commands: PluginCommandView[];
  /** The entries of the core's last plugin_trust_prompt, with the decisions applied since. */
  trust: PluginTrustEntryView[];
  /** The names of the loaded plugins (`ready.plugins`, then every plugins_list). */
  loaded: string[];
  /** `ready.plugins_skipped`: project plugins the core did not load and nobody has decided on. */
  skipped: string[];
}

export function emptyPluginsView(): PluginsView {
  return { list: [], commands: [], trust: [], loaded: [], skipped: [] };
}

/**
 * The trust prompt's entries to ask about: nobody decided, and not loaded anyway (a workspace install loads without a
 * decision; a same-named global plugin wins over the project's).
 */
export function undecidedTrust(view: PluginsView | undefined): PluginTrustEntryView[] {
  return (view?.trust ?? []).filter((e) => e.decision === '' && !view?.loaded.includes(e.name));
}

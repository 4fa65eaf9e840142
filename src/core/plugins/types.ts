/** One loaded plugin and its parts, as the manifest declared them (docs/plans/issue-17-plugins.md §1). */
import type { ToolKind } from '../tools/types';
import type { OauthConfig } from './oauthManifest';

export const HOOK_POINTS = [
  'pre_bash',
  'pre_write',
  'pre_read',
  'post_bash',
  'post_write',
  'post_read',
  'session_start',
  'session_stop',
  'pre_compact',
  'pre_turn',
  'pre_input',
  'pre_agent_start',
  'pre_context',
  'turn_start',
  'turn_end',
  'session_shutdown',
  'pre_tool',
  'post_tool',
] as const;

export type HookPoint = (typeof HOOK_POINTS)[number];

export type PluginScope = 'global' | 'workspace';

export interface HookConfig {
  /** Canonical, inside the plugin directory, executable. */
  script: string;
  timeoutMs: number;
  passArgs: boolean;
}

export interface PluginToolConfig {
  name: string;
  description: string;
  parameters: object;
  script: string;
  kind: ToolKind;
  timeoutMs: number;
  override: boolean;
  plugin: string;
}

export type PluginCommandMode = 'script' | 'agent_turn';

export interface PluginCommandConfig {
  name: string;
  description: string;
  mode: PluginCommandMode;
  script?: string;
  promptFile?: string;
  timeoutMs: number;
  plugin: string;
}

export interface Plugin {
  name: string;
  version: string;
  description: string;
  capabilities: string[];
  /** Canonical plugin directory. */
  dir: string;
  /** The directory's entry in its plugins folder, as scanned (a symlink stays a symlink): what remove_plugin deletes. */
  entry: string;
  scope: PluginScope;
  enabled: boolean;
  hooks: Map<HookPoint, HookConfig>;
  tools: PluginToolConfig[];
  commands: PluginCommandConfig[];
  disableTools: string[];
  /** The manifest's `system_prompt`: injected into the main agent's system prompt while the plugin is enabled. */
  systemPrompt?: string;
  hasOauth: boolean;
  /** The manifest's `oauth` block: a provider this plugin logs into (research A §8). */
  oauth?: OauthConfig;
  hasMemoryProvider: boolean;
}

export type TrustDecision = 'trust' | 'deny';

/** A workspace plugin the trust gate kept out: denied, or not decided yet. */
export interface SkippedPlugin {
  name: string;
  version: string;
  description: string;
  /** Canonical plugin directory: also its key in the trust store. */
  path: string;
  decision?: TrustDecision;
}

/** A plugin folder whose manifest or scripts did not pass loading. */
export interface PluginLoadError {
  /** The manifest's name, else the folder's. */
  name: string;
  /** Canonical plugin directory (the trust store's key for a workspace plugin). */
  path: string;
  /** `failed to load plugin in "<dir>": <why>`. */
  message: string;
}

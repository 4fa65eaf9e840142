// The core's resolved configuration and its defaults (research §3.2–3.3).
import type { ProviderConfig } from './providers';
import type { PluginSettings } from './pluginSettings';
import { defaultProjectRulesSettings, type ProjectRulesSettings } from './rulesSettings';

export type ApprovalMode = 'never' | 'destructive' | 'always';
export type SandboxNetworkMode = 'none' | 'restricted' | 'allowlist';

export interface CoreConfig {
  /** Absolute. */
  workspace: string;
  approval: ApprovalMode;
  /** Base URL of the "default" provider, used only when no providers are configured. */
  baseUrl: string;
  bashTimeoutSecs: number;
  maxBashTimeoutSecs: number;
  fetchTimeoutSecs: number;
  diagTimeoutSecs: number;
  fetchMaxBytes: number;
  /** Host globs the fetch tool may contact; empty = any public host. */
  fetchAllowlist: string[];
  /** Ours: `web_tools` / CATALYST_CODE_WEB_TOOLS; false withholds fetch and web_search from the model. */
  webTools: boolean;
  idleTimeoutSecs: number;
  /** 0 = unlimited. */
  maxSessionTokens: number;
  /** Absolute. */
  sessionFile?: string;
  model?: string;
  /** As configured; may name no configured provider (see selectActiveProvider). */
  activeProvider?: string;
  /** Never empty: without configuration, one provider named "default". */
  providers: ProviderConfig[];
  /** Seeds the runtime key map: `provider_keys` plus the legacy `api_key` as "default". */
  providerKeys: Record<string, string>;
  /** web_search keys (exa, tavily) from `search_keys`. */
  searchKeys: Record<string, string>;
  permissions: { allow: string[]; deny: string[]; ask: string[] };
  autoCompact: boolean;
  compactInstructions?: string;
  /** `advisor{enabled, model}`: the watchdog that reviews the main loop's answers; off by default, as upstream. */
  advisor: AdvisorSettings;
  /** Fractions of the context window: compact at, digest stale tool results at (0 = off). */
  contextCompactAt: number;
  contextDigestAt: number;
  /** "none" or "microsandbox". */
  sandbox: string;
  sandboxImage: string;
  sandboxCpus: number;
  sandboxMemoryMb: number;
  sandboxDiskMb: number;
  sandboxNetworkMode: SandboxNetworkMode;
  sandboxEnvAllowlist: string[];
  noNetwork: boolean;
  trustProjectPlugins: boolean;
  /** Absolute. */
  debugLog?: string;
  /** Full-verbosity debug log. */
  debug: boolean;
  /** "bash" or "powershell". */
  shell: string;
  /** ~/.config/catalyst-code */
  configDir: string;
  homeDir: string;
  subagents: SubagentSettings;
  /** `plugins{dir, disabled}`: the workspace plugins folder and the plugins disabled at launch. */
  plugins: PluginSettings;
  /** Ours: `project_rules{…}` and CATALYST_CODE_RULES_OFF — the rules files read into the system prompt. */
  projectRules: ProjectRulesSettings;
  /** Human-readable problems met while loading (unreadable files, ignored keys, bad values). */
  warnings: string[];
}

export interface AdvisorSettings {
  enabled: boolean;
  /** The model that reviews; the turn's own when unset. */
  model?: string;
}

/** Upstream's `subagents{…}` settings this core reads (research A:163-192). */
export interface SubagentSettings {
  /** `subagents.maxSubagentDepth`, replaced by CATALYST_CODE_SUBAGENT_MAX_DEPTH; 0 blocks every subagent call. */
  maxDepth: number;
  /** `subagents.parallel.concurrency`: the cap on a batch's concurrent children (a call's `concurrency` can only lower it). */
  parallelConcurrency: number;
  /** `subagents.parallel.maxTasks`: a batch above it is only noted in an `info` (256 is the hard limit). */
  parallelMaxTasks: number;
  /** `subagents.disableBuiltins`: only file-defined agents exist. */
  disableBuiltins: boolean;
  /** `subagents.agentOverrides.<name>`: settings over a builtin (never over a file-defined agent), as upstream. */
  agentOverrides: Readonly<Record<string, AgentOverride>>;
  /** `subagents.intercomBridge.mode`: when children get contact_supervisor and intercom. */
  intercomBridge: IntercomBridgeMode;
}

export interface AgentOverride {
  model?: string;
  fallbackModels?: string[];
  thinking?: string;
  disabled?: boolean;
}

/** `always` (upstream's default), `fork-only` (forked children only), or `off`. */
export type IntercomBridgeMode = 'always' | 'fork-only' | 'off';

export const DEFAULT_SUBAGENT_SETTINGS: Readonly<SubagentSettings> = Object.freeze({
  maxDepth: 2,
  parallelConcurrency: 4,
  parallelMaxTasks: 64,
  disableBuiltins: false,
  agentOverrides: Object.freeze({}),
  intercomBridge: 'always',
});

export const DEFAULT_BASE_URL = 'https://api.code.umans.ai/v1';
export const DEFAULT_PROVIDER_NAME = 'default';
export const DEFAULT_PROVIDER_KEY_ENV = 'UMANS_API_KEY';
export const DEFAULT_SANDBOX_IMAGE = 'ghcr.io/catalystctl/catcode-sandbox:0.1';

export function defaultConfig(home: string, cwd: string, configDir: string, platform: NodeJS.Platform): CoreConfig {
  return {
    workspace: cwd,
    approval: 'destructive',
    baseUrl: DEFAULT_BASE_URL,
    bashTimeoutSecs: 30,
    maxBashTimeoutSecs: 600,
    fetchTimeoutSecs: 20,
    diagTimeoutSecs: 120,
    fetchMaxBytes: 262_144,
    fetchAllowlist: [],
    webTools: true,
    idleTimeoutSecs: 120,
    maxSessionTokens: 0,
    providers: [],
    providerKeys: {},
    searchKeys: {},
    permissions: { allow: [], deny: [], ask: [] },
    autoCompact: true,
    advisor: { enabled: false },
    contextCompactAt: 0.9,
    contextDigestAt: 0.7,
    sandbox: 'none',
    sandboxImage: DEFAULT_SANDBOX_IMAGE,
    sandboxCpus: 2,
    sandboxMemoryMb: 2048,
    sandboxDiskMb: 8192,
    sandboxNetworkMode: 'restricted',
    sandboxEnvAllowlist: [],
    noNetwork: false,
    trustProjectPlugins: false,
    debug: false,
    shell: platform === 'win32' ? 'powershell' : 'bash',
    configDir,
    homeDir: home,
    subagents: { ...DEFAULT_SUBAGENT_SETTINGS, agentOverrides: {} },
    plugins: { disabled: [] },
    projectRules: defaultProjectRulesSettings(),
    warnings: [],
  };
}

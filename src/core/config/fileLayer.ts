// Applies one config file's flat top-level keys (research §3.3) onto the config.
import { resolve } from 'node:path';
import type { CoreConfig } from './coreConfig';
import { parseApprovalMode, parseSandbox, parseSandboxNetwork, parseShell } from './configValues';
import { getOwn, isJsonObject, nonEmptyString, setOwn, stringArray, uintValue, type JsonObject } from '../platform/jsonValue';
import { isProviderParseError, parseProvider, type ProviderConfig } from './providers';
import { applyPluginSettings } from './pluginSettings';

type UintKey =
  | 'bashTimeoutSecs'
  | 'maxBashTimeoutSecs'
  | 'fetchTimeoutSecs'
  | 'diagTimeoutSecs'
  | 'fetchMaxBytes'
  | 'idleTimeoutSecs'
  | 'maxSessionTokens'
  | 'sandboxCpus'
  | 'sandboxMemoryMb'
  | 'sandboxDiskMb';

const UINT_KEYS: ReadonlyArray<[string, UintKey]> = [
  ['bash_timeout_secs', 'bashTimeoutSecs'],
  ['max_bash_timeout_secs', 'maxBashTimeoutSecs'],
  ['fetch_timeout_secs', 'fetchTimeoutSecs'],
  ['diag_timeout_secs', 'diagTimeoutSecs'],
  ['fetch_max_bytes', 'fetchMaxBytes'],
  ['idle_timeout_secs', 'idleTimeoutSecs'],
  ['max_session_tokens', 'maxSessionTokens'],
  ['sandbox_cpus', 'sandboxCpus'],
  ['sandbox_memory_mb', 'sandboxMemoryMb'],
  ['sandbox_disk_mb', 'sandboxDiskMb'],
];

/** `cwd` resolves relative paths; `source` names the file in warnings. */
export function applyFileLayer(cfg: CoreConfig, v: JsonObject, source: string, cwd: string): void {
  const str = (k: string) => nonEmptyString(v[k]);
  const warn = (msg: string) => cfg.warnings.push(`${source}: ${msg}`);

  if (str('base_url')) cfg.baseUrl = str('base_url')!.trim();
  if (str('workspace')) cfg.workspace = resolve(cwd, str('workspace')!);
  if (typeof v.approval === 'string') cfg.approval = approvalOrDestructive(v.approval, warn);
  for (const [json, key] of UINT_KEYS) {
    if (v[json] === undefined) continue;
    const n = uintValue(v[json]);
    if (n === undefined) warn(`${json} must be a non-negative integer; ignored`);
    else cfg[key] = n;
  }
  applyBooleans(cfg, v);
  applyStrings(cfg, v, cwd);
  applyFractions(cfg, v, warn);
  const allowlist = stringArray(v.fetch_allowlist);
  if (allowlist) cfg.fetchAllowlist = allowlist;
  const envAllow = stringArray(v.sandbox_env_allowlist);
  if (envAllow) cfg.sandboxEnvAllowlist = envAllow;
  if (str('sandbox')) cfg.sandbox = parseSandbox(str('sandbox')!);
  if (str('sandbox_network_mode')) cfg.sandboxNetworkMode = parseSandboxNetwork(str('sandbox_network_mode')!);
  if (str('shell')) {
    const shell = parseShell(str('shell')!);
    if (shell) cfg.shell = shell;
    else warn(`unknown shell '${str('shell')}'; ignored`);
  }
  applyPermissions(cfg, v.permissions);
  applySubagents(cfg, v.subagents, warn);
  applyPluginSettings(cfg.plugins, v.plugins, warn);
  applyAdvisor(cfg, v.advisor, warn);
  if (v.providers !== undefined) mergeProviders(cfg, v.providers, warn);
  applyKeys(cfg, v);
  if (typeof v.activeProvider === 'string') cfg.activeProvider = v.activeProvider;
  if (typeof v.active_provider === 'string') cfg.activeProvider = v.active_provider;
}

export function approvalOrDestructive(raw: string, warn: (msg: string) => void): CoreConfig['approval'] {
  const mode = parseApprovalMode(raw);
  if (mode) return mode;
  warn(`unknown approval mode '${raw}'; using destructive`);
  return 'destructive';
}

function applyBooleans(cfg: CoreConfig, v: JsonObject): void {
  if (typeof v.auto_compact === 'boolean') cfg.autoCompact = v.auto_compact;
  if (typeof v.no_network === 'boolean') cfg.noNetwork = v.no_network;
  if (typeof v.web_tools === 'boolean') cfg.webTools = v.web_tools;
}

function applyStrings(cfg: CoreConfig, v: JsonObject, cwd: string): void {
  if (typeof v.compact_instructions === 'string') {
    cfg.compactInstructions = v.compact_instructions.trim() ? v.compact_instructions : undefined;
  }
  const image = nonEmptyString(v.sandbox_image);
  if (image) cfg.sandboxImage = image.trim();
  const debugLog = nonEmptyString(v.debug_log);
  if (debugLog) cfg.debugLog = resolve(cwd, debugLog);
  const session = nonEmptyString(v.session);
  if (session) cfg.sessionFile = resolve(cwd, session);
  const model = nonEmptyString(v.model);
  if (model) cfg.model = model;
}

function applyFractions(cfg: CoreConfig, v: JsonObject, warn: (msg: string) => void): void {
  for (const [json, key] of [
    ['context_compact_at', 'contextCompactAt'],
    ['context_digest_at', 'contextDigestAt'],
  ] as const) {
    if (v[json] === undefined) continue;
    if (typeof v[json] === 'number' && Number.isFinite(v[json])) cfg[key] = v[json];
    else warn(`${json} must be a number; ignored`);
  }
}

/** Rules accumulate across files (as upstream); "yes"/"true" mean allow and "no"/"false" deny. */
function applyPermissions(cfg: CoreConfig, perms: unknown): void {
  if (!isJsonObject(perms)) return;
  for (const [behaviour, list] of Object.entries(perms)) {
    const rules = stringArray(list);
    if (!rules) continue;
    const b = behaviour.toLowerCase();
    const bucket = ['allow', 'yes', 'true'].includes(b) ? 'allow' : ['deny', 'no', 'false'].includes(b) ? 'deny' : 'ask';
    for (const r of rules) if (!cfg.permissions[bucket].includes(r)) cfg.permissions[bucket].push(r);
  }
}

/** `advisor{enabled, model}`; upstream's other advisor keys (subagents, subagentModel, nudge) are not used here. */
function applyAdvisor(cfg: CoreConfig, raw: unknown, warn: (msg: string) => void): void {
  if (raw === undefined) return;
  if (!isJsonObject(raw)) return warn('advisor must be an object; ignored');
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled === 'boolean') cfg.advisor = { ...cfg.advisor, enabled: raw.enabled };
    else warn('advisor.enabled must be true or false; ignored');
  }
  if (raw.model !== undefined) {
    const model = nonEmptyString(raw.model);
    if (model) cfg.advisor = { ...cfg.advisor, model: model.trim() };
    else warn('advisor.model must be a model id; ignored');
  }
}

/** `subagents{maxSubagentDepth, parallel{concurrency, maxTasks}}`; keys this core does not use are left alone. */
function applySubagents(cfg: CoreConfig, raw: unknown, warn: (msg: string) => void): void {
  if (!isJsonObject(raw)) return;
  const read = (value: unknown, name: string, min: number): number | undefined => {
    if (value === undefined) return undefined;
    const n = uintValue(value);
    if (n !== undefined && n >= min) return n;
    warn(`subagents.${name} must be an integer of at least ${min}; ignored`);
    return undefined;
  };
  const depth = read(raw.maxSubagentDepth, 'maxSubagentDepth', 0);
  if (depth !== undefined) cfg.subagents.maxDepth = depth;
  if (typeof raw.disableBuiltins === 'boolean') cfg.subagents.disableBuiltins = raw.disableBuiltins;
  applyBridgeMode(cfg, raw.intercomBridge, warn);
  applyAgentOverrides(cfg, raw.agentOverrides);
  if (!isJsonObject(raw.parallel)) return;
  const concurrency = read(raw.parallel.concurrency, 'parallel.concurrency', 1);
  if (concurrency !== undefined) cfg.subagents.parallelConcurrency = concurrency;
  const maxTasks = read(raw.parallel.maxTasks, 'parallel.maxTasks', 1);
  if (maxTasks !== undefined) cfg.subagents.parallelMaxTasks = maxTasks;
}

/** Upstream's spellings: always; fork-only, fork_only or fork; off or none. */
function applyBridgeMode(cfg: CoreConfig, raw: unknown, warn: (msg: string) => void): void {
  if (!isJsonObject(raw) || raw.mode === undefined) return;
  const mode = typeof raw.mode === 'string' ? raw.mode.trim().toLowerCase() : '';
  if (mode === 'always') cfg.subagents.intercomBridge = 'always';
  else if (['fork-only', 'fork_only', 'fork'].includes(mode)) cfg.subagents.intercomBridge = 'fork-only';
  else if (['off', 'none'].includes(mode)) cfg.subagents.intercomBridge = 'off';
  else warn(`subagents.intercomBridge.mode must be always, fork-only or off; ignored`);
}

/** `agentOverrides{<name>:{model, fallbackModels[], thinking, disabled}}`; a later file's fields win, per agent. */
function applyAgentOverrides(cfg: CoreConfig, raw: unknown): void {
  if (!isJsonObject(raw)) return;
  const overrides = { ...cfg.subagents.agentOverrides };
  for (const [name, value] of Object.entries(raw)) {
    if (!isJsonObject(value)) continue;
    const next = { ...getOwn(overrides, name) };
    const model = nonEmptyString(value.model);
    if (model) next.model = model.trim();
    const fallbacks = stringArray(value.fallbackModels);
    if (fallbacks) next.fallbackModels = fallbacks.map((m) => m.trim()).filter((m) => m !== '');
    const thinking = nonEmptyString(value.thinking);
    if (thinking) next.thinking = thinking.trim();
    if (typeof value.disabled === 'boolean') next.disabled = value.disabled;
    setOwn(overrides, name, next);
  }
  cfg.subagents.agentOverrides = overrides;
}

/** Later layers replace a provider of the same name in place; new names are appended. */
export function mergeProviders(cfg: CoreConfig, list: unknown, warn: (msg: string) => void): void {
  if (!Array.isArray(list)) {
    warn('providers must be a JSON array; ignored');
    return;
  }
  list.forEach((raw, i) => {
    const p = parseProvider(raw);
    if (isProviderParseError(p)) warn(`provider #${i + 1} ignored: ${p.error}`);
    else upsert(cfg.providers, p);
  });
}

function upsert(list: ProviderConfig[], p: ProviderConfig): void {
  const i = list.findIndex((x) => x.name === p.name);
  if (i >= 0) list[i] = p;
  else list.push(p);
}

/** `provider_keys{name:key}`; the legacy `api_key` is the "default" key unless the same file names one. */
function applyKeys(cfg: CoreConfig, v: JsonObject): void {
  mergeKeyMap(cfg.providerKeys, v.provider_keys);
  mergeKeyMap(cfg.searchKeys, v.search_keys);
  const legacy = nonEmptyString(v.api_key);
  const fileNamesDefault = isJsonObject(v.provider_keys) && nonEmptyString(v.provider_keys.default) !== undefined;
  if (legacy && !fileNamesDefault) setOwn(cfg.providerKeys, 'default', legacy);
}

function mergeKeyMap(into: Record<string, string>, raw: unknown): void {
  if (!isJsonObject(raw)) return;
  for (const [name, key] of Object.entries(raw)) {
    const k = nonEmptyString(key);
    if (k) setOwn(into, name, k);
  }
}

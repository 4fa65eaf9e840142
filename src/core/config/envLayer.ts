// Applies the environment variables of research §3.2 onto the config.
import { resolve } from 'node:path';
import { parseBoolean, parseUint, splitList } from './cli';
import type { CoreConfig } from './coreConfig';
import { parseSandbox, parseSandboxNetwork, parseShell } from './configValues';
import { approvalOrDestructive, mergeProviders } from './fileLayer';
import { applyRulesOffVariable } from './rulesSettings';

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

const UINT_VARS: ReadonlyArray<[string, UintKey]> = [
  ['CATALYST_CODE_BASH_TIMEOUT', 'bashTimeoutSecs'],
  ['CATALYST_CODE_MAX_BASH_TIMEOUT', 'maxBashTimeoutSecs'],
  ['CATALYST_CODE_FETCH_TIMEOUT', 'fetchTimeoutSecs'],
  ['CATALYST_CODE_DIAG_TIMEOUT', 'diagTimeoutSecs'],
  ['CATALYST_CODE_FETCH_MAX_BYTES', 'fetchMaxBytes'],
  ['CATALYST_CODE_IDLE_TIMEOUT', 'idleTimeoutSecs'],
  ['CATALYST_CODE_MAX_SESSION_TOKENS', 'maxSessionTokens'],
  ['CATALYST_CODE_SANDBOX_CPUS', 'sandboxCpus'],
  ['CATALYST_CODE_SANDBOX_MEMORY_MB', 'sandboxMemoryMb'],
  ['CATALYST_CODE_SANDBOX_DISK_MB', 'sandboxDiskMb'],
];

/** Upstream's flag semantics: set-but-empty, "1" or "true" mean on. */
function envFlagOn(v: string): boolean {
  return v === '' || v === '1' || v.toLowerCase() === 'true';
}

export function applyEnvLayer(cfg: CoreConfig, env: NodeJS.ProcessEnv, cwd: string): void {
  const warn = (msg: string) => cfg.warnings.push(`environment: ${msg}`);
  const get = (name: string): string | undefined => env[name];
  const text = (name: string): string | undefined => (get(name)?.trim() ? get(name) : undefined);

  if (text('UMANS_BASE_URL')) cfg.baseUrl = text('UMANS_BASE_URL')!.trim();
  if (text('CATALYST_CODE_WORKSPACE')) cfg.workspace = resolve(cwd, text('CATALYST_CODE_WORKSPACE')!);
  if (text('CATALYST_CODE_APPROVAL')) cfg.approval = approvalOrDestructive(text('CATALYST_CODE_APPROVAL')!, warn);
  for (const [name, key] of UINT_VARS) {
    const raw = get(name);
    if (raw === undefined) continue;
    const n = parseUint(raw);
    if (n === undefined) warn(`${name}=${raw} is not a non-negative integer; ignored`);
    else cfg[key] = n;
  }
  if (get('CATALYST_CODE_FETCH_ALLOWLIST') !== undefined) cfg.fetchAllowlist = splitList(get('CATALYST_CODE_FETCH_ALLOWLIST')!);
  if (get('CATALYST_CODE_TRUST_PROJECT_PLUGINS') !== undefined)
    cfg.trustProjectPlugins = envFlagOn(get('CATALYST_CODE_TRUST_PROJECT_PLUGINS')!);
  if (text('CATALYST_CODE_DEBUG_LOG')) cfg.debugLog = resolve(cwd, text('CATALYST_CODE_DEBUG_LOG')!);
  if (get('CATALYST_CODE_DEBUG') !== undefined) cfg.debug = envFlagOn(get('CATALYST_CODE_DEBUG')!);
  if (text('CATALYST_CODE_SESSION')) cfg.sessionFile = resolve(cwd, text('CATALYST_CODE_SESSION')!);
  if (text('CATALYST_CODE_SANDBOX')) cfg.sandbox = parseSandbox(text('CATALYST_CODE_SANDBOX')!);
  if (get('CATALYST_CODE_NO_NETWORK') !== undefined) cfg.noNetwork = envFlagOn(get('CATALYST_CODE_NO_NETWORK')!);
  applyWebTools(cfg, get('CATALYST_CODE_WEB_TOOLS'), warn);
  if (text('CATALYST_CODE_SANDBOX_IMAGE')) cfg.sandboxImage = text('CATALYST_CODE_SANDBOX_IMAGE')!.trim();
  if (text('CATALYST_CODE_SANDBOX_NETWORK')) cfg.sandboxNetworkMode = parseSandboxNetwork(text('CATALYST_CODE_SANDBOX_NETWORK')!);
  if (get('CATALYST_CODE_SANDBOX_ENV_ALLOWLIST') !== undefined)
    cfg.sandboxEnvAllowlist = splitList(get('CATALYST_CODE_SANDBOX_ENV_ALLOWLIST')!);
  applyAutoCompact(cfg, get('CATALYST_CODE_AUTO_COMPACT'));
  applySubagentMaxDepth(cfg, get('CATALYST_CODE_SUBAGENT_MAX_DEPTH'), warn);
  cfg.projectRules = applyRulesOffVariable(cfg.projectRules, get('CATALYST_CODE_RULES_OFF'), warn);
  if (get('CATALYST_CODE_COMPACT_INSTRUCTIONS') !== undefined) cfg.compactInstructions = text('CATALYST_CODE_COMPACT_INSTRUCTIONS');
  if (text('CATALYST_CODE_SHELL')) {
    const shell = parseShell(text('CATALYST_CODE_SHELL')!);
    if (shell) cfg.shell = shell;
    else warn(`CATALYST_CODE_SHELL=${get('CATALYST_CODE_SHELL')} is neither bash nor powershell; ignored`);
  }
  applyProvidersVar(cfg, get('UMANS_PROVIDERS'), warn);
  if (text('UMANS_ACTIVE_PROVIDER')) cfg.activeProvider = text('UMANS_ACTIVE_PROVIDER')!.trim();
}

/** Ours: CATALYST_CODE_WEB_TOOLS=0/false turns fetch and web_search off (the extension's catalystCode.web.enabled). */
function applyWebTools(cfg: CoreConfig, raw: string | undefined, warn: (msg: string) => void): void {
  if (raw === undefined) return;
  const on = raw === '' ? true : parseBoolean(raw);
  if (on === undefined) warn(`CATALYST_CODE_WEB_TOOLS=${raw} is not a boolean; ignored`);
  else cfg.webTools = on;
}

function applyAutoCompact(cfg: CoreConfig, raw: string | undefined): void {
  if (raw === undefined) return;
  const b = raw === '' ? true : parseBoolean(raw);
  if (b !== undefined) cfg.autoCompact = b;
}

/** Upstream's `resolve_max_depth`: the variable wins over `subagents.maxSubagentDepth`; 0 blocks every subagent call. */
function applySubagentMaxDepth(cfg: CoreConfig, raw: string | undefined, warn: (msg: string) => void): void {
  if (raw === undefined) return;
  const n = parseUint(raw);
  if (n === undefined) warn(`CATALYST_CODE_SUBAGENT_MAX_DEPTH=${raw} is not a non-negative integer; ignored`);
  else cfg.subagents.maxDepth = n;
}

function applyProvidersVar(cfg: CoreConfig, raw: string | undefined, warn: (msg: string) => void): void {
  if (!raw?.trim()) return;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch (err) {
    warn(`UMANS_PROVIDERS is not valid JSON (${(err as Error).message}); ignored`);
    return;
  }
  mergeProviders(cfg, list, (msg) => warn(`UMANS_PROVIDERS: ${msg}`));
}

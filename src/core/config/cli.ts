// Command-line flags of the core, compatible with upstream catcode-core (research §3.2).
// Unknown flags are ignored so that clients written for newer cores keep working.

export interface CliOptions {
  workspace?: string;
  baseUrl?: string;
  /** Raw value; parsed (with aliases) by loadConfig. */
  approval?: string;
  bashTimeoutSecs?: number;
  maxBashTimeoutSecs?: number;
  fetchTimeoutSecs?: number;
  diagTimeoutSecs?: number;
  sandbox?: string;
  sandboxImage?: string;
  sandboxCpus?: number;
  sandboxMemoryMb?: number;
  sandboxDiskMb?: number;
  sandboxNetwork?: string;
  sandboxEnvAllowlist?: string[];
  noNetwork?: boolean;
  /** true for --trust-project-plugins, false for --no-trust-project-plugins. */
  trustProjectPlugins?: boolean;
  idleTimeoutSecs?: number;
  maxSessionTokens?: number;
  debugLog?: string;
  debug?: boolean;
  session?: string;
  model?: string;
  provider?: string;
  configFile?: string;
  help: boolean;
  version: boolean;
}

type ValueKind = 'string' | 'uint' | 'list';
type SwitchKind = 'on' | 'off';

interface FlagSpec {
  flag: string;
  key: Exclude<keyof CliOptions, 'help' | 'version'>;
  kind: ValueKind | SwitchKind;
  arg?: string;
  env?: string;
  defaultText: string;
  help: string;
}

const FLAGS: readonly FlagSpec[] = [
  {
    flag: '--workspace',
    key: 'workspace',
    kind: 'string',
    arg: '<DIR>',
    env: 'CATALYST_CODE_WORKSPACE',
    defaultText: 'current directory',
    help: 'Workspace root; all file and bash operations are confined to it',
  },
  {
    flag: '--base-url',
    key: 'baseUrl',
    kind: 'string',
    arg: '<URL>',
    env: 'UMANS_BASE_URL',
    defaultText: 'https://api.code.umans.ai/v1',
    help: 'OpenAI-compatible base URL (used only when no providers are configured)',
  },
  {
    flag: '--approval',
    key: 'approval',
    kind: 'string',
    arg: '<MODE>',
    env: 'CATALYST_CODE_APPROVAL',
    defaultText: 'destructive',
    help: 'never | destructive | always (aliases: off/none/auto = never, all/y = always)',
  },
  {
    flag: '--bash-timeout',
    key: 'bashTimeoutSecs',
    kind: 'uint',
    arg: '<SECS>',
    env: 'CATALYST_CODE_BASH_TIMEOUT',
    defaultText: '30',
    help: 'Per-command bash timeout in seconds',
  },
  {
    flag: '--max-bash-timeout',
    key: 'maxBashTimeoutSecs',
    kind: 'uint',
    arg: '<SECS>',
    env: 'CATALYST_CODE_MAX_BASH_TIMEOUT',
    defaultText: '600',
    help: "Ceiling for the bash tool's per-call `timeout` argument",
  },
  {
    flag: '--fetch-timeout',
    key: 'fetchTimeoutSecs',
    kind: 'uint',
    arg: '<SECS>',
    env: 'CATALYST_CODE_FETCH_TIMEOUT',
    defaultText: '20',
    help: 'Wall-clock timeout of the fetch tool',
  },
  {
    flag: '--diag-timeout',
    key: 'diagTimeoutSecs',
    kind: 'uint',
    arg: '<SECS>',
    env: 'CATALYST_CODE_DIAG_TIMEOUT',
    defaultText: '120',
    help: 'Timeout of the diagnostics tool (cargo check, tsc, go build)',
  },
  {
    flag: '--sandbox',
    key: 'sandbox',
    kind: 'string',
    arg: '<MODE>',
    env: 'CATALYST_CODE_SANDBOX',
    defaultText: 'none',
    help: 'none | microsandbox',
  },
  {
    flag: '--sandbox-image',
    key: 'sandboxImage',
    kind: 'string',
    arg: '<REF>',
    env: 'CATALYST_CODE_SANDBOX_IMAGE',
    defaultText: 'ghcr.io/catalystctl/catcode-sandbox:0.1',
    help: 'OCI image of the sandbox guest',
  },
  {
    flag: '--sandbox-cpus',
    key: 'sandboxCpus',
    kind: 'uint',
    arg: '<N>',
    env: 'CATALYST_CODE_SANDBOX_CPUS',
    defaultText: '2',
    help: 'Guest vCPUs (1..16)',
  },
  {
    flag: '--sandbox-memory-mb',
    key: 'sandboxMemoryMb',
    kind: 'uint',
    arg: '<N>',
    env: 'CATALYST_CODE_SANDBOX_MEMORY_MB',
    defaultText: '2048',
    help: 'Guest memory in MiB (256..16384)',
  },
  {
    flag: '--sandbox-disk-mb',
    key: 'sandboxDiskMb',
    kind: 'uint',
    arg: '<N>',
    env: 'CATALYST_CODE_SANDBOX_DISK_MB',
    defaultText: '8192',
    help: 'Guest writable overlay in MiB (256..65536)',
  },
  {
    flag: '--sandbox-network',
    key: 'sandboxNetwork',
    kind: 'string',
    arg: '<MODE>',
    env: 'CATALYST_CODE_SANDBOX_NETWORK',
    defaultText: 'restricted',
    help: 'none | restricted | allowlist',
  },
  {
    flag: '--sandbox-env-allowlist',
    key: 'sandboxEnvAllowlist',
    kind: 'list',
    arg: '<A,B>',
    env: 'CATALYST_CODE_SANDBOX_ENV_ALLOWLIST',
    defaultText: 'empty',
    help: 'Extra host env vars passed into the guest (comma-separated)',
  },
  {
    flag: '--no-network',
    key: 'noNetwork',
    kind: 'on',
    env: 'CATALYST_CODE_NO_NETWORK=1',
    defaultText: 'off',
    help: 'Deny all guest network (sets sandbox-network=none)',
  },
  {
    flag: '--trust-project-plugins',
    key: 'trustProjectPlugins',
    kind: 'on',
    env: 'CATALYST_CODE_TRUST_PROJECT_PLUGINS=1',
    defaultText: 'off',
    help: 'Allow repo-shipped .catalyst-code/plugins to load',
  },
  {
    flag: '--no-trust-project-plugins',
    key: 'trustProjectPlugins',
    kind: 'off',
    defaultText: 'off',
    help: 'Override a trust set by the environment',
  },
  {
    flag: '--idle-timeout',
    key: 'idleTimeoutSecs',
    kind: 'uint',
    arg: '<SECS>',
    env: 'CATALYST_CODE_IDLE_TIMEOUT',
    defaultText: '120',
    help: 'Idle timeout of a model stream (seconds without a chunk)',
  },
  {
    flag: '--max-session-tokens',
    key: 'maxSessionTokens',
    kind: 'uint',
    arg: '<N>',
    env: 'CATALYST_CODE_MAX_SESSION_TOKENS',
    defaultText: '0 (unlimited)',
    help: 'Hard token budget of a session',
  },
  {
    flag: '--debug-log',
    key: 'debugLog',
    kind: 'string',
    arg: '<FILE>',
    env: 'CATALYST_CODE_DEBUG_LOG',
    defaultText: 'off',
    help: 'Structured JSONL debug log',
  },
  {
    flag: '--debug',
    key: 'debug',
    kind: 'on',
    env: 'CATALYST_CODE_DEBUG=1',
    defaultText: 'off',
    help: 'Full-verbosity debug log (defaults the log to ~/.config/catalyst-code/debug.jsonl)',
  },
  {
    flag: '--session',
    key: 'session',
    kind: 'string',
    arg: '<FILE>',
    env: 'CATALYST_CODE_SESSION',
    defaultText: 'none (no persistence)',
    help: 'Append-only JSONL session file, resumed on restart',
  },
  { flag: '--model', key: 'model', kind: 'string', arg: '<ID>', defaultText: 'none', help: 'Default model id' },
  {
    flag: '--provider',
    key: 'provider',
    kind: 'string',
    arg: '<NAME>',
    env: 'UMANS_ACTIVE_PROVIDER',
    defaultText: 'first configured provider',
    help: 'Active model provider (see `providers` in the config files)',
  },
  {
    flag: '--config',
    key: 'configFile',
    kind: 'string',
    arg: '<FILE>',
    defaultText: 'the search below',
    help: 'Read only this JSON config file instead of the default search',
  },
];

const FLAG_BY_NAME = new Map(FLAGS.map((f) => [f.flag, f]));

/**
 * Parses the arguments after the program name (`process.argv.slice(2)`).
 * Accepts `--flag value` and `--flag=value`. A flag that needs a value takes the next
 * argument whatever it looks like (as upstream does); a missing or malformed value
 * leaves the option unset.
 */
export function parseCli(argv: string[]): CliOptions {
  const out: CliOptions = { help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    if (arg === '-V' || arg === '--version') {
      out.version = true;
      continue;
    }
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
    const spec = FLAG_BY_NAME.get(name);
    if (!spec) {
      // Unknown flag: skip its value too, unless that value looks like the next flag.
      if (inline === undefined && i + 1 < argv.length && !argv[i + 1].startsWith('--')) i++;
      continue;
    }
    if (spec.kind === 'on' || spec.kind === 'off') {
      applySwitch(out, spec, inline);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) continue;
      value = argv[++i];
    }
    applyValue(out, spec, spec.kind, value);
  }
  return out;
}

function applySwitch(out: CliOptions, spec: FlagSpec, inline: string | undefined): void {
  const given = inline === undefined ? true : parseBoolean(inline);
  if (given === undefined) return;
  const value = spec.kind === 'on' ? given : !given;
  (out as unknown as Record<string, unknown>)[spec.key] = value;
}

function applyValue(out: CliOptions, spec: FlagSpec, kind: ValueKind, raw: string): void {
  const target = out as unknown as Record<string, unknown>;
  if (kind === 'string') target[spec.key] = raw;
  else if (kind === 'uint') target[spec.key] = parseUint(raw);
  else target[spec.key] = splitList(raw);
  if (target[spec.key] === undefined) delete target[spec.key];
}

/** Non-negative integer in decimal, or undefined. */
export function parseUint(raw: string): number | undefined {
  const s = raw.trim();
  if (!/^\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function parseBoolean(raw: string): boolean | undefined {
  const s = raw.trim().toLowerCase();
  if (s === '1' || s === 'true' || s === 'yes' || s === 'on') return true;
  if (s === '0' || s === 'false' || s === 'no' || s === 'off') return false;
  return undefined;
}

export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function helpLine(spec: FlagSpec): string {
  const left = `      ${spec.flag}${spec.arg ? ` ${spec.arg}` : ''}`;
  const env = spec.env ? ` [env: ${spec.env}]` : '';
  return `${left.padEnd(42)} ${spec.help}${env} [default: ${spec.defaultText}]`;
}

export const HELP_TEXT: string = [
  'catalyst-code-core — coding agent core speaking the Catalyst Code wire protocol v2 (NDJSON on stdio)',
  '',
  'USAGE:',
  '  core [OPTIONS]',
  '',
  'OPTIONS:',
  ...FLAGS.map(helpLine),
  `${'  -h, --help'.padEnd(42)} Print this help`,
  `${'  -V, --version'.padEnd(42)} Print the version`,
  '',
  'Flags take `--flag value` or `--flag=value`; unknown flags are ignored.',
  'Precedence, lowest first: defaults, config files, environment, flags.',
  'This TypeScript core runs bash on the host: with --sandbox other than none it refuses bash (fails closed).',
  '',
  'ENVIRONMENT (no flag):',
  '  UMANS_PROVIDERS                   JSON array of provider objects',
  '  CATALYST_CODE_SHELL               bash | powershell [default: powershell on Windows, else bash]',
  '  CATALYST_CODE_AUTO_COMPACT        1/true or 0/false [default: on]',
  '  CATALYST_CODE_COMPACT_INSTRUCTIONS  guidance for the compaction summary',
  '  CATALYST_CODE_RULES_OFF           project rules sources not read: all, or agents_md,claude_md,copilot_instructions,copilot_path_instructions,clinerules,cursor_project_rules,cursorrules',
  '  CATALYST_CODE_APPROVAL_TIMEOUT_SECS  how long an approval request waits before it expires [default: 900]',
  "  each provider's api_key_env      e.g. UMANS_API_KEY, OPENCODE_GO_API_KEY, OPENROUTER_API_KEY, DEEPSEEK_API_KEY",
  '',
  'CONFIG FILES (later overrides earlier; keys are flat at the top level):',
  '  ~/.config/catalyst-code/config.json, ~/.config/catalyst-code/catalyst-code.d/*.json (sorted),',
  '  ~/.config/catalyst-code/settings.json, then ./settings.json and ./settings.local.json (untrusted:',
  '  security-sensitive keys such as approval, providers, api keys and permissions are ignored there).',
  '',
].join('\n');

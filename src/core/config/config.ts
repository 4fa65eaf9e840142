// Loads the core's configuration: defaults < config files < environment < flags (research §3.2–3.3).
import { join, resolve } from 'node:path';
import type { CliOptions } from './cli';
import { applyCliLayer } from './cliLayer';
import { listConfigSources, readConfigSource, stripUntrustedKeys } from './configFiles';
import { DEFAULT_PROVIDER_KEY_ENV, DEFAULT_PROVIDER_NAME, defaultConfig, type CoreConfig } from './coreConfig';
import { applyEnvLayer } from './envLayer';
import { applyFileLayer } from './fileLayer';
import { normalizeConfig } from './normalizeConfig';
import { applyProjectRulesLayer } from './rulesSettings';
import type { ProviderConfig } from './providers';

export type { ApprovalMode, CoreConfig, SandboxNetworkMode } from './coreConfig';
export { resolveApiKey } from './apiKey';

/**
 * Never throws on bad input: unreadable or malformed files, bad values and keys ignored
 * in untrusted files are reported in `warnings`. Relative paths (workspace, session,
 * debug log, --config) resolve against `opts.cwd`.
 */
export function loadConfig(cli: CliOptions, env: NodeJS.ProcessEnv, opts: { home: string; cwd: string }): CoreConfig {
  const cwd = resolve(opts.cwd);
  const configDir = join(opts.home, '.config', 'catalyst-code');
  const cfg = defaultConfig(opts.home, cwd, configDir, process.platform);
  for (const source of listConfigSources(configDir, cwd, cli.configFile)) {
    const json = readConfigSource(source, cfg.warnings);
    if (!json) continue;
    const layer = source.trusted ? json : stripUntrustedKeys(json, source.path, cfg.warnings);
    applyFileLayer(cfg, layer, source.path, cwd);
    // Read from the whole file: a project file may turn rules off, which stripping would lose (see rulesSettings.ts).
    cfg.projectRules = applyProjectRulesLayer(cfg.projectRules, json.project_rules, source.trusted, (m) =>
      cfg.warnings.push(`${source.path}: ${m}`),
    );
  }
  applyEnvLayer(cfg, env, cwd);
  applyCliLayer(cfg, cli, cwd);
  normalizeConfig(cfg);
  if (cfg.providers.length === 0) cfg.providers.push(defaultProvider(cfg.baseUrl));
  return cfg;
}

function defaultProvider(baseUrl: string): ProviderConfig {
  return {
    name: DEFAULT_PROVIDER_NAME,
    kind: 'openai',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKeyEnv: DEFAULT_PROVIDER_KEY_ENV,
    headers: {},
  };
}

/** The provider named `name` (or cfg.activeProvider), else the first configured one, as upstream resolves it. */
export function selectActiveProvider(cfg: CoreConfig, name?: string): ProviderConfig {
  const wanted = name ?? cfg.activeProvider;
  return cfg.providers.find((p) => p.name === wanted) ?? cfg.providers[0];
}

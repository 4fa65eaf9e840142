// Applies parsed command-line flags, the highest-precedence layer.
import { resolve } from 'node:path';
import type { CliOptions } from './cli';
import type { CoreConfig } from './coreConfig';
import { parseSandbox, parseSandboxNetwork } from './configValues';
import { approvalOrDestructive } from './fileLayer';

export function applyCliLayer(cfg: CoreConfig, cli: CliOptions, cwd: string): void {
  const warn = (msg: string) => cfg.warnings.push(`command line: ${msg}`);
  if (cli.workspace !== undefined) cfg.workspace = resolve(cwd, cli.workspace);
  if (cli.baseUrl?.trim()) cfg.baseUrl = cli.baseUrl.trim();
  if (cli.approval !== undefined) cfg.approval = approvalOrDestructive(cli.approval, warn);
  if (cli.bashTimeoutSecs !== undefined) cfg.bashTimeoutSecs = cli.bashTimeoutSecs;
  if (cli.maxBashTimeoutSecs !== undefined) cfg.maxBashTimeoutSecs = cli.maxBashTimeoutSecs;
  if (cli.fetchTimeoutSecs !== undefined) cfg.fetchTimeoutSecs = cli.fetchTimeoutSecs;
  if (cli.diagTimeoutSecs !== undefined) cfg.diagTimeoutSecs = cli.diagTimeoutSecs;
  if (cli.trustProjectPlugins !== undefined) cfg.trustProjectPlugins = cli.trustProjectPlugins;
  if (cli.debugLog?.trim()) cfg.debugLog = resolve(cwd, cli.debugLog);
  if (cli.debug !== undefined) cfg.debug = cli.debug;
  if (cli.session?.trim()) cfg.sessionFile = resolve(cwd, cli.session);
  if (cli.model?.trim()) cfg.model = cli.model.trim();
  if (cli.provider?.trim()) cfg.activeProvider = cli.provider.trim();
  if (cli.sandbox !== undefined) cfg.sandbox = parseSandbox(cli.sandbox);
  if (cli.noNetwork !== undefined) cfg.noNetwork = cli.noNetwork;
  if (cli.sandboxImage?.trim()) cfg.sandboxImage = cli.sandboxImage.trim();
  if (cli.sandboxCpus !== undefined) cfg.sandboxCpus = cli.sandboxCpus;
  if (cli.sandboxMemoryMb !== undefined) cfg.sandboxMemoryMb = cli.sandboxMemoryMb;
  if (cli.sandboxDiskMb !== undefined) cfg.sandboxDiskMb = cli.sandboxDiskMb;
  if (cli.sandboxNetwork !== undefined) cfg.sandboxNetworkMode = parseSandboxNetwork(cli.sandboxNetwork);
  if (cli.sandboxEnvAllowlist !== undefined) cfg.sandboxEnvAllowlist = cli.sandboxEnvAllowlist;
  if (cli.idleTimeoutSecs !== undefined) cfg.idleTimeoutSecs = cli.idleTimeoutSecs;
  if (cli.maxSessionTokens !== undefined) cfg.maxSessionTokens = cli.maxSessionTokens;
}

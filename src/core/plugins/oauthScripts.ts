/** One OAuth action of a plugin's script (research A §8.2): one process, one JSON object in, one JSON object out. */
import { join } from 'node:path';
import type { OauthAction, OauthConfig } from './oauthManifest';
import { exitStatusText, runPluginScript } from './scriptRunner';

export interface OauthScriptHost {
  env: NodeJS.ProcessEnv;
  /** Canonical workspace root. */
  workspace: string;
  /** `~/.config/catalyst-code`: token files live in its `oauth/` folder. */
  configDir: string;
}

export const oauthTokenFile = (configDir: string, cfg: OauthConfig): string => join(configDir, 'oauth', cfg.tokenPath);

/**
 * Runs `action` with upstream's stdin (`action, provider_id, token_path, workspace, timestamp` plus `extra`) and returns
 * the parsed object. Throws an Error whose message says what failed (never with the script's stdout, which may hold a token).
 */
export async function runOauthAction(
  host: OauthScriptHost,
  cfg: OauthConfig,
  action: OauthAction,
  extra: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const script = cfg.scripts[action];
  if (!script) throw new Error(`plugin '${cfg.plugin}' declares no ${action} script for '${cfg.providerId}'`);
  const timeoutMs = action === 'login' || action === 'complete' ? cfg.loginTimeoutMs : cfg.tokenTimeoutMs;
  const input = {
    action,
    provider_id: cfg.providerId,
    token_path: oauthTokenFile(host.configDir, cfg),
    workspace: host.workspace,
    timestamp: Math.floor(Date.now() / 1000),
    ...extra,
  };
  const result = await runPluginScript({
    script,
    input: JSON.stringify(input),
    timeoutMs,
    env: host.env,
    envPassthrough: cfg.envPassthrough,
    label: `oauth ${action} script`,
    signal,
  });
  const what = `oauth ${action} script of plugin '${cfg.plugin}'`;
  if (result.kind === 'timed_out') throw new Error(`${what} timed out after ${timeoutMs}ms`);
  if (result.kind === 'aborted') throw new Error(`${what} was cancelled`);
  if (result.kind === 'failed') throw new Error(result.message);
  if (result.code !== 0 || result.signal) {
    throw new Error(`${what} exited with ${exitStatusText(result.code, result.signal)}: ${result.stderr.trim().slice(0, 2000)}`);
  }
  const stdout = result.stdout.trim();
  if (!stdout) throw new Error(`${what} returned empty stdout`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (err) {
    throw new Error(`${what} returned invalid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${what} did not return a JSON object`);
  return parsed as Record<string, unknown>;
}

/** `{ok:false, error}` → the script's error text; anything else → undefined. */
export function scriptRefusal(out: Record<string, unknown>): string | undefined {
  if (out.ok !== false) return undefined;
  return typeof out.error === 'string' && out.error ? out.error : 'the script reported a failure';
}

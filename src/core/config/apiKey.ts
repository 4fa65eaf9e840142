// Which API key a provider uses (upstream `resolve_provider`).
import type { CoreConfig } from './coreConfig';
import { getOwn } from '../platform/jsonValue';
import type { ProviderConfig } from './providers';

/** Runtime key (set_key, or seeded from provider_keys) > the provider's api_key > the env var named by api_key_env. Empty values are skipped. */
export function resolveApiKey(
  p: ProviderConfig,
  cfg: CoreConfig,
  env: NodeJS.ProcessEnv,
  runtimeKeys: Record<string, string>,
): string | undefined {
  const candidates = [getOwn(runtimeKeys, p.name), getOwn(cfg.providerKeys, p.name), p.apiKey, p.apiKeyEnv ? env[p.apiKeyEnv] : undefined];
  return candidates.find((k): k is string => typeof k === 'string' && k.trim().length > 0);
}

import type { ProviderPreset } from '../../protocol';

/** One provider the login flow configures with `add_custom_provider` (never with a key: keys go through `set_key`). */
export interface ProviderSetup {
  name: string;
  baseUrl: string;
  kind: 'openai' | 'anthropic';
}

/** What configuring a provider needs of a folder's session (a part of ChatSession). */
export interface ProviderTarget {
  addCustomProvider(p: ProviderSetup & { keyFollows?: boolean }): unknown;
  setKey(provider: string, key: string): unknown;
}

/**
 * Configures `setups` on one core: each endpoint without a key, then the key (if any) with `set_key`, so the key never
 * reaches config.json. With a key, the endpoint is announced as `keyFollows`: the core lists its models only once the
 * key is there (a loopback endpoint that needs one would otherwise be listed without it first and report HTTP 401).
 */
export async function configureProviders(target: ProviderTarget, setups: readonly ProviderSetup[], key: string): Promise<void> {
  for (const s of setups) {
    await target.addCustomProvider({ name: s.name, baseUrl: s.baseUrl, kind: s.kind, ...(key ? { keyFollows: true } : {}) });
    if (key) await target.setKey(s.name, key);
  }
}

/**
 * The providers a preset becomes. OpenCode Go serves some models over an Anthropic endpoint under the same key and base
 * URL; the core's own `login` expands it the same way (src/core/config/providers.ts providerFromPreset).
 */
export function providersForPreset(preset: Pick<ProviderPreset, 'id' | 'base_url' | 'kind'>): ProviderSetup[] {
  const primary: ProviderSetup = { name: preset.id, baseUrl: preset.base_url, kind: preset.kind === 'anthropic' ? 'anthropic' : 'openai' };
  if (preset.id === 'opencode-go') return [{ name: 'opencode-go-anthropic', baseUrl: preset.base_url, kind: 'anthropic' }, primary];
  return [primary];
}

/** Input-box validation: a message when invalid, undefined when fine. */
export function validateBaseUrl(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return 'Enter the endpoint URL, e.g. http://127.0.0.1:11434/v1';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'Not a URL. Example: https://api.example.com/v1';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Use an http:// or https:// URL.';
  if (url.username || url.password) return 'Put credentials in the API key, not in the URL.';
  return undefined;
}

export function validateProviderName(value: string, taken: readonly string[] = []): string | undefined {
  const name = value.trim();
  if (!name) return 'Enter a short name, e.g. ollama';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) return 'Use letters, digits, dots, dashes or underscores (max 64).';
  if (taken.includes(name)) return `'${name}' is a preset; pick another name or choose the preset.`;
  return undefined;
}

/** The SecretStorage key of a provider's API key. */
export function secretKeyFor(provider: string): string {
  return `catalystCode.apiKey.${provider}`;
}

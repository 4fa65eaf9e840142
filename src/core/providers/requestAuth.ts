import type { ResolvedProvider } from './types';

/**
 * The provider as one request sends it: its request-time credentials (a plugin's OAuth token) merged into its headers,
 * each replacing a header of the same name whatever its case. Without credentials the provider is returned as it is.
 */
export async function withRequestAuth(provider: ResolvedProvider): Promise<ResolvedProvider> {
  if (!provider.authorize) return provider;
  const extra = await provider.authorize();
  if (!extra || extra.length === 0) return provider;
  const headers = { ...provider.headers };
  for (const [name, value] of extra) {
    for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
    headers[name] = value;
  }
  return { ...provider, headers };
}

import type { ResolvedProvider } from './types';

export const ANTHROPIC_VERSION = '2023-06-01';

/** `{baseUrl}{path}` with exactly one slash between them; an absolute `path` is used as is. */
export function endpointUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Authentication for the provider's dialect, then the provider's own headers (which win). */
export function providerHeaders(provider: ResolvedProvider): Record<string, string> {
  const headers: Record<string, string> = {};
  if (provider.kind === 'anthropic') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (provider.apiKey) headers['x-api-key'] = provider.apiKey;
  } else if (provider.apiKey) {
    headers.authorization = `Bearer ${provider.apiKey}`;
  }
  return { ...headers, ...provider.headers };
}

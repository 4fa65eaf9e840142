import type { ResolvedProvider } from '../providers/types';
import { parseUmansUsage, unavailableUsage, type ProviderUsage } from './umansUsageShape';

/** Upstream's limit for each usage request. */
export const USAGE_TIMEOUT_MS = 10_000;

/**
 * Asks the provider for its plan and rate-limit windows, as upstream's `fetch_provider_usage` does: Umans' `/usage`,
 * fixed messages for providers without a usage endpoint, and for anything else with a key a probe of `{base_url}/usage`
 * in Umans' shape, used only when it yields windows. Never throws; the messages never carry the key.
 */
export async function fetchProviderUsage(p: ResolvedProvider, timeoutMs = USAGE_TIMEOUT_MS): Promise<ProviderUsage> {
  const host = hostOf(p.baseUrl);
  if (host === 'umans.ai' || host.endsWith('.umans.ai')) {
    if (!p.apiKey) return unavailableUsage('Umans is not authenticated — run /login.');
    const answer = await fetchJson(`${trimSlash(p.baseUrl)}/usage`, p.apiKey, timeoutMs);
    return answer === undefined
      ? unavailableUsage('Could not reach Umans /usage — check your network and API key.')
      : parseUmansUsage(answer);
  }
  if (p.kind === 'anthropic') {
    return unavailableUsage(
      'Anthropic API-key mode has no account usage endpoint. Use a Claude Pro/Max subscription via a plugin OAuth provider for 5-hour and weekly limits, or check console.anthropic.com for organization rate limits.',
    );
  }
  if (host === 'generativelanguage.googleapis.com' || host === 'cloudcode-pa.googleapis.com') {
    return unavailableUsage('Google Gemini does not expose plan usage via API. Check quotas in Google AI Studio / Cloud Console.');
  }
  if (host === 'opencode.ai' && new URL(p.baseUrl).pathname.startsWith('/zen/go')) {
    return unavailableUsage('OpenCode Go does not expose subscription usage via API yet.');
  }
  if (p.apiKey) {
    const answer = await fetchJson(`${trimSlash(p.baseUrl)}/usage`, p.apiKey, timeoutMs);
    const probed = answer === undefined ? undefined : parseUmansUsage(answer);
    if (probed?.available && probed.windows.length > 0) return probed;
  }
  return unavailableUsage(`Provider \`${p.name || 'unknown'}\` does not publish usage stats for /usage.`);
}

/** GETs a JSON document with the key as bearer; undefined on any failure (network, status, timeout, not JSON). */
async function fetchJson(url: string, apiKey: string, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

import type { ResolvedProvider } from '../providers/types';
import { withRequestAuth } from '../providers/requestAuth';
import { parseAnthropicOauthUsage } from './anthropicOauthUsageShape';
import { parseCodexUsage } from './codexUsageShape';
import { parseUmansUsage, unavailableUsage, type ProviderUsage } from './umansUsageShape';
import { parseXaiUsage } from './xaiUsageShape';

/** Upstream's limit for each usage request. */
export const USAGE_TIMEOUT_MS = 10_000;
/** Another limit in milliseconds (a positive integer), for a slow proxy or the tests' hanging stand-in. */
export const USAGE_TIMEOUT_ENV = 'CATALYST_CODE_USAGE_TIMEOUT_MS';

export const ANTHROPIC_OAUTH_USAGE_URL = 'https://api.anthropic.com/api/oauth/usage';
export const XAI_BILLING_URL = 'https://cli-chat-proxy.grok.com/v1/billing?format=credits';
/** Point the fixed usage hosts elsewhere (a proxy, or the tests' local stand-in). */
export const ANTHROPIC_USAGE_URL_ENV = 'CATALYST_CODE_ANTHROPIC_USAGE_URL';
export const XAI_BILLING_URL_ENV = 'CATALYST_CODE_XAI_BILLING_URL';

/** What Claude Code sends with its OAuth token to the usage endpoint. */
const ANTHROPIC_OAUTH_HEADERS = { 'anthropic-beta': 'oauth-2025-04-20' };

export interface UsageOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Asks the provider for its plan and rate-limit windows, as upstream's `fetch_provider_usage` does: Umans' `/usage`,
 * ChatGPT Codex's `wham/usage`, Anthropic's OAuth usage, xAI's billing, fixed messages for providers without a usage
 * endpoint, and for anything else with a key a probe of `{base_url}/usage` in Umans' shape, used only when it yields
 * windows. Never throws; the messages never carry the credential, and it is sent only to the provider's own host.
 */
export async function fetchProviderUsage(p: ResolvedProvider, opts: UsageOptions = {}): Promise<ProviderUsage> {
  const env = opts.env ?? process.env;
  const timeoutMs = opts.timeoutMs ?? usageTimeoutFrom(env);
  const host = hostOf(p.baseUrl);
  if (host === 'umans.ai' || host.endsWith('.umans.ai')) {
    if (!p.apiKey) return unavailableUsage('Umans is not authenticated — run /login.');
    const answer = await fetchJson(`${trimSlash(p.baseUrl)}/usage`, bearer(p.apiKey), timeoutMs);
    return answer === undefined
      ? unavailableUsage('Could not reach Umans /usage — check your network and API key.')
      : parseUmansUsage(answer);
  }
  const backendApi = codexBackendApi(p.baseUrl);
  if (backendApi) return codexUsage(p, backendApi, timeoutMs);
  if (p.kind === 'anthropic') {
    if (!p.apiKey && p.authorize)
      return anthropicOauthUsage(p, env[ANTHROPIC_USAGE_URL_ENV]?.trim() || ANTHROPIC_OAUTH_USAGE_URL, timeoutMs);
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
  if (host === 'api.x.ai' || p.name.toLowerCase() === 'xai') {
    return xaiUsage(p, env[XAI_BILLING_URL_ENV]?.trim() || XAI_BILLING_URL, timeoutMs);
  }
  if (p.apiKey) {
    const answer = await fetchJson(`${trimSlash(p.baseUrl)}/usage`, bearer(p.apiKey), timeoutMs);
    const probed = answer === undefined ? undefined : parseUmansUsage(answer);
    if (probed?.available && probed.windows.length > 0) return probed;
  }
  return unavailableUsage(`Provider \`${p.name || 'unknown'}\` does not publish usage stats for /usage.`);
}

/**
 * `https://chatgpt.com/backend-api/codex` → `https://chatgpt.com/backend-api`: a base on chatgpt.com (or
 * chat.openai.com) under `/backend-api`, or any base whose path ends in `/backend-api/codex` (a proxy of it).
 */
export function codexBackendApi(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  const at = path.indexOf('/backend-api');
  if (at < 0) return undefined;
  const chatgptHost = ['chatgpt.com', 'chat.openai.com'].includes(url.hostname.toLowerCase());
  if (!chatgptHost && !/\/backend-api\/codex$/.test(path)) return undefined;
  return `${url.origin}${path.slice(0, at)}/backend-api`;
}

async function codexUsage(p: ResolvedProvider, backendApi: string, timeoutMs: number): Promise<ProviderUsage> {
  const headers = await credentialed(p);
  if (!headers) return unavailableUsage('ChatGPT is not authenticated — log in to the provider first.');
  const answer = await fetchJson(`${backendApi}/wham/usage`, headers, timeoutMs);
  return answer === undefined
    ? unavailableUsage('Could not reach ChatGPT usage (wham/usage) — check your network and login.')
    : parseCodexUsage(answer);
}

async function anthropicOauthUsage(p: ResolvedProvider, usageUrl: string, timeoutMs: number): Promise<ProviderUsage> {
  if (hostOf(usageUrl) !== hostOf(p.baseUrl)) {
    return unavailableUsage(
      `Anthropic usage is only asked of the provider's own host; \`${p.name}\` is not served by ${hostOf(usageUrl)}.`,
    );
  }
  const headers = await credentialed(p);
  if (!headers) return unavailableUsage('Anthropic is not authenticated — log in to the provider first.');
  const answer = await fetchJson(usageUrl, { ...headers, ...ANTHROPIC_OAUTH_HEADERS }, timeoutMs);
  return answer === undefined
    ? unavailableUsage('Could not reach Anthropic usage — check your network and login.')
    : parseAnthropicOauthUsage(answer);
}

async function xaiUsage(p: ResolvedProvider, billingUrl: string, timeoutMs: number): Promise<ProviderUsage> {
  if (!xaiOwns(hostOf(billingUrl), hostOf(p.baseUrl))) {
    return unavailableUsage(`xAI usage is only asked of xAI's own hosts; \`${p.name}\` is not served by ${hostOf(billingUrl)}.`);
  }
  const headers = await credentialed(p);
  if (!headers) return unavailableUsage('xAI is not authenticated — set an API key or log in.');
  const answer = await fetchJson(billingUrl, headers, timeoutMs);
  return answer === undefined ? unavailableUsage('Could not reach xAI billing — check your network and API key.') : parseXaiUsage(answer);
}

/** The billing host serves the provider itself, or it is xAI's Grok proxy and the provider is xAI's API. */
function xaiOwns(billingHost: string, providerHost: string): boolean {
  if (billingHost === providerHost) return true;
  const xaiApi = providerHost === 'x.ai' || providerHost.endsWith('.x.ai') || providerHost.endsWith('.grok.com');
  return xaiApi && billingHost === 'cli-chat-proxy.grok.com';
}

/** The provider's headers with its credential (the key as bearer, or its OAuth headers); undefined without one. */
async function credentialed(p: ResolvedProvider): Promise<Record<string, string> | undefined> {
  const authed = await withRequestAuth(p).catch(() => p);
  const headers = { ...authed.headers };
  const hasAuth = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization' || k.toLowerCase() === 'x-api-key');
  if (p.apiKey && !hasAuth) return { ...headers, ...bearer(p.apiKey) };
  return hasAuth ? headers : undefined;
}

function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

/** GETs a JSON document; undefined on any failure (network, status, timeout, not JSON). */
async function fetchJson(url: string, headers: Record<string, string>, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, {
      headers: { ...headers, accept: 'application/json' },
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

/** $CATALYST_CODE_USAGE_TIMEOUT_MS when it is a positive integer, else upstream's 10 s. */
export function usageTimeoutFrom(env: NodeJS.ProcessEnv): number {
  const raw = env[USAGE_TIMEOUT_ENV]?.trim() ?? '';
  return /^[1-9]\d*$/.test(raw) ? Number(raw) : USAGE_TIMEOUT_MS;
}

/**
 * Which URLs the web tools may reach: http(s) only, userinfo dropped, the host against fetch_allowlist (`*.example.com`
 * matches the apex and its subdomains; a listed host is allowed even when private) or, with an empty allowlist, every
 * host but the private ones (privateHosts.ts). Upstream's checks and messages (research §9.1).
 */
import { isPrivateHost } from './privateHosts';

export interface EgressPolicy {
  /** Host patterns; empty = any public host. */
  allowlist: readonly string[];
  /** --no-network: with an empty allowlist, no egress at all. */
  noNetwork: boolean;
}

export interface HttpTarget {
  /** The URL to request, without userinfo. */
  url: URL;
  /** Lowercase, no IPv6 brackets, no trailing dot. */
  host: string;
}

/** An absolute http(s) URL with a host, userinfo removed; undefined for anything else (file:, data:, relative…). */
export function parseHttpUrl(raw: string): HttpTarget | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.username = '';
  url.password = '';
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return host ? { url, host } : undefined;
}

export function hostMatches(host: string, pattern: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (p.startsWith('*.')) {
    const apex = p.slice(2);
    return host === apex || host.endsWith(`.${apex}`);
  }
  return host === p;
}

export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  if (allowlist.length > 0) return allowlist.some((pattern) => hostMatches(host, pattern));
  return !isPrivateHost(host);
}

/** Why `label` (fetch, web_search) may not contact `host`, in upstream's words; undefined when it may. */
export function hostRefusal(label: string, host: string, policy: EgressPolicy): string | undefined {
  if (policy.noNetwork && policy.allowlist.length === 0) {
    return (
      `${label}: network egress is disabled (--no-network) and no fetch_allowlist is configured; populate fetch_allowlist ` +
      `to opt specific hosts in for ${label} while keeping bash offline`
    );
  }
  if (hostAllowed(host, policy.allowlist)) return undefined;
  if (policy.allowlist.length === 0) {
    return (
      `${label}: host '${host}' is a private/loopback/link-local address and is blocked by default (empty fetch_allowlist); ` +
      'add it to fetch_allowlist to explicitly opt in'
    );
  }
  return (
    `${label}: host '${host}' is not in the allowlist (${policy.allowlist.length} pattern(s) configured); ` +
    'add it to fetch_allowlist to permit it'
  );
}

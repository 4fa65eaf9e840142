// Which providers count as logged in without a key: upstream's rule is a usable key, or a keyless local endpoint
// (a loopback base URL and no api_key_env), or OAuth credentials (which this core does not implement).
import type { ProviderConfig } from './providers';

/**
 * Whether the URL's host is this machine's loopback: the name `localhost`, an IPv4 address in 127.0.0.0/8 or the IPv6
 * address ::1. Decided on the URL alone (no DNS), after the WHATWG parser's normalization (`127.1`, `0x7f000001` and
 * `[0:0:0:0:0:0:0:1]` are loopback; `0.0.0.0`, private LAN addresses and other names are not).
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * A local server that needs no key (Ollama, LM Studio, llama.cpp): a loopback base URL, and no `api_key_env` — a
 * provider that names a key variable requires that key, so without it it is not logged in.
 */
export function isKeylessLocal(p: Pick<ProviderConfig, 'baseUrl' | 'apiKeyEnv'>): boolean {
  return !p.apiKeyEnv && isLoopbackUrl(p.baseUrl);
}

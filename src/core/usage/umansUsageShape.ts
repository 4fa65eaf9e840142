import type { UsageWindow } from '../../protocol';
import { asObject, num, str, unixSeconds, withDefined } from './usageJson';

/** What a provider's usage answer comes to (the `usage` event without its provider/model fields). */
export interface ProviderUsage {
  available: boolean;
  plan?: string;
  message?: string;
  windows: UsageWindow[];
}

export function unavailableUsage(message: string): ProviderUsage {
  return { available: false, message, windows: [] };
}

/**
 * Umans' `/v1/usage` payload (upstream `parse_umans_usage_full`): `{plan:{display_name|slug}, message?,
 * usage:{concurrent_sessions, requests_in_window, tokens_in, tokens_out}, limits:{concurrency:{limit}, requests:{limit}},
 * window:{resets_at, remaining_minutes}}`. Other gateways that mirror it are read with the same mapping.
 */
export function parseUmansUsage(v: unknown): ProviderUsage {
  const root = asObject(v);
  const usage = asObject(root.usage);
  const limits = asObject(root.limits);
  const window = asObject(root.window);
  const windows: UsageWindow[] = [];

  const concUsed = num(usage.concurrent_sessions);
  const concLimit = num(asObject(limits.concurrency).limit);
  if (concUsed !== undefined || concLimit !== undefined) {
    windows.push(withDefined({ id: 'concurrency', label: 'Concurrency', unit: 'sessions', used: concUsed, limit: concLimit }));
  }

  const reqUsed = num(usage.requests_in_window);
  const reqLimit = num(asObject(limits.requests).limit);
  if (reqUsed !== undefined || reqLimit !== undefined) {
    windows.push(
      withDefined({
        id: 'requests',
        label: 'Requests (window)',
        unit: 'requests',
        used: reqUsed,
        limit: reqLimit,
        resets_at: unixSeconds(window.resets_at),
        detail: remainingDetail(num(window.remaining_minutes)),
      }),
    );
  }

  const tokensIn = num(usage.tokens_in);
  const tokensOut = num(usage.tokens_out);
  if (tokensIn !== undefined || tokensOut !== undefined) {
    const tin = tokensIn ?? 0;
    const tout = tokensOut ?? 0;
    windows.push({
      id: 'tokens',
      label: 'Tokens (session window)',
      unit: 'tokens',
      used: tin + tout,
      detail: `in ${tokenCount(tin)} / out ${tokenCount(tout)}`,
    });
  }

  if (windows.length === 0) return unavailableUsage('Umans returned no usage fields.');
  const plan = str(asObject(root.plan).display_name) ?? str(asObject(root.plan).slug);
  const message = str(root.message);
  return { available: true, ...(plan ? { plan } : {}), ...(message ? { message } : {}), windows };
}

function remainingDetail(minutes: number | undefined): string | undefined {
  if (minutes === undefined) return undefined;
  if (minutes < 1) return 'resets soon';
  if (minutes < 60) return `resets in ${Math.round(minutes)}m`;
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return m === 0 ? `resets in ${h}h` : `resets in ${h}h ${m}m`;
}

function tokenCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(Math.round(n));
}

import { parseRetryAfterMs } from './backoff';

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|h|m|s))+$/;
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/**
 * When a provider that answered 429 takes requests again, as epoch ms. Retry-After wins; else the reset headers that
 * OpenAI (`x-ratelimit-reset-requests|tokens`, durations such as "6m0s"), Anthropic (`anthropic-ratelimit-*-reset`,
 * RFC 3339) and other gateways (`x-ratelimit-reset`, epoch seconds or ms, or seconds to wait) send — the latest of
 * them, since the answer does not say which limit was hit.
 */
export function rateLimitResetAt(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = parseRetryAfterMs(headers.get('retry-after'), now);
  if (retryAfter !== undefined) return now + retryAfter;
  const resets: number[] = [];
  headers.forEach((value, name) => {
    if (!/^(x-ratelimit-reset|anthropic-ratelimit-.*-reset|x-ratelimit-reset-.+)$/.test(name)) return;
    const at = resetValueAt(value.trim(), now);
    if (at !== undefined) resets.push(at);
  });
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

function resetValueAt(value: string, now: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    if (n > 1e12) return Math.round(n);
    if (n > 1e9) return Math.round(n * 1000);
    return now + Math.round(n * 1000);
  }
  if (DURATION.test(value)) {
    let ms = 0;
    for (const [, amount, unit] of value.matchAll(DURATION_PART)) ms += Number(amount) * UNIT_MS[unit];
    return now + Math.round(ms);
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

/** "rate limited until 07:12 (in 10m)": the clock in the core's local time, and the wait, which holds in any zone. */
export function rateLimitedUntilText(untilMs: number, now = Date.now()): string {
  const clock = new Date(untilMs);
  const hhmm = `${String(clock.getHours()).padStart(2, '0')}:${String(clock.getMinutes()).padStart(2, '0')}`;
  return `rate limited until ${hhmm} (in ${waitText(Math.max(0, untilMs - now))})`;
}

function waitText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
}

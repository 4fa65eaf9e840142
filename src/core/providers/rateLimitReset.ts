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

/**
 * A 429's end as the error event's `rate_limited_until`: epoch seconds, rounded up. The text below names the same
 * second, so the two can never disagree (an end at 06:00:59.800 is 06:01 in both).
 */
export function rateLimitedUntilSeconds(untilMs: number): number {
  return Math.ceil(untilMs / 1000);
}

/**
 * "rate limited until 07:12 (in 10m)": the clock in the core's local time, and the wait, which holds in any zone. Both
 * from the end's whole second (rateLimitedUntilSeconds); the wait is counted from the next whole second, so
 * Retry-After: 600 received at 06:00:00.300 (ending at 06:10:01) still reads "in 10m", not "in 11m".
 */
export function rateLimitedUntilText(untilMs: number, now = Date.now()): string {
  const endMs = rateLimitedUntilSeconds(untilMs) * 1000;
  const clock = new Date(endMs);
  const hhmm = `${String(clock.getHours()).padStart(2, '0')}:${String(clock.getMinutes()).padStart(2, '0')}`;
  return `rate limited until ${hhmm} (in ${waitText(Math.max(0, endMs - rateLimitedUntilSeconds(now) * 1000))})`;
}

function waitText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
}

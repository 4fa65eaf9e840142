import { rateLimitedUntilText, rateLimitResetAt } from './rateLimitReset';
import { errorBodyExcerpt } from './redact';
import { ProviderError } from './types';

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);
const AUTH_STATUSES: ReadonlySet<number> = new Set([401, 403]);
const ERROR_BODY_READ_LIMIT = 64 * 1024;

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * A ProviderError for an HTTP status; the message holds only the status, a redacted body excerpt and, for a 429 whose
 * end the server told (`rateLimitedUntil`, epoch ms), until when.
 */
export function httpStatusError(
  providerName: string,
  status: number,
  body: string,
  secrets: readonly string[],
  rateLimitedUntil?: number,
  now = Date.now(),
): ProviderError {
  const excerpt = errorBodyExcerpt(body, secrets);
  const until = status === 429 ? rateLimitedUntil : undefined;
  const limited = until === undefined ? '' : ` — ${rateLimitedUntilText(until, now)}`;
  const message = `HTTP ${status} from ${providerName}${excerpt ? `: ${excerpt}` : ''}${limited}`;
  return new ProviderError(AUTH_STATUSES.has(status) ? 'auth' : 'http', message, {
    status,
    retryable: isRetryableStatus(status),
    retryAfterMs: until === undefined ? undefined : Math.max(0, until - now),
    rateLimitedUntil: until,
  });
}

/** Reads (a bounded part of) a failed response's body and turns it into a ProviderError. */
export async function errorFromResponse(response: Response, providerName: string, secrets: readonly string[]): Promise<ProviderError> {
  const body = await readBoundedText(response, ERROR_BODY_READ_LIMIT);
  const now = Date.now();
  return httpStatusError(providerName, response.status, body, secrets, rateLimitResetAt(response.headers, now), now);
}

async function readBoundedText(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut short still leaves the status to report.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return text.slice(0, limit);
}

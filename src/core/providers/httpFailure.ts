import { parseRetryAfterMs } from './backoff';
import { errorBodyExcerpt } from './redact';
import { ProviderError } from './types';

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);
const AUTH_STATUSES: ReadonlySet<number> = new Set([401, 403]);
const ERROR_BODY_READ_LIMIT = 64 * 1024;

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** A ProviderError for an HTTP status; the message holds only the status and a redacted body excerpt. */
export function httpStatusError(
  providerName: string,
  status: number,
  body: string,
  secrets: readonly string[],
  retryAfterMs?: number,
): ProviderError {
  const excerpt = errorBodyExcerpt(body, secrets);
  const message = `HTTP ${status} from ${providerName}${excerpt ? `: ${excerpt}` : ''}`;
  return new ProviderError(AUTH_STATUSES.has(status) ? 'auth' : 'http', message, {
    status,
    retryable: isRetryableStatus(status),
    retryAfterMs: status === 429 ? retryAfterMs : undefined,
  });
}

/** Reads (a bounded part of) a failed response's body and turns it into a ProviderError. */
export async function errorFromResponse(response: Response, providerName: string, secrets: readonly string[]): Promise<ProviderError> {
  const body = await readBoundedText(response, ERROR_BODY_READ_LIMIT);
  const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'));
  return httpStatusError(providerName, response.status, body, secrets, retryAfterMs);
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

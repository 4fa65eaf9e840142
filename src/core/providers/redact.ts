import { isRecord } from './jsonValue';
import type { ResolvedProvider } from './types';

export const REDACTED = '[REDACTED]';
export const EXCERPT_MAX_CHARS = 300;

const SECRET_HEADER_NAME = /auth|key|token|secret|cookie/i;
const SK_TOKEN = /\bsk-[A-Za-z0-9_-]{4,}/g;
const BEARER_TOKEN = /\bBearer\s+[^\s"',;]+/gi;

/** The strings that must never appear in a message: the key and the values of secret-looking headers. */
export function providerSecrets(provider: ResolvedProvider): string[] {
  const secrets = Object.entries(provider.headers)
    .filter(([name, value]) => SECRET_HEADER_NAME.test(name) && value.length > 0)
    .flatMap(([, value]) => {
      const bearer = /^Bearer\s+(\S+)$/i.exec(value)?.[1];
      return bearer ? [value, bearer] : [value];
    });
  if (provider.apiKey) secrets.push(provider.apiKey);
  // Longest first, so a key that contains another secret is replaced whole.
  return secrets.sort((a, b) => b.length - a.length);
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out.replace(BEARER_TOKEN, REDACTED).replace(SK_TOKEN, REDACTED);
}

/** A short, single-line, redacted excerpt of an error body; prefers the JSON error message when there is one. */
export function errorBodyExcerpt(body: string, secrets: readonly string[]): string {
  const readable = jsonErrorMessage(body) ?? body;
  const oneLine = redactSecrets(readable, secrets).replace(/\s+/g, ' ').trim();
  return oneLine.length <= EXCERPT_MAX_CHARS ? oneLine : `${oneLine.slice(0, EXCERPT_MAX_CHARS - 1)}…`;
}

function jsonErrorMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const error = parsed.error;
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') {
    return typeof error.type === 'string' ? `${error.type}: ${error.message}` : error.message;
  }
  return typeof parsed.message === 'string' ? parsed.message : undefined;
}

/** Keys whose values never leave the core (research §1.1), matched case-insensitively. */
const SECRET_KEYS = new Set(['api_key', 'apikey', 'authorization', 'password', 'access_token', 'refresh_token', 'id_token', 'client_secret', 'x-api-key']);

export const REDACTED = '[REDACTED]';

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/** Returns a copy of `value` with every secret-named key's value replaced, at any depth. */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, 0) as T;
}

function redactValue(value: unknown, depth: number): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretKey(k) && v !== null && v !== undefined && v !== '' ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

/** True when the object tree contains a secret-named key (lets the hot path skip the copy). */
export function containsSecretKey(value: unknown, depth = 0): boolean {
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsSecretKey(v, depth + 1));
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (isSecretKey(k) || containsSecretKey(v, depth + 1)) return true;
  }
  return false;
}

/** Scrubs known secret strings and bearer/sk- tokens out of free text (error messages, tool output previews). */
export function scrubText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  return out
    .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, `Bearer ${REDACTED}`)
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED);
}

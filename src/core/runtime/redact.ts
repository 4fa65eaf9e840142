/** Keys whose values never leave the core (research §1.1), matched case-insensitively. */
const SECRET_KEYS = new Set([
  'api_key',
  'apikey',
  'authorization',
  'password',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'x-api-key',
]);

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
  return replaceNeedles(text, secretNeedles(secrets))
    .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, `Bearer ${REDACTED}`)
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED);
}

/** Secrets shorter than this are never matched in free text: replacing them would mangle ordinary words. */
export const MIN_SECRET_LENGTH = 4;

/** What `s` looks like inside a JSON string literal (tool-call arguments carry JSON text inside a string). */
export function jsonEscaped(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/**
 * The strings to look for, given the live secrets: every secret of at least MIN_SECRET_LENGTH characters plus its
 * JSON-escaped form when that differs, deduplicated, longest first (a secret containing another is replaced whole).
 */
export function secretNeedles(secrets: readonly unknown[]): string[] {
  const set = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) continue;
    set.add(s);
    set.add(jsonEscaped(s));
  }
  return [...set].sort((a, b) => b.length - a.length);
}

export function includesAny(text: string, needles: readonly string[]): boolean {
  for (const n of needles) if (text.includes(n)) return true;
  return false;
}

/** Replaces every occurrence of every needle with REDACTED (a few passes, in case a replacement re-forms one). */
export function replaceNeedles(text: string, needles: readonly string[]): string {
  let out = text;
  for (let pass = 0; pass < 4 && includesAny(out, needles); pass++) {
    for (const n of needles) if (out.includes(n)) out = out.split(n).join(REDACTED);
  }
  return out;
}

/**
 * Returns `value` with every needle replaced in every string (object keys included) at any depth. Copy on write: the
 * input is never mutated, and when nothing matches the very same reference comes back (no allocation).
 */
export function scrubDeep<T>(value: T, needles: readonly string[]): T {
  return needles.length === 0 ? value : (scrubNode(value, needles, 0) as T);
}

function scrubNode(value: unknown, needles: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return includesAny(value, needles) ? replaceNeedles(value, needles) : value;
  if (value === null || typeof value !== 'object' || depth > 512) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = scrubNode(value[i], needles, depth + 1);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // only plain JSON-like objects are walked
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = includesAny(k, needles) ? replaceNeedles(k, needles) : k;
    const scrubbed = scrubNode(v, needles, depth + 1);
    if (key === k && scrubbed === v) continue;
    out ??= { ...(value as Record<string, unknown>) };
    if (key !== k) delete out[k];
    out[key] = scrubbed;
  }
  return out ?? value;
}

/** True when some needle has a surrogate half (its escaped form may differ in context: the JSON pre-check is unsafe). */
function hasSurrogate(needles: readonly string[]): boolean {
  return needles.some((n) => /[\ud800-\udfff]/.test(n));
}

/**
 * Scrubs the live secrets (provider keys, config keys, sudo passwords: whatever `source` returns now) out of values
 * and text that leave the core or are persisted. The compiled needle list is cached until the secrets change, and with
 * no secret configured every method returns its input untouched.
 */
export class SecretScrubber {
  private lastSource: readonly unknown[] = [];
  private compiled: string[] = [];
  private inJson: string[] = [];
  private precheck = true;

  constructor(private readonly source: () => readonly unknown[]) {}

  /** The needles to match now (longest first), [] when no secret is configured. */
  needles(): readonly string[] {
    const now = this.source();
    if (now.length !== this.lastSource.length || now.some((s, i) => s !== this.lastSource[i])) {
      this.lastSource = [...now];
      this.compiled = secretNeedles(now);
      this.inJson = [...new Set(this.compiled.map(jsonEscaped))];
      this.precheck = !hasSurrogate(this.compiled);
    }
    return this.compiled;
  }

  get active(): boolean {
    return this.needles().length > 0;
  }

  text(text: string): string {
    const needles = this.needles();
    return needles.length && includesAny(text, needles) ? replaceNeedles(text, needles) : text;
  }

  value<T>(value: T): T {
    return scrubDeep(value, this.needles());
  }

  /**
   * JSON text of `value` with the secrets scrubbed, and the scrubbed value. The hot path serializes once and checks the
   * JSON text with `includes`; only a hit (rare) walks and copies the value and serializes it again.
   */
  serialize<T>(value: T): { value: T; json: string } {
    const json = JSON.stringify(value);
    const needles = this.needles();
    if (needles.length === 0 || (this.precheck && !includesAny(json, this.inJson))) return { value, json };
    const scrubbed = scrubDeep(value, needles);
    return scrubbed === value ? { value, json } : { value: scrubbed, json: JSON.stringify(scrubbed) };
  }
}

// Small readers for untyped JSON taken from config files, env vars and commands.

export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The first of `keys` present on `obj` (e.g. snake_case then camelCase). */
export function pick(obj: JsonObject, ...keys: string[]): unknown {
  for (const k of keys) if (Object.hasOwn(obj, k)) return obj[k];
  return undefined;
}

export function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim().length > 0 ? v : undefined;
}

/** A JSON number that is a non-negative safe integer. */
export function uintValue(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export function stringArray(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === 'string');
}

/** Sets `rec[key]`, refusing keys that would touch the prototype chain. */
export function setOwn<T>(rec: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
  rec[key] = value;
}

/** Reads `rec[key]` only if it is an own property (never Object.prototype members). */
export function getOwn<T>(rec: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

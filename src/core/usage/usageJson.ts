import type { UsageWindow } from '../../protocol';

// Tolerant readers for the providers' usage JSON: a missing or mistyped field reads as undefined, never a throw.

/** A count sent as an int, a float or a quoted number; negative or non-finite values are dropped. */
export function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Unix seconds from a number, a digit string or an ISO-8601 date. */
export function unixSeconds(v: unknown): number | undefined {
  const n = num(v);
  if (n !== undefined) return Math.trunc(n);
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : Math.trunc(ms / 1000);
}

export function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function withDefined(w: UsageWindow): UsageWindow {
  return Object.fromEntries(Object.entries(w).filter(([, x]) => x !== undefined)) as unknown as UsageWindow;
}

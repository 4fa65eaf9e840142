// Reading fields of events from a core we do not trust to be complete or well typed (upstream's own fixtures are bare
// `{type}` objects). Every accessor returns undefined for a missing or mistyped field instead of throwing.
import type { EventOf, EventType, LooseEvent } from '../../protocol';

/** An event as read from a core: a `type` and whatever else the core sent (fields may be missing; the type may be unknown). */
export type WireEvent = LooseEvent | { type: string; [field: string]: unknown };

export type Fields = Record<string, unknown>;

/**
 * A message of the mirror as it arrives from a peer we do not trust: its fields by their mirror NAMES, each optional and
 * `unknown`. The names are checked by the compiler (reading a field the interface does not name fails to compile, even
 * on an open interface: its index signature is dropped); the values are checked at run time, by the guards below
 * (`str`, `num`, …): a field typed `string` may still arrive as a number. Distributed over a union, so
 * `Untrusted<A | B>` offers the fields every member has.
 */
export type Untrusted<T> = T extends unknown ? { readonly [K in keyof T as NamedKey<K>]?: unknown } : never;

type NamedKey<K> = string extends K ? never : number extends K ? never : K;

/** A core event of type `K` as a reducer reads it: the dispatcher picked the reducer by the `type`, so that one is known. */
export type UntrustedEvent<K extends EventType> = Untrusted<EventOf<K>> & { readonly type: K };

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** A plain object; with `T`, read as an untrusted `T` (its field names checked, its values not). */
export function record(v: unknown): Fields | undefined;
export function record<T>(v: unknown): Untrusted<T> | undefined;
export function record(v: unknown): Fields | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : undefined;
}

export function strings(v: unknown): string[] {
  return (arr(v) ?? []).filter((x): x is string => typeof x === 'string');
}

/** The plain objects of an array (with `T`, each read as an untrusted `T`); anything else in it is dropped. */
export function records(v: unknown): Fields[];
export function records<T>(v: unknown): Untrusted<T>[];
export function records(v: unknown): Fields[] {
  return (arr(v) ?? []).map((x) => record(x)).filter((x): x is Fields => x !== undefined);
}

// Reading fields of events from a core we do not trust to be complete or well typed (upstream's own fixtures are bare
// `{type}` objects). Every accessor returns undefined for a missing or mistyped field instead of throwing.

export type Fields = Record<string, unknown>;

export function fieldsOf(e: object): Fields {
  return e as Fields;
}

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

export function record(v: unknown): Fields | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : undefined;
}

export function strings(v: unknown): string[] {
  return (arr(v) ?? []).filter((x): x is string => typeof x === 'string');
}

export function records(v: unknown): Fields[] {
  return (arr(v) ?? []).map(record).filter((x): x is Fields => x !== undefined);
}

// Upstream decodes each command with serde into a typed struct: a field of the wrong JSON type, or a required one
// missing, fails the whole line as `error{code:"invalid_command", message:"bad command: <serde's words>"}` before any
// handler runs. These checks give the same answer for the commands whose handlers read such fields.

export type FieldType = 'string' | 'string[]';

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Absent (or, for an optional field, null) is fine when false. */
  required: boolean;
}

/** The first field of `cmd` that serde would refuse, as upstream's message (`bad command: …`); undefined when none. */
export function badCommandField(cmd: Readonly<Record<string, unknown>>, fields: readonly FieldSpec[]): string | undefined {
  // serde reports a wrong type before a missing field: it sees the former while reading, the latter at the end.
  for (const field of fields) {
    const value = cmd[field.name];
    if (value === undefined || (value === null && !field.required)) continue;
    const problem = typeProblem(value, field.type);
    if (problem) return `bad command: invalid type: ${problem}`;
  }
  const missing = fields.find((field) => field.required && cmd[field.name] === undefined);
  return missing ? `bad command: missing field \`${missing.name}\`` : undefined;
}

/** serde's `<what it got>, expected <what it wanted>`, or undefined when the value fits. */
function typeProblem(value: unknown, type: FieldType): string | undefined {
  if (type === 'string') return typeof value === 'string' ? undefined : `${unexpected(value)}, expected a string`;
  if (!Array.isArray(value)) return `${unexpected(value)}, expected a sequence`;
  const item = value.find((v) => typeof v !== 'string');
  return item === undefined ? undefined : `${unexpected(item)}, expected a string`;
}

/** serde_json's `Unexpected` wording for a JSON value. */
function unexpected(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return Array.isArray(value) ? 'sequence' : 'map';
}

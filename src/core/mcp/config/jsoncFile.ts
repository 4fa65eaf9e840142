/**
 * Reading a JSON-with-comments file the way VS Code reads its own `mcp.json` (comments and trailing commas allowed),
 * with Microsoft's `jsonc-parser`, the parser VS Code uses. A missing file is not a problem; an unreadable or
 * malformed one is, with the line and column of the first error, and the file is left untouched.
 */
import { readFileSync } from 'node:fs';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export type JsoncRead = { kind: 'missing' } | { kind: 'problem'; message: string } | { kind: 'object'; value: Record<string, unknown> };

export function readJsoncObjectFile(path: string): JsoncRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'problem', message: `cannot be read (${code ?? String(err)})` };
  }
  return parseJsoncObject(text);
}

export function parseJsoncObject(text: string): JsoncRead {
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    return { kind: 'problem', message: `is not valid JSON: ${printParseErrorCode(first.error)} at ${lineColumn(text, first.offset)}` };
  }
  if (!isPlainObject(value)) return { kind: 'problem', message: 'does not hold a JSON object' };
  return { kind: 'object', value };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** read_file: a text file's content, windowed so one call never floods the context. */
import fs from 'node:fs/promises';
import { readFileText } from '../platform/fileText';
import { failed, guarded, succeeded, ToolInputError } from './outcome';
import { optionalBoolean, optionalCount, requiredString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition, ToolOutcome } from './types';
import { resolveWorkspacePath } from '../platform/workspace';

const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_FILE_BYTES = 32 * 1024 * 1024;

export const readFileTool: ToolDefinition = {
  name: 'read_file',
  kind: 'readonly',
  pathRules: true,
  parallelSafe: true,
  schema: {
    name: 'read_file',
    description:
      `Read a text file (workspace-relative path). Returns the exact content of files up to ${MAX_LINES} lines; ` +
      'longer files come in windows: pass offset (1-based line) and limit to page. Use line_numbers: true only for ' +
      'citing lines, never copy numbered lines into an edit search.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        offset: { type: 'integer', description: '1-based first line to return' },
        limit: { type: 'integer', description: `maximum number of lines (default and max ${MAX_LINES})` },
        line_numbers: { type: 'boolean', description: 'prefix each line with "N|"' },
      },
      required: ['path'],
    },
  },
  targets: pathArguments('path'),
  execute: guarded('read_file', async (args, ctx) => {
    const requested = requiredString(args, 'path');
    const abs = resolveWorkspacePath(ctx.workspace, requested);
    const stats = await fs.stat(abs);
    if (stats.isDirectory()) throw new ToolInputError(`${requested} is a directory; use list_dir`);
    if (stats.size > MAX_FILE_BYTES) {
      throw new ToolInputError(`${requested} is ${stats.size} bytes, too large to read; use grep to find what you need`);
    }
    const file = await readFileText(abs);
    if (file.kind === 'missing') throw new ToolInputError(`${requested}: no such file`);
    if (file.kind === 'binary') throw new ToolInputError(`${requested} is a binary file (${stats.size} bytes); read_file only shows text`);
    return renderWindow(requested, file.text, {
      offset: optionalCount(args, 'offset'),
      limit: optionalCount(args, 'limit'),
      lineNumbers: optionalBoolean(args, 'line_numbers'),
    });
  }),
};

interface WindowOptions {
  offset?: number;
  limit?: number;
  lineNumbers: boolean;
}

function renderWindow(requested: string, text: string, options: WindowOptions): ToolOutcome {
  if (text === '') return succeeded(`(${requested} is empty)`);
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const start = Math.max((options.offset ?? 1) - 1, 0);
  if (start >= lines.length) return failed(`read_file: offset ${start + 1} is past the end of ${requested} (${lines.length} lines)`);
  const limit = Math.min(options.limit || MAX_LINES, MAX_LINES);
  const window = lines.slice(start, start + limit);
  const longLines = window.some((line) => line.length > MAX_LINE_CHARS);
  const whole = start === 0 && window.length === lines.length;
  if (whole && !longLines && !options.lineNumbers) return succeeded(text);

  const end = start + window.length;
  const width = String(end).length;
  const body = window
    .map(cutLongLine)
    .map((line, i) => (options.lineNumbers ? `${String(start + i + 1).padStart(width)}|${line}` : line))
    .join('\n');
  const notes: string[] = [];
  if (!whole) {
    const more = end < lines.length ? `; pass offset=${end + 1} to continue` : '';
    notes.push(`[showing lines ${start + 1}-${end} of ${lines.length}${more}]`);
  }
  if (longLines) notes.push(`[lines longer than ${MAX_LINE_CHARS} characters were cut]`);
  return succeeded(notes.length > 0 ? `${body}\n\n${notes.join('\n')}` : body);
}

function cutLongLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} of ${line.length} chars]`;
}

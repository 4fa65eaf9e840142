// Newline-delimited JSON codec for the wire (commands on stdin, events on stdout).
// Generic: it yields plain objects and leaves type dispatch to the caller.
import { Buffer, isUtf8 } from 'node:buffer';

export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const PREVIEW_CHARS = 120;
// 120 chars are at most 480 UTF-8 bytes.
const PREVIEW_BYTES = PREVIEW_CHARS * 4;

export type NdjsonDecodeErrorKind = 'oversize' | 'parse' | 'utf8' | 'not_object';

export interface NdjsonDecodeError {
  kind: NdjsonDecodeErrorKind;
  message: string;
  /** Byte length of the offending line, without its line terminator. */
  bytes: number;
  /** The start of the line, at most 120 characters, decoded leniently. */
  preview: string;
}

export interface NdjsonDecoderOptions {
  /** Longest accepted line in bytes (terminator excluded). Default 8 MiB, upstream's MAX_COMMAND_BYTES. */
  maxLineBytes?: number;
  /** Called once per line holding a JSON object; `lineBytes` excludes the line terminator. */
  onValue(value: unknown, lineBytes: number): void;
  /** Called once per rejected line; decoding continues with the next line. */
  onError(err: NdjsonDecodeError): void;
}

/**
 * Incremental NDJSON decoder. Feed it chunks of any size with `push`, call `end` at EOF.
 *
 * Complete lines of a chunk are validated (UTF-8) and decoded to a string in one go and then
 * split; only the unterminated tail of a chunk is kept, as a list of copied pieces. A line that
 * grows past `maxLineBytes` is dropped as it streams in, never buffered whole.
 *
 * If `onValue` or `onError` throws, the remaining lines of the chunk are still decoded and the
 * first exception is rethrown from `push`/`end` afterwards.
 */
export class NdjsonDecoder {
  private readonly maxLineBytes: number;
  private readonly onValue: (value: unknown, lineBytes: number) => void;
  private readonly onError: (err: NdjsonDecodeError) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Byte count of an oversize line being skipped, or -1 when not skipping. */
  private skippedBytes = -1;
  private skippedPreview = '';
  private callbackError: { error: unknown } | undefined;

  constructor(options: NdjsonDecoderOptions) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${String(max)}`);
    }
    this.maxLineBytes = max;
    this.onValue = options.onValue;
    this.onError = options.onError;
  }

  /** Bytes of an unterminated line currently held in memory. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  push(chunk: Uint8Array | string): void {
    const bytes = toBuffer(chunk);
    let start = 0;
    if (this.skippedBytes >= 0) {
      start = this.continueSkipping(bytes);
      if (start < 0) return this.rethrowCallbackError();
    }
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    if (lastNewline < start) {
      this.holdTail(bytes, start);
      return this.rethrowCallbackError();
    }
    if (this.pendingBytes > 0) start = this.completePendingLine(bytes, start);
    if (start <= lastNewline) this.decodeLines(bytes, start, lastNewline + 1);
    this.holdTail(bytes, lastNewline + 1);
    this.rethrowCallbackError();
  }

  /** Decodes a final unterminated line, if any, and resets the decoder for reuse. */
  end(): void {
    if (this.skippedBytes >= 0) {
      this.reportOversize(this.skippedBytes, this.skippedPreview);
      this.skippedBytes = -1;
      this.skippedPreview = '';
    } else if (this.pendingBytes > 0) {
      const line = this.takePending(undefined);
      this.decodeLines(line, 0, line.length);
    }
    this.rethrowCallbackError();
  }

  /** Skips bytes of an oversize line; returns where the next line starts, or -1 if none in `bytes`. */
  private continueSkipping(bytes: Buffer): number {
    const newline = bytes.indexOf(NEWLINE);
    if (newline < 0) {
      this.skippedBytes += bytes.length;
      return -1;
    }
    this.reportOversize(this.skippedBytes + newline, this.skippedPreview);
    this.skippedBytes = -1;
    this.skippedPreview = '';
    return newline + 1;
  }

  /** Keeps `bytes[from..]` (a line's unterminated start) or starts skipping once it is too long. */
  private holdTail(bytes: Buffer, from: number): void {
    const length = bytes.length - from;
    if (length === 0) return;
    if (this.pendingBytes + length > this.maxLineBytes) {
      this.skippedPreview = previewOfPieces([...this.pending, bytes.subarray(from)]);
      this.skippedBytes = this.pendingBytes + length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy: the caller may reuse its buffer once push() returns.
    this.pending.push(Buffer.from(bytes.subarray(from)));
    this.pendingBytes += length;
  }

  /** Finishes the line started in earlier chunks; returns where the next line starts. */
  private completePendingLine(bytes: Buffer, start: number): number {
    const newline = bytes.indexOf(NEWLINE, start);
    const total = this.pendingBytes + (newline - start);
    if (total > this.maxLineBytes) {
      this.reportOversize(total, previewOfPieces([...this.pending, bytes.subarray(start, newline)]));
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      const line = this.takePending(bytes.subarray(start, newline + 1));
      this.decodeLines(line, 0, line.length);
    }
    return newline + 1;
  }

  private takePending(head: Buffer | undefined): Buffer {
    if (head !== undefined) this.pending.push(head);
    const line = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes + (head?.length ?? 0));
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }

  /**
   * Decodes `bytes[start..end)`, whole lines each ended by '\n' (the last one may lack it at EOF).
   * Fast path: validate and decode the block at once; per-line decoding only if it holds bad UTF-8.
   */
  private decodeLines(bytes: Buffer, start: number, end: number): void {
    if (!isUtf8(bytes.subarray(start, end))) {
      this.decodeLinesOneByOne(bytes, start, end);
      return;
    }
    const text = bytes.toString('utf8', start, end);
    if (text.length === end - start) this.parseAsciiLines(text);
    else this.parseLinesCountingBytes(text, bytes, start);
  }

  /** `text` is pure ASCII, so a line's length in chars is its length in bytes. */
  private parseAsciiLines(text: string): void {
    const length = text.length;
    let pos = 0;
    while (pos < length) {
      let newline = text.indexOf('\n', pos);
      if (newline < 0) newline = length;
      let end = newline;
      if (end > pos && text.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
      if (end > pos) this.acceptLine(text, pos, end, end - pos);
      pos = newline + 1;
    }
  }

  /** Walks newlines in the text and in the bytes in step, to know each line's byte length. */
  private parseLinesCountingBytes(text: string, bytes: Buffer, byteStart: number): void {
    const length = text.length;
    let pos = 0;
    let bytePos = byteStart;
    while (pos < length) {
      let newline = text.indexOf('\n', pos);
      let byteNewline = bytes.indexOf(NEWLINE, bytePos);
      if (newline < 0) {
        newline = length;
        byteNewline = bytes.length;
      }
      let end = newline;
      let lineBytes = byteNewline - bytePos;
      if (end > pos && text.charCodeAt(end - 1) === CARRIAGE_RETURN) {
        end--;
        lineBytes--;
      }
      if (end > pos) this.acceptLine(text, pos, end, lineBytes);
      pos = newline + 1;
      bytePos = byteNewline + 1;
    }
  }

  private decodeLinesOneByOne(bytes: Buffer, start: number, end: number): void {
    let pos = start;
    while (pos < end) {
      let newline = bytes.indexOf(NEWLINE, pos);
      if (newline < 0 || newline >= end) newline = end;
      let lineEnd = newline;
      if (lineEnd > pos && bytes[lineEnd - 1] === CARRIAGE_RETURN) lineEnd--;
      if (lineEnd > pos) this.decodeOneLine(bytes, pos, lineEnd);
      pos = newline + 1;
    }
  }

  private decodeOneLine(bytes: Buffer, start: number, end: number): void {
    const lineBytes = end - start;
    if (lineBytes > this.maxLineBytes) {
      this.reportOversize(lineBytes, previewOf(bytes, start, end));
    } else if (!isUtf8(bytes.subarray(start, end))) {
      this.report('utf8', `line of ${lineBytes} bytes is not valid UTF-8`, lineBytes, previewOf(bytes, start, end));
    } else {
      this.parseLine(bytes.toString('utf8', start, end), lineBytes);
    }
  }

  private acceptLine(text: string, start: number, end: number, lineBytes: number): void {
    if (lineBytes > this.maxLineBytes) {
      this.reportOversize(lineBytes, text.slice(start, start + PREVIEW_CHARS));
    } else {
      this.parseLine(text.slice(start, end), lineBytes);
    }
  }

  private parseLine(line: string, lineBytes: number): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      if (line.trim() === '') return;
      this.report('parse', `invalid JSON: ${(err as Error).message}`, lineBytes, line.slice(0, PREVIEW_CHARS));
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
      this.report('not_object', `expected a JSON object, got ${what}`, lineBytes, line.slice(0, PREVIEW_CHARS));
      return;
    }
    try {
      this.onValue(value, lineBytes);
    } catch (error) {
      this.callbackError ??= { error };
    }
  }

  private reportOversize(lineBytes: number, preview: string): void {
    this.report('oversize', `line of ${lineBytes} bytes exceeds the ${this.maxLineBytes}-byte limit`, lineBytes, preview);
  }

  private report(kind: NdjsonDecodeErrorKind, message: string, bytes: number, preview: string): void {
    try {
      this.onError({ kind, message, bytes, preview });
    } catch (error) {
      this.callbackError ??= { error };
    }
  }

  private rethrowCallbackError(): void {
    const pending = this.callbackError;
    if (pending === undefined) return;
    this.callbackError = undefined;
    throw pending.error;
  }
}

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (Buffer.isBuffer(chunk)) return chunk;
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function previewOf(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, Math.min(end, start + PREVIEW_BYTES)).slice(0, PREVIEW_CHARS);
}

function previewOfPieces(pieces: Buffer[]): string {
  const head: Buffer[] = [];
  let length = 0;
  for (const piece of pieces) {
    if (length >= PREVIEW_BYTES) break;
    head.push(piece);
    length += piece.length;
  }
  const joined = Buffer.concat(head, Math.min(length, PREVIEW_BYTES));
  return previewOf(joined, 0, joined.length);
}

/**
 * One wire line: JSON plus '\n'. JSON.stringify escapes every control character, so the line
 * holds no raw newline; U+2028/U+2029 are escaped too, for readers that treat them as breaks.
 */
export function encodeLine(value: object): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new TypeError('value is not JSON-serializable');
  return (LINE_SEPARATORS.test(json) ? json.replace(LINE_SEPARATORS_GLOBAL, escapeSeparator) : json) + '\n';
}

const LINE_SEPARATORS = /[\u2028\u2029]/;
const LINE_SEPARATORS_GLOBAL = /[\u2028\u2029]/g;

function escapeSeparator(char: string): string {
  return char === '\u2028' ? '\\u2028' : '\\u2029';
}

/** True for a decoded value that can be dispatched on its `type` (commands and events alike). */
export function isCommand(value: unknown): value is { type: string } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

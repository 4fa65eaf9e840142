import fs from 'node:fs';
import path from 'node:path';
import { writeAllSync, writeFileAtomicSync } from '../platform/atomicWrite';
import { parseJsonObjectLine } from './jsonLine';
import { SESSION_HEADER_LINE, type RunRecord, type SessionMessage } from './sessionTypes';

const NEWLINE = 0x0a;
const TAIL_SCAN_CHUNK = 64 * 1024;

/** Byte offset just after the last '\n' before `end`, or 0 if there is none. */
function startOfLastLine(fd: number, end: number): number {
  const chunk = Buffer.alloc(TAIL_SCAN_CHUNK);
  let pos = end;
  while (pos > 0) {
    const len = Math.min(TAIL_SCAN_CHUNK, pos);
    pos -= len;
    fs.readSync(fd, chunk, 0, len, pos);
    const i = chunk.subarray(0, len).lastIndexOf(NEWLINE);
    if (i >= 0) return pos + i + 1;
  }
  return 0;
}

/**
 * If the file does not end with '\n' the previous writer died mid-line. A complete JSON object just
 * lacks its newline, so it gets one; anything else is a partial line and is cut away, so that our
 * appends start on a fresh line and the file stays valid JSONL.
 */
function repairUnterminatedTail(filePath: string): void {
  let fd: number;
  try {
    fd = fs.openSync(filePath, 'r+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    if (last[0] === NEWLINE) return;
    const lineStart = startOfLastLine(fd, size);
    const tail = Buffer.alloc(size - lineStart);
    fs.readSync(fd, tail, 0, tail.length, lineStart);
    if (parseJsonObjectLine(tail.toString('utf8'))) fs.writeSync(fd, '\n', size);
    else fs.ftruncateSync(fd, lineStart);
  } finally {
    fs.closeSync(fd);
  }
}

export interface SessionWriterOptions {
  /**
   * The JSON text of one line's value (default JSON.stringify). The core passes a serializer that scrubs the live
   * secrets, so a key the model repeated never reaches the disk (the in-memory conversation is left as it is).
   */
  serialize?: (value: unknown) => string;
}

/** Appends messages and run records to a session file; one line per write, fsync on `sync()`. */
export class SessionWriter {
  readonly path: string;
  private fd: number | undefined;
  private readonly serialize: (value: unknown) => string;

  constructor(filePath: string, options: SessionWriterOptions = {}) {
    this.path = filePath;
    this.serialize = options.serialize ?? ((value) => JSON.stringify(value));
    fs.mkdirSync(path.dirname(filePath), { recursive: true, mode: 0o700 });
    repairUnterminatedTail(filePath);
    this.fd = this.openForAppend();
  }

  appendMessage(m: SessionMessage): void {
    this.writeLine(this.serialize(m));
  }

  appendRun(r: RunRecord): void {
    this.writeLine(this.serialize({ _run: r }));
  }

  /** Flushes appended lines to disk; called at the end of each turn. */
  sync(): void {
    fs.fsyncSync(this.openFd());
  }

  /** Replaces the whole file atomically (reset, undo, compact). Run records follow the messages. */
  rewrite(messages: SessionMessage[], runs: RunRecord[] = []): void {
    this.openFd();
    const lines = [SESSION_HEADER_LINE, ...messages.map((m) => this.serialize(m)), ...runs.map((r) => this.serialize({ _run: r }))];
    writeFileAtomicSync(this.path, lines.join('\n') + '\n');
    // Our descriptor still points at the replaced file; reopen the new one.
    this.close();
    this.fd = this.openForAppend();
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private openForAppend(): number {
    const fd = fs.openSync(this.path, 'a', 0o600);
    if (fs.fstatSync(fd).size === 0) writeAllSync(fd, Buffer.from(SESSION_HEADER_LINE + '\n', 'utf8'));
    return fd;
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error(`session writer for ${this.path} is closed`);
    return this.fd;
  }

  private writeLine(json: string): void {
    writeAllSync(this.openFd(), Buffer.from(json + '\n', 'utf8'));
  }
}

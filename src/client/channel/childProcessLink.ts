// The stdio plumbing every spawned protocol process needs, whatever it speaks: stdout to a decoder, stderr to the log
// with a tail kept for diagnostics, exit bookkeeping, shutdown. CoreConnection and ScvConnection each compose one.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export interface Disposable {
  dispose(): void;
}

export type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Where stdout goes: an NDJSON decoder or a frame reader. A throw from either is logged, never fatal. */
export interface StdoutSink {
  push(chunk: Buffer): void;
  end(): void;
}

const STDERR_TAIL_LINES = 20;
/** How many of those lines an error message quotes. */
const STDERR_SUFFIX_LINES = 8;
/** After 'exit', how long to wait for 'close' (stdout drained) before treating the process as gone anyway. */
export const EXIT_DRAIN_MS = 1_000;

export interface ChildProcessLinkOptions {
  /** Arms the drain timer after 'exit' (default: an unref'd setTimeout, so it never keeps the host alive). */
  setTimer?: (fn: () => void, ms: number) => unknown;
}

/** A set of listeners called in registration order; one that throws is reported and the others still run. */
export class ListenerSet<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  add(listener: (...args: A) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** Calls the listeners registered now (one added or removed meanwhile does not change this round). */
  emit(args: A, onError?: (err: unknown) => void): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (err) {
        onError?.(err);
      }
    }
  }
}

/** One child process's stdio and lifetime. Log lines are prefixed with `name` (`core stdin: …`, `SCV process: …`). */
export class ChildProcessLink {
  /** Resolves once the process is gone (or could not be started); never rejects. */
  readonly exited: Promise<void>;
  private readonly logListeners = new ListenerSet<[line: string]>();
  private readonly exitListeners = new ListenerSet<Parameters<ExitListener>>();
  private readonly stderrTail: string[] = [];
  private stderrPartial = '';
  private exitState: ExitInfo | undefined;
  private markExited!: () => void;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly name: string,
    stdout: StdoutSink,
    options: ChildProcessLinkOptions = {},
  ) {
    const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms).unref());
    this.exited = new Promise((r) => (this.markExited = r));
    child.stdout.on('data', (chunk: Buffer) => this.guard(() => stdout.push(chunk)));
    child.stdout.on('end', () => this.guard(() => stdout.end()));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') this.log(`${name} stdin: ${err.message}`);
    });
    child.on('error', (err) => {
      this.log(`${name} process: ${err.message}`);
      this.rememberStderr(err.message);
      // A spawn failure (ENOENT, EACCES) never emits 'exit'.
      if (child.pid === undefined) this.finish(null, null);
    });
    // 'close' comes once stdout is drained, so no event is lost; a grandchild holding the pipes open must not delay it forever.
    child.on('exit', (code, signal) => setTimer(() => this.finish(code, signal), EXIT_DRAIN_MS));
    child.on('close', (code, signal) => this.finish(code, signal));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitState !== undefined;
  }

  /** How the process ended; undefined while it runs. */
  get exitInfo(): ExitInfo | undefined {
    return this.exitState;
  }

  /** True while a write to stdin can still reach the process. */
  get writable(): boolean {
    return !this.exitState && this.child.stdin.writable;
  }

  /** Writes to stdin; the caller checks `writable` first. EPIPE after a sudden exit is not reported. */
  write(data: string | Uint8Array): void {
    this.child.stdin.write(data);
  }

  /** The process's last stderr lines, the unfinished one included. */
  recentStderr(): string[] {
    return this.stderrPartial ? [...this.stderrTail, this.stderrPartial] : [...this.stderrTail];
  }

  /** `; last stderr lines:\n…` for an error message, or '' when the process wrote nothing to stderr. */
  stderrSuffix(): string {
    const tail = this.recentStderr().slice(-STDERR_SUFFIX_LINES);
    return tail.length ? `; last stderr lines:\n${tail.join('\n')}` : '';
  }

  onLog(listener: (line: string) => void): Disposable {
    return this.logListeners.add(listener);
  }

  /** Called once, after the last stdout chunk was handed on (or 1 s after 'exit' when the pipes stay open). */
  onExit(listener: ExitListener): Disposable {
    return this.exitListeners.add(listener);
  }

  /** Hands a line to the log listeners; a failing log sink must not break the connection. */
  log(line: string): void {
    this.logListeners.emit([line]);
  }

  /** Closes stdin (the process's shutdown signal) and SIGKILLs it if it is still running after `graceMs`. Resolves on exit. */
  stop(graceMs: number): Promise<void> {
    if (this.exitState) return Promise.resolve();
    this.child.stdin.end();
    const timer = setTimeout(() => void this.kill(), graceMs);
    return this.exited.then(() => clearTimeout(timer));
  }

  /** SIGKILL now. Resolves on exit. */
  kill(): Promise<void> {
    if (!this.exitState) this.child.kill('SIGKILL');
    return this.exited;
  }

  private onStderr(chunk: string): void {
    const lines = (this.stderrPartial + chunk).split('\n');
    this.stderrPartial = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.replace(/\r$/, '');
      if (!line) continue;
      this.rememberStderr(line);
      this.log(line);
    }
  }

  private rememberStderr(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitState) return;
    if (this.stderrPartial) {
      this.rememberStderr(this.stderrPartial);
      this.log(this.stderrPartial);
      this.stderrPartial = '';
    }
    this.exitState = { code, signal };
    this.markExited();
    this.exitListeners.emit([code, signal], (err) => this.log(`exit listener failed: ${(err as Error).message}`));
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log(`${this.name} stdout: ${(err as Error).message}`);
    }
  }
}

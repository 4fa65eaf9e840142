import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLIENT_CAPABILITIES, NdjsonDecoder, PROTOCOL_VERSION, encodeLine, isCommand, type Command, type LooseEvent } from '../protocol';
import type { CoreLaunch } from './coreLaunch';

/** An event as read from a core: a `type` and whatever else the core sent (fields may be missing; the type may be unknown). */
export type WireEvent = LooseEvent | { type: string; [field: string]: unknown };

export interface Disposable {
  dispose(): void;
}

export interface Handshake {
  ready: LooseEvent<'ready'>;
  hello: LooseEvent<'protocol_hello'>;
}

/** `history` and `tool_result` lines can be megabytes; anything larger is dropped and logged. */
export const MAX_EVENT_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** After closing stdin, how long a core may take to shut down before SIGKILL (as upstream's SDK). */
export const STOP_GRACE_MS = 3_000;
const STDERR_TAIL_LINES = 20;
const EXIT_DRAIN_MS = 1_000;

type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

/** One core process: spawn, NDJSON over stdio, the v2 handshake, shutdown. Knows nothing of sessions or UI. */
export class CoreConnection {
  private readonly eventListeners = new Set<(e: WireEvent) => void>();
  private readonly logListeners = new Set<(line: string) => void>();
  private readonly exitListeners = new Set<ExitListener>();
  private readonly stderrTail: string[] = [];
  private stderrPartial = '';
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly clientVersion: string,
    maxLineBytes: number,
  ) {
    let markExited!: () => void;
    this.exited = new Promise((r) => (markExited = r));
    const decoder = new NdjsonDecoder({
      maxLineBytes,
      onValue: (value) => this.dispatchValue(value),
      onError: (err) => this.log(`core stdout: ${err.kind}: ${err.message}${err.preview ? ` (${JSON.stringify(err.preview)})` : ''}`),
    });
    child.stdout.on('data', (chunk: Buffer) => this.guard(() => decoder.push(chunk)));
    child.stdout.on('end', () => this.guard(() => decoder.end()));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') this.log(`core stdin: ${err.message}`);
    });
    child.on('error', (err) => {
      this.log(`core process: ${err.message}`);
      this.rememberStderr(err.message);
      // A spawn failure (ENOENT, EACCES) never emits 'exit'.
      if (child.pid === undefined) this.finish(null, null, markExited);
    });
    // 'close' comes once stdout is drained, so no event is lost; a grandchild holding the pipes open must not delay it forever.
    child.on('exit', (code, signal) => setTimeout(() => this.finish(code, signal, markExited), EXIT_DRAIN_MS).unref());
    child.on('close', (code, signal) => this.finish(code, signal, markExited));
  }

  /** Spawns the core in `cwd` (the workspace folder). Listeners registered right after this call miss nothing. */
  static spawn(launch: CoreLaunch, cwd: string, clientVersion: string, opts: { maxLineBytes?: number } = {}): CoreConnection {
    const child = spawn(launch.command, launch.args, { cwd, env: launch.env, stdio: 'pipe', detached: false, windowsHide: true });
    return new CoreConnection(child, clientVersion, opts.maxLineBytes ?? MAX_EVENT_LINE_BYTES);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The core's last stderr lines (diagnostics for a failed start or a crash). */
  recentStderr(): string[] {
    return this.stderrPartial ? [...this.stderrTail, this.stderrPartial] : [...this.stderrTail];
  }

  onEvent(listener: (e: WireEvent) => void): Disposable {
    return register(this.eventListeners, listener);
  }

  onLog(listener: (line: string) => void): Disposable {
    return register(this.logListeners, listener);
  }

  onExit(listener: ExitListener): Disposable {
    return register(this.exitListeners, listener);
  }

  /** Writes one command line. After the core exited the command is dropped (EPIPE is not an error here). */
  send(cmd: Command): boolean {
    if (this.exitInfo || !this.child.stdin.writable) return false;
    this.child.stdin.write(encodeLine(cmd));
    return true;
  }

  /** Sends `init` (v2) and resolves once both `ready` and `protocol_hello` arrived. */
  handshake(timeoutMs = DEFAULT_HANDSHAKE_TIMEOUT_MS): Promise<Handshake> {
    if (this.exitInfo) {
      return Promise.reject(new Error(`the core exited (${describeExit(this.exitInfo.code, this.exitInfo.signal)}) before the handshake${this.stderrSuffix()}`));
    }
    return new Promise((resolve, reject) => {
      let ready: LooseEvent<'ready'> | undefined;
      let hello: LooseEvent<'protocol_hello'> | undefined;
      const cleanup = (): void => {
        clearTimeout(timer);
        events.dispose();
        exits.dispose();
      };
      const events = this.onEvent((e) => {
        if (e.type === 'ready') ready = e as LooseEvent<'ready'>;
        else if (e.type === 'protocol_hello') hello = e as LooseEvent<'protocol_hello'>;
        if (ready && hello) {
          cleanup();
          resolve({ ready, hello });
        }
      });
      const exits = this.onExit((code, signal) => {
        cleanup();
        reject(new Error(`the core exited (${describeExit(code, signal)}) before the handshake completed${this.stderrSuffix()}`));
      });
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`the core did not answer init within ${timeoutMs} ms${this.stderrSuffix()}`));
      }, timeoutMs);
      this.send({
        type: 'init',
        protocol_version: PROTOCOL_VERSION,
        client: { name: 'catalyst-vscode', version: this.clientVersion, capabilities: [...CLIENT_CAPABILITIES] },
      });
    });
  }

  /** Closes stdin (the core's shutdown signal) and SIGKILLs it if it is still running after 3 s. Resolves on exit. */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (this.exitInfo) return Promise.resolve();
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    return this.exited.then(() => clearTimeout(timer));
  }

  /** SIGKILL now. Resolves on exit. */
  kill(): Promise<void> {
    if (!this.exitInfo) this.child.kill('SIGKILL');
    return this.exited;
  }

  private dispatchValue(value: unknown): void {
    if (!isCommand(value)) {
      this.log(`core stdout: an object without a string "type" was ignored`);
      return;
    }
    for (const listener of [...this.eventListeners]) {
      try {
        listener(value as WireEvent);
      } catch (err) {
        this.log(`event listener failed on ${value.type}: ${(err as Error).stack ?? String(err)}`);
      }
    }
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

  private stderrSuffix(): string {
    const tail = this.recentStderr().slice(-8);
    return tail.length ? `; last stderr lines:\n${tail.join('\n')}` : '';
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, markExited: () => void): void {
    if (this.exitInfo) return;
    if (this.stderrPartial) {
      this.rememberStderr(this.stderrPartial);
      this.log(this.stderrPartial);
      this.stderrPartial = '';
    }
    this.exitInfo = { code, signal };
    markExited();
    for (const listener of [...this.exitListeners]) {
      try {
        listener(code, signal);
      } catch (err) {
        this.log(`exit listener failed: ${(err as Error).message}`);
      }
    }
  }

  private log(line: string): void {
    for (const listener of [...this.logListeners]) {
      try {
        listener(line);
      } catch {
        // A failing log sink must not break the connection.
      }
    }
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log(`core stdout: ${(err as Error).message}`);
    }
  }
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  if (code !== null) return `code ${code}`;
  return 'it could not be started';
}

function register<T>(set: Set<T>, listener: T): Disposable {
  set.add(listener);
  return { dispose: () => void set.delete(listener) };
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

/** The fake `scv-server` (a plain Node script) the SCV tests drive. */
export const FAKE_SCV_SERVER = resolve(__dirname, 'fakeScvServer.mjs');

export type ScvEvent = { type: string; [field: string]: any };

export interface RawScvClientOptions {
  /** Flags for the fake server (e.g. `--approval-policy always`); `--base-url` and `--model` come from the scenario. */
  args?: string[];
  env?: Record<string, string>;
}

/**
 * A bare SCV v3 client over the fake server's stdio: it sends exactly what a test writes and records every line the
 * server prints. The fake's own contract tests use it; the adapter scenarios use `ScvConnection` instead.
 */
export class RawScvClient {
  readonly events: ScvEvent[] = [];
  /** Every stdout line, parsed or not (a junk line that is not JSON lands here only). */
  readonly lines: string[] = [];
  readonly stderr: string[] = [];
  exitCode: number | null | undefined;
  exitSignal: NodeJS.Signals | null | undefined;
  private readonly listeners = new Set<() => void>();
  private partial = '';
  private requestCounter = 0;
  private readonly exited: Promise<void>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((r) =>
      child.on('close', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        r();
        this.notify();
      }),
    );
  }

  static start(opts: RawScvClientOptions = {}): RawScvClient {
    const child = spawn(process.execPath, [FAKE_SCV_SERVER, ...(opts.args ?? [])], {
      env: { PATH: process.env.PATH ?? '', ...opts.env },
      stdio: 'pipe',
    });
    return new RawScvClient(child);
  }

  nextRequestId(): string {
    return `c-${++this.requestCounter}`;
  }

  /** Sends one message; a missing `request_id` gets a fresh one. Returns the request id. */
  send(msg: { type: string; [field: string]: unknown }): string {
    const requestId = typeof msg.request_id === 'string' ? msg.request_id : this.nextRequestId();
    this.child.stdin.write(JSON.stringify({ ...msg, request_id: requestId }) + '\n');
    return requestId;
  }

  sendRaw(text: string): void {
    this.child.stdin.write(text);
  }

  /** `initialize` (protocol 3) then `session.start`; resolves with the session id and both answers. */
  async handshake(
    cwd: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ sessionId: string; initialized: ScvEvent; started: ScvEvent; snapshot: ScvEvent }> {
    const init = this.send({ type: 'initialize', protocol_version: 3, client: { name: 'raw-test-client', version: '0.0.1' } });
    const initialized = await this.waitFor((e) => e.request_id === init);
    if (initialized.type !== 'initialized') throw new Error(`handshake failed: ${JSON.stringify(initialized)}`);
    const start = this.send({ type: 'session.start', cwd, ...extra });
    const started = await this.waitFor((e) => e.request_id === start);
    if (started.type !== 'session.started') throw new Error(`session.start failed: ${JSON.stringify(started)}`);
    const snapshot = await this.waitForType('queue.snapshot');
    return { sessionId: started.session_id, initialized, started, snapshot };
  }

  /** Waits for the first event after index `from` matching `pred`; fails with the recent events on timeout or exit. */
  waitFor(pred: (e: ScvEvent) => boolean, opts: { from?: number; timeoutMs?: number } = {}): Promise<ScvEvent> {
    const from = opts.from ?? 0;
    const timeoutMs = opts.timeoutMs ?? 15_000;
    return new Promise((resolvePromise, reject) => {
      const check = (): void => {
        const found = this.events.slice(from).find(pred);
        if (found) {
          cleanup();
          resolvePromise(found);
        } else if (this.exitCode !== undefined) {
          cleanup();
          reject(new Error(`the fake server exited (${this.exitCode ?? this.exitSignal}) before the awaited event${this.recent()}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms${this.recent()}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  waitForType(type: string, opts: { from?: number; timeoutMs?: number } = {}): Promise<ScvEvent> {
    return this.waitFor((e) => e.type === type, opts);
  }

  /** Resolves once the process is gone. */
  waitForExit(): Promise<void> {
    return this.exited;
  }

  ofType(type: string, from = 0): ScvEvent[] {
    return this.events.slice(from).filter((e) => e.type === type);
  }

  /** Closes stdin (the server's shutdown signal) and waits for exit; SIGKILL after 8 s. */
  async close(): Promise<void> {
    if (this.exitCode === undefined) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 8000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private recent(): string {
    const last = this.events.slice(-12).map((e) => JSON.stringify(e).slice(0, 300));
    return `; last events:\n${last.join('\n')}\nstderr: ${this.stderr.join('').slice(-1500)}`;
  }

  private onStdout(chunk: string): void {
    // Only the new chunk is searched for a newline, so a multi-megabyte line costs linear time.
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', start)) >= 0) {
      const line = this.partial + chunk.slice(start, nl);
      this.partial = '';
      start = nl + 1;
      this.lines.push(line);
      try {
        this.events.push(JSON.parse(line) as ScvEvent);
      } catch {
        // not JSON: kept in `lines` only
      }
    }
    this.partial += chunk.slice(start);
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

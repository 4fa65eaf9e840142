import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLIENT_CAPABILITIES, NdjsonDecoder, PROTOCOL_VERSION, encodeLine, isCommand, type Command, type LooseEvent } from '../../protocol';
import { ChildProcessLink, ListenerSet, type Disposable, type ExitListener } from './childProcessLink';
import type { CoreLaunch } from './coreLaunch';
import type { WireEvent } from '../state/eventFields';

export type { Disposable } from './childProcessLink';

export interface Handshake {
  ready: LooseEvent<'ready'>;
  hello: LooseEvent<'protocol_hello'>;
}

/** `history` and `tool_result` lines can be megabytes; anything larger is dropped and logged. */
export const MAX_EVENT_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** After closing stdin, how long a core may take to shut down before SIGKILL (as upstream's SDK). */
export const STOP_GRACE_MS = 3_000;

/** One core process: spawn, NDJSON over stdio, the v2 handshake, shutdown. Knows nothing of sessions or UI. */
export class CoreConnection {
  private readonly eventListeners = new ListenerSet<[e: WireEvent]>();
  private readonly link: ChildProcessLink;

  private constructor(
    child: ChildProcessWithoutNullStreams,
    private readonly clientVersion: string,
    maxLineBytes: number,
  ) {
    const decoder = new NdjsonDecoder({
      maxLineBytes,
      onValue: (value) => this.dispatchValue(value),
      onError: (err) => this.link.log(`core stdout: ${err.kind}: ${err.message}${err.preview ? ` (${JSON.stringify(err.preview)})` : ''}`),
    });
    this.link = new ChildProcessLink(child, 'core', decoder);
  }

  /** Spawns the core in `cwd` (the workspace folder). Listeners registered right after this call miss nothing. */
  static spawn(launch: CoreLaunch, cwd: string, clientVersion: string, opts: { maxLineBytes?: number } = {}): CoreConnection {
    const child = spawn(launch.command, launch.args, { cwd, env: launch.env, stdio: 'pipe', detached: false, windowsHide: true });
    return new CoreConnection(child, clientVersion, opts.maxLineBytes ?? MAX_EVENT_LINE_BYTES);
  }

  get pid(): number | undefined {
    return this.link.pid;
  }

  get hasExited(): boolean {
    return this.link.hasExited;
  }

  /** The core's last stderr lines (diagnostics for a failed start or a crash). */
  recentStderr(): string[] {
    return this.link.recentStderr();
  }

  onEvent(listener: (e: WireEvent) => void): Disposable {
    return this.eventListeners.add(listener);
  }

  onLog(listener: (line: string) => void): Disposable {
    return this.link.onLog(listener);
  }

  onExit(listener: ExitListener): Disposable {
    return this.link.onExit(listener);
  }

  /** Writes one command line. After the core exited the command is dropped (EPIPE is not an error here). */
  send(cmd: Command): boolean {
    if (!this.link.writable) return false;
    this.link.write(encodeLine(cmd));
    return true;
  }

  /** Sends `init` (v2) and resolves once both `ready` and `protocol_hello` arrived. */
  handshake(timeoutMs = DEFAULT_HANDSHAKE_TIMEOUT_MS): Promise<Handshake> {
    const exit = this.link.exitInfo;
    if (exit) {
      return Promise.reject(
        new Error(`the core exited (${describeExit(exit.code, exit.signal)}) before the handshake${this.link.stderrSuffix()}`),
      );
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
        reject(new Error(`the core exited (${describeExit(code, signal)}) before the handshake completed${this.link.stderrSuffix()}`));
      });
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`the core did not answer init within ${timeoutMs} ms${this.link.stderrSuffix()}`));
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
    return this.link.stop(graceMs);
  }

  /** SIGKILL now. Resolves on exit. */
  kill(): Promise<void> {
    return this.link.kill();
  }

  private dispatchValue(value: unknown): void {
    if (!isCommand(value)) {
      this.link.log(`core stdout: an object without a string "type" was ignored`);
      return;
    }
    this.eventListeners.emit([value as WireEvent], (err) =>
      this.link.log(`event listener failed on ${value.type}: ${(err as Error).stack ?? String(err)}`),
    );
  }
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  if (code !== null) return `code ${code}`;
  return 'it could not be started';
}

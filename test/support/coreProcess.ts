import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLIENT_CAPABILITIES } from '../../src/protocol/version';
import { inheritedCoreEnv } from './coreTestEnv';
import { solicitedOnly } from './unsolicitedEvents';

/** dist/core.js; CATALYST_TEST_CORE_JS points the core tests at another build of src/core/main.ts. */
export const CORE_JS = process.env.CATALYST_TEST_CORE_JS ?? resolve(__dirname, '../../dist/core.js');

export type CoreEvent = { type: string; [k: string]: any };

export interface CoreOptions {
  args?: string[];
  env?: Record<string, string>;
  workspace?: string;
  home?: string;
  /** Providers written into the temp home's config.json. */
  providers?: object[];
  config?: Record<string, unknown>;
}

/** Drives `dist/core.js` as a real subprocess over stdio, recording every event it prints. */
export class CoreProcess {
  readonly events: CoreEvent[] = [];
  readonly stderr: string[] = [];
  readonly rawStdout: string[] = [];
  private listeners = new Set<() => void>();
  private buffer = '';
  exitCode: number | null | undefined;
  private exited: Promise<void>;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly workspace: string,
    readonly home: string,
  ) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.stderr.push(chunk));
    this.exited = new Promise((r) => child.on('exit', (code) => ((this.exitCode = code), r(), this.notify())));
  }

  static start(opts: CoreOptions = {}): CoreProcess {
    const workspace = opts.workspace ?? mkdtempSync(join(tmpdir(), 'core-ws-'));
    const home = opts.home ?? mkdtempSync(join(tmpdir(), 'core-home-'));
    if (opts.providers || opts.config) {
      mkdirSync(join(home, '.config', 'catalyst-code'), { recursive: true });
      writeFileSync(
        join(home, '.config', 'catalyst-code', 'config.json'),
        JSON.stringify({ ...(opts.config ?? {}), ...(opts.providers ? { providers: opts.providers } : {}) }),
      );
    }
    const child = spawn(process.execPath, [CORE_JS, '--workspace', workspace, ...(opts.args ?? [])], {
      cwd: workspace,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        GIT_CONFIG_NOSYSTEM: '1',
        // The automatic checkpoint's 5 s budget is a behaviour of its own (checkpoints.test.ts sets it to 1 ms); a
        // scenario about something else must not lose its checkpoint_created to a loaded machine.
        CATALYST_CODE_CHECKPOINT_BUDGET_MS: '600000',
        ...inheritedCoreEnv(),
        ...opts.env,
      },
      stdio: 'pipe',
    });
    return new CoreProcess(child, workspace, home);
  }

  send(cmd: object): void {
    this.child.stdin.write(JSON.stringify(cmd) + '\n');
  }

  sendRaw(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  /** Waits for the first event (after index `from`) matching `pred`; fails with the recent events when it times out. */
  waitFor(pred: (e: CoreEvent) => boolean, opts: { from?: number; timeoutMs?: number } = {}): Promise<CoreEvent> {
    const from = opts.from ?? 0;
    const timeoutMs = opts.timeoutMs ?? 15000;
    return new Promise((resolvePromise, reject) => {
      const check = (): boolean => {
        const found = this.events.slice(from).find(pred);
        if (found) {
          cleanup();
          resolvePromise(found);
          return true;
        }
        if (this.exitCode !== undefined) {
          cleanup();
          reject(new Error(`core exited (${this.exitCode}) before the awaited event; stderr: ${this.stderr.join('').slice(-2000)}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms; last events:\n${this.events
              .slice(-15)
              .map((e) => JSON.stringify(e).slice(0, 300))
              .join('\n')}\nstderr: ${this.stderr.join('').slice(-1500)}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = (): void => void check();
      this.listeners.add(listener);
      check();
    });
  }

  waitForType(type: string, opts: { from?: number; timeoutMs?: number } = {}): Promise<CoreEvent> {
    return this.waitFor((e) => e.type === type, opts);
  }

  /**
   * Sends `init` (v2) with our client's capabilities (so it is sent our own events too) and waits for the end of its answer: ready, protocol_hello, …, `agents`, and `history` when the
   * core resumed a session. What init starts in the background (the first rules walk's `rules`, a slow discovery's
   * `models`) may come at any time after: answers leave it out (`answerSince`).
   */
  async handshake(): Promise<{ ready: CoreEvent; hello: CoreEvent }> {
    const from = this.events.length;
    this.send({
      type: 'init',
      protocol_version: 2,
      client: { name: 'test', version: '0.0.0', capabilities: [...CLIENT_CAPABILITIES] },
    });
    const ready = await this.waitForType('ready', { from });
    const hello = await this.waitForType('protocol_hello', { from });
    await this.waitForType('agents', { from });
    if (ready.resumed_messages > 0) await this.waitForType('history', { from });
    return { ready, hello };
  }

  /**
   * Resolves once model discovery has listed `model`: in `ready`, or in the `models` that follows when discovery
   * outlasted ready's budget (unsolicited, so it may come after later answers). For a provider that serves it.
   */
  async untilModelListed(model: string): Promise<void> {
    const ready = await this.waitForType('ready');
    const lists = (e: CoreEvent): boolean => Array.isArray(e.models) && e.models.some((m: { id?: string }) => m.id === model);
    if (!lists(ready)) await this.waitFor((e) => e.type === 'models' && lists(e), { from: this.events.indexOf(ready) });
  }

  /**
   * The answer to what was sent at `from`: the events from index `from` up to `until` (exclusive; default: all so far)
   * without the unsolicited ones (test/support/unsolicitedEvents.ts), which may land anywhere in it.
   */
  answerSince(from: number, until: CoreEvent | number = this.events.length): CoreEvent[] {
    const end = typeof until === 'number' ? until : this.events.indexOf(until);
    return solicitedOnly(this.events.slice(from, end < 0 ? this.events.length : end));
  }

  /**
   * Sends a command (an object, or a raw line) and resolves with its answer: the events it caused, up to the answer of a
   * probe sent right after it (commands are answered in order), without the unsolicited ones. Not for the commands
   * whose answer comes later (a turn, `usage`, `context`, `checkpoint_changes`…: docs/architecture.md, "Event order").
   */
  async answerOf(cmd: object | string): Promise<CoreEvent[]> {
    const from = this.events.length;
    if (typeof cmd === 'string') this.sendRaw(cmd.endsWith('\n') ? cmd : cmd + '\n');
    else this.send(cmd);
    const probe = `probe-${from}`;
    this.send({ type: 'forget_memory', id: probe });
    const answered = await this.waitFor((e) => e.type === 'memory_saved' && e.id === probe, { from });
    return this.answerSince(from, answered);
  }

  ofType(type: string, from = 0): CoreEvent[] {
    return this.events.slice(from).filter((e) => e.type === type);
  }

  /** Closes stdin (the core's shutdown signal) and waits for exit. */
  async close(): Promise<void> {
    if (this.exitCode === undefined) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  async kill(): Promise<void> {
    if (this.exitCode === undefined) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  cleanup(): void {
    rmSync(this.workspace, { recursive: true, force: true });
    rmSync(this.home, { recursive: true, force: true });
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      this.rawStdout.push(line);
      this.events.push(JSON.parse(line));
    }
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}

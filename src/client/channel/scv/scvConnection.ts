// One spawned SCV v3 server (`scv-server` or `scv server`) presented to the session as a Catalyst v2 core: the process,
// its stdio and the handshake; the translation itself is ScvTranslator's.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Command } from '../../../protocol';
import { type ApprovalPolicy, DEFAULT_MAX_SERVER_FRAME_BYTES, MAX_PROMPT_BYTES } from '../../../protocol/scv';
import { ChildProcessLink, ListenerSet, type ExitListener } from '../childProcessLink';
import type { CoreChannel, ServerQueueControl } from '../coreChannel';
import { type Disposable, type Handshake, DEFAULT_HANDSHAKE_TIMEOUT_MS, STOP_GRACE_MS, describeExit } from '../coreConnection';
import type { WireEvent } from '../../state/eventFields';
import type { CoreLaunch } from '../coreLaunch';
import { ApprovalRules } from './approvalRules';
import { ServerFrameReader } from './serverFrameReader';
import { type TranslatorStep, ScvTranslator } from './scvTranslator';

export const SCV_CLIENT_NAME = 'catalyst-vscode';

export interface ScvSpawnOptions {
  /** The SessionController's rules: `always` ones outlive this connection; `session` ones are cleared for it. */
  rules?: ApprovalRules;
  /** The frame limit before `session.started` announces the server's (default 8 MiB). */
  maxLineBytes?: number;
}

export class ScvConnection implements CoreChannel {
  readonly limits = { maxPromptBytes: MAX_PROMPT_BYTES };
  readonly serverQueue: ServerQueueControl;
  private readonly translator: ScvTranslator;
  private readonly reader: ServerFrameReader;
  private readonly eventListeners = new ListenerSet<[e: WireEvent]>();
  private readonly link: ChildProcessLink;
  private handshakeWaiter: { resolve: (h: Handshake) => void; reject: (err: Error) => void } | undefined;
  private handshakeFailure: string | undefined;
  private handshakeStarted = false;
  private handshakeEvents: Partial<Handshake> = {};

  private constructor(
    child: ChildProcessWithoutNullStreams,
    workspace: string,
    clientVersion: string,
    policy: ApprovalPolicy | undefined,
    opts: ScvSpawnOptions,
  ) {
    const rules = opts.rules ?? new ApprovalRules();
    rules.startConnection();
    this.translator = new ScvTranslator({ workspace, client: { name: SCV_CLIENT_NAME, version: clientVersion }, rules, policy });
    this.serverQueue = {
      edit: (id, prompt) => this.run(this.translator.queueEdit(id, prompt)),
      move: (id, beforeId) => this.run(this.translator.queueMove(id, beforeId)),
      remove: (id) => this.run(this.translator.queueRemove(id)),
      pause: (paused) => this.run(this.translator.queuePause(paused)),
    };
    this.reader = new ServerFrameReader({
      maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_SERVER_FRAME_BYTES,
      onValue: (value) => this.apply(this.translator.onServerValue(value)),
      onError: (err) => this.link.log(`SCV stdout: ${err.kind}: ${err.message}${err.preview ? ` (${JSON.stringify(err.preview)})` : ''}`),
    });
    // Flowing mode, never paused: SCV drops a client that stops reading for 3 s, even while an approval waits.
    this.link = new ChildProcessLink(child, 'SCV', this.reader);
  }

  /** Spawns the server in the workspace folder. Listeners registered right after this call miss nothing. */
  static spawn(launch: CoreLaunch, cwd: string, clientVersion: string, opts: ScvSpawnOptions = {}): ScvConnection {
    const child = spawn(launch.command, launch.args, { cwd, env: launch.env, stdio: 'pipe', detached: false, windowsHide: true });
    return new ScvConnection(child, cwd, clientVersion, approvalPolicyOf(launch.args), opts);
  }

  get pid(): number | undefined {
    return this.link.pid;
  }

  get hasExited(): boolean {
    return this.link.hasExited;
  }

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

  send(cmd: Command): boolean {
    if (!this.link.writable) return false;
    return this.run(this.translator.onCommand(cmd));
  }

  /** `initialize` → `initialized` (version 3) → `session.start` → `session.started` + `queue.snapshot` → ready. */
  handshake(timeoutMs = DEFAULT_HANDSHAKE_TIMEOUT_MS): Promise<Handshake> {
    const exit = this.link.exitInfo;
    if (exit) {
      return Promise.reject(
        new Error(`the SCV server exited (${describeExit(exit.code, exit.signal)}) before the handshake${this.link.stderrSuffix()}`),
      );
    }
    if (this.handshakeFailure) return Promise.reject(new Error(this.handshakeFailure));
    if (this.handshakeStarted) return Promise.reject(new Error('the SCV handshake was already started'));
    this.handshakeStarted = true;
    return new Promise<Handshake>((resolve, reject) => {
      const timer = setTimeout(
        () => settle(new Error(`the SCV server did not finish the handshake within ${timeoutMs} ms${this.link.stderrSuffix()}`)),
        timeoutMs,
      );
      const exits = this.onExit((code, signal) =>
        settle(
          new Error(`the SCV server exited (${describeExit(code, signal)}) before the handshake completed${this.link.stderrSuffix()}`),
        ),
      );
      const settle = (result: Handshake | Error): void => {
        clearTimeout(timer);
        exits.dispose();
        this.handshakeWaiter = undefined;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      this.handshakeWaiter = { resolve: settle, reject: settle };
      this.apply(this.translator.begin());
    });
  }

  /** Closes stdin (the server cancels the active turn and exits) and SIGKILLs it if it is still running after the grace. */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    return this.link.stop(graceMs);
  }

  kill(): Promise<void> {
    return this.link.kill();
  }

  private run(step: TranslatorStep & { accepted: boolean }): boolean {
    if (!this.link.writable) return false;
    this.apply(step);
    return step.accepted;
  }

  /** Carries out a translator step: log, write, emit, then the handshake and fatal outcomes. */
  private apply(step: TranslatorStep): void {
    for (const line of step.logs) this.link.log(line);
    if (step.maxServerFrameBytes !== undefined) this.reader.setMaxLineBytes(step.maxServerFrameBytes);
    for (const frame of step.messages) {
      if (!this.link.writable) break;
      this.link.write(frame.line);
    }
    // `client:*` events travel the same way as the core's: the session dispatches whatever arrives into its reducer.
    for (const e of step.events as WireEvent[]) {
      this.noteHandshakeEvent(e);
      this.emit(e);
    }
    if (step.handshakeError !== undefined) {
      this.handshakeFailure = step.handshakeError;
      this.handshakeWaiter?.reject(new Error(step.handshakeError));
    }
    if (step.fatal !== undefined) {
      this.link.log(`SCV fatal error: ${step.fatal}; ending the server`);
      void this.kill();
    }
  }

  private noteHandshakeEvent(e: WireEvent): void {
    if (!this.handshakeWaiter) return;
    if (e.type === 'ready') this.handshakeEvents.ready = e as Handshake['ready'];
    else if (e.type === 'protocol_hello') this.handshakeEvents.hello = e as Handshake['hello'];
    const { ready, hello } = this.handshakeEvents;
    if (ready && hello) this.handshakeWaiter.resolve({ ready, hello });
  }

  private emit(e: WireEvent): void {
    this.eventListeners.emit([e], (err) => this.link.log(`event listener failed on ${e.type}: ${(err as Error).stack ?? String(err)}`));
  }
}

/** The `--approval-policy` value among the launch's arguments (the server's default, on-risk, when absent). */
export function approvalPolicyOf(args: readonly string[]): ApprovalPolicy | undefined {
  let policy: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--approval-policy') policy = args[i + 1];
    else if (args[i].startsWith('--approval-policy=')) policy = args[i].slice('--approval-policy='.length);
  }
  return policy === 'on-risk' || policy === 'always' || policy === 'never' ? policy : undefined;
}

import type { Command } from '../../protocol';
import { supports } from '../../shared/coreCapabilities';
import { type NoticeItem, UI_CAPABILITIES } from '../../shared/sessionState';
import { describeCommand } from './commandLog';
import type { CoreChannel } from './coreChannel';
import { type Disposable, DEFAULT_HANDSHAKE_TIMEOUT_MS, describeExit } from './coreConnection';
import type { WireEvent } from '../state/eventFields';
import { type CoreLaunch, type CoreLaunchOptions, resolveCoreLaunch } from './coreLaunch';
import { num, strings } from '../state/eventFields';
import { RestartPolicy } from './restartPolicy';
import { sessionFileToResume } from './sessionFiles';
import type { SessionStore } from '../state/sessionStore';
import { ApprovalRules } from './scv/approvalRules';
import { spawnCoreChannel } from './spawnCoreChannel';

export interface CoreSupervisorOptions {
  /** How to launch the core; the session file is the supervisor's choice. */
  launch: Omit<CoreLaunchOptions, 'sessionFile'>;
  /** This workspace's sessions directory (`sessionsDirFor(configDir, workspace)`). */
  sessionsDir: string;
  /** The extension's version, sent in `init`. */
  clientVersion: string;
  restartPolicy?: RestartPolicy;
  handshakeTimeoutMs?: number;
  /** Starts the channel for a resolved launch; `spawnCoreChannel` unless a test passes a fake. */
  spawnChannel?: (launch: CoreLaunch, cwd: string, clientVersion: string, rules: ApprovalRules) => CoreChannel;
}

/** What the supervisor works with: the session model it reports into, the log, and how a held prompt is sent. */
export interface SupervisorContext {
  store: SessionStore;
  log: (line: string) => void;
  /** Sends a prompt that was held while a resumed history was awaited, as if the user sent it now. */
  sendHeldPrompt: (text: string, images: string[]) => void;
}

type LaunchMode = 'start' | 'auto';

interface HeldPrompt {
  text: string;
  images: string[];
}

/** Held while a resumed history is awaited, as the one-deep queue would take them: the first starts a turn, the second waits. */
const MAX_HELD_PROMPTS = 2;

/**
 * The process side of a session: spawns (or attaches) the core channel, does the handshake, restarts a crashed core
 * with bounded backoff on the same `--session` file so the conversation resumes, holds the prompts sent before a
 * resumed history is in, and keeps the session model following the core's own events.
 */
export class CoreSupervisor {
  private connection: CoreChannel | undefined;
  /** The connection whose handshake is in flight; its failure is handled there, not as a crash. */
  private handshaking: CoreChannel | undefined;
  private readonly stopping = new WeakSet<CoreChannel>();
  private currentSessionFile: string | undefined;
  private startPromise: Promise<boolean> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private incidentNotified = false;
  private resumingAfterCrash = false;
  private everReady = false;
  /** The core's `ready` announced a resumed conversation whose `history` has not been delivered yet. */
  private awaitingHistory = false;
  /** Prompts sent while `awaitingHistory`: shown and sent once the history is in, so its rebuild cannot replace them. */
  private heldPrompts: HeldPrompt[] = [];
  private readonly policy: RestartPolicy;
  private readonly eventListeners = new Set<(e: WireEvent) => void>();
  /** SCV's "always" answers, kept across server restarts for this supervisor's life (the adapter applies them). */
  private readonly approvalRules = new ApprovalRules();

  constructor(
    private readonly o: CoreSupervisorOptions,
    private readonly ctx: SupervisorContext,
  ) {
    this.policy = o.restartPolicy ?? new RestartPolicy();
  }

  /** The running channel, once spawned and until it exits or is stopped. */
  get channel(): CoreChannel | undefined {
    return this.connection;
  }

  /** The session file the core was (or will be) started with; follows `session_changed`. */
  get sessionFile(): string | undefined {
    return this.currentSessionFile;
  }

  /** True while prompts must wait for a resumed history (see `followResumedHistory`). */
  get holdsPrompts(): boolean {
    return this.awaitingHistory;
  }

  /** Raw core events, after the state has been updated for them. */
  onEvent(listener: (e: WireEvent) => void): Disposable {
    this.eventListeners.add(listener);
    return { dispose: () => void this.eventListeners.delete(listener) };
  }

  /** Starts the core unless it is running; resolves true once it is ready. Failures end up in the state, never thrown. */
  start(): Promise<boolean> {
    if (this.connection && !this.connection.hasExited && this.state.core.status === 'ready') return Promise.resolve(true);
    this.startPromise ??= this.launch('start').finally(() => (this.startPromise = undefined));
    return this.startPromise;
  }

  /** User-requested: stop, then start again on the same session, with a fresh crash budget. */
  async restart(): Promise<boolean> {
    await this.stop();
    this.policy.recordHealthy();
    this.incidentNotified = false;
    return this.start();
  }

  async stop(): Promise<void> {
    this.cancelRestartTimer();
    const conn = this.connection;
    this.connection = undefined;
    if (conn) {
      this.stopping.add(conn);
      await conn.stop();
    }
    this.ctx.store.dispatch({ type: 'client:core_status', status: 'stopped' });
  }

  async dispose(): Promise<void> {
    this.heldPrompts = [];
    await this.stop();
    this.eventListeners.clear();
  }

  /** One command to the running core (logged); false when there is none or it could not be sent. */
  send(cmd: Command): boolean {
    const conn = this.connection;
    if (!conn) return false;
    this.log(describeCommand(cmd));
    return conn.send(cmd);
  }

  /** Keeps a prompt until the resumed history is in; refused (false) when two are already waiting. */
  holdPrompt(text: string, images: string[]): boolean {
    if (this.heldPrompts.length >= MAX_HELD_PROMPTS) {
      this.ctx.store.notice('warning', 'Two prompts are already waiting for the conversation to load; send this one once they show.');
      return false;
    }
    this.log('prompt held until the resumed conversation is shown');
    this.heldPrompts.push({ text, images: [...images] });
    return true;
  }

  // ── Process ────────────────────────────────────────────────────────────────

  private get state() {
    return this.ctx.store.state;
  }

  private async launch(mode: LaunchMode): Promise<boolean> {
    this.cancelRestartTimer();
    this.currentSessionFile ??= sessionFileToResume(this.o.sessionsDir);
    const kind = this.o.launch.kind;
    this.ctx.store.dispatch({ type: 'client:core_status', status: mode === 'auto' ? 'restarting' : 'starting', kind });
    // After the user changed the approval mode, a restarted core keeps it.
    const approval = this.everReady ? this.state.approvalMode : this.o.launch.approval;
    const launch = resolveCoreLaunch({ ...this.o.launch, approval, sessionFile: this.currentSessionFile });
    if ('error' in launch) return this.fail(launch.error, 'openSettings');
    this.log(`starting the ${kind} core: ${launch.command} ${launch.args.join(' ')}`);
    let conn: CoreChannel;
    try {
      conn = (this.o.spawnChannel ?? spawnCoreChannel)(launch, this.o.launch.workspace, this.o.clientVersion, this.approvalRules);
    } catch (err) {
      return this.fail(`The core could not be started: ${(err as Error).message}`, 'showLog');
    }
    this.attach(conn);
    this.resumingAfterCrash = mode === 'auto';
    return this.handshake(conn, mode);
  }

  private attach(conn: CoreChannel): void {
    this.connection = conn;
    this.awaitingHistory = false;
    conn.onLog((line) => this.log(line));
    conn.onEvent((e) => this.onCoreEvent(conn, e));
    conn.onExit((code, signal) => this.onCoreExit(conn, code, signal));
  }

  private async handshake(conn: CoreChannel, mode: LaunchMode): Promise<boolean> {
    this.handshaking = conn;
    try {
      const { hello } = await conn.handshake(this.o.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS);
      if (conn !== this.connection) return false;
      const restarted = this.everReady;
      this.everReady = true;
      this.ctx.store.dispatch({
        type: 'client:core_status',
        status: 'ready',
        kind: this.o.launch.kind,
        pid: conn.pid,
        capabilities: strings(hello.capabilities),
        version: typeof hello.version === 'string' ? hello.version : undefined,
      });
      this.log(`core ready (pid ${conn.pid ?? '?'}, session ${this.currentSessionFile ?? 'none'})`);
      if (!this.awaitingHistory) this.releaseHeldPrompts();
      // SCV keeps a conversation only for its connection: a new server starts from nothing.
      if (restarted && this.o.launch.kind === 'scv' && this.state.items.some((i) => i.kind === 'user' || i.kind === 'assistant')) {
        this.ctx.store.notice(
          'info',
          'The SCV server was restarted and keeps no conversation across restarts: the model no longer sees the messages above.',
        );
      }
      this.listSessionsIfSupported();
      this.send({ type: 'stats' });
      return true;
    } catch (err) {
      if (conn !== this.connection) return false;
      const message = (err as Error).message;
      this.log(message);
      this.connection = undefined;
      this.stopping.add(conn);
      void conn.kill();
      if (mode === 'start') return this.fail(`The core could not start: ${message}`, 'showLog');
      this.scheduleRestart(message);
      return false;
    } finally {
      if (this.handshaking === conn) this.handshaking = undefined;
    }
  }

  private onCoreExit(conn: CoreChannel, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping.has(conn) || conn !== this.connection || this.handshaking === conn) return;
    this.connection = undefined;
    const reason = `The core stopped unexpectedly (${describeExit(code, signal)})`;
    this.log(reason);
    this.scheduleRestart(reason);
  }

  /** A crash: restart after the policy's delay and tell the user once per incident, or give up. */
  private scheduleRestart(reason: string): void {
    const delay = this.policy.nextDelay();
    if (delay === undefined) {
      this.fail(
        `${reason}. It crashed too often in a short time, so it was not restarted; use Restart Core after checking the log.`,
        'restartCore',
      );
      return;
    }
    this.ctx.store.dispatch({ type: 'client:core_status', status: 'restarting', kind: this.o.launch.kind, message: reason });
    if (!this.incidentNotified) {
      this.incidentNotified = true;
      const resuming =
        this.o.launch.kind === 'scv' ? 'Restarting it (SCV cannot resume the conversation)…' : 'Restarting it and resuming the session…';
      this.ctx.store.notice('warning', `${reason}. ${resuming}`, 'showLog', 'core_restart');
    }
    this.log(`restarting the core in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.launch('auto');
    }, delay);
  }

  private fail(message: string, action: NoticeItem['action']): false {
    this.log(message);
    this.ctx.store.dispatch({ type: 'client:core_status', status: 'crashed', kind: this.o.launch.kind, message });
    this.ctx.store.notice('error', message, action, 'core_failed');
    return false;
  }

  private cancelRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  // ── Events ─────────────────────────────────────────────────────────────────

  private onCoreEvent(conn: CoreChannel, e: WireEvent): void {
    if (conn !== this.connection) return;
    this.followSession(e);
    if (!this.isRedundantRecovery(e)) this.ctx.store.dispatch(e);
    this.followResumedHistory(e);
    for (const listener of [...this.eventListeners]) {
      try {
        listener(e);
      } catch (err) {
        this.log(`event listener failed on ${e.type}: ${(err as Error).message}`);
      }
    }
  }

  private followSession(e: WireEvent): void {
    switch (e.type) {
      case 'session_changed':
        if (typeof e.path === 'string' && e.path) this.currentSessionFile = e.path;
        this.send({ type: 'stats' });
        this.listSessionsIfSupported();
        break;
      case 'done':
        // A completed turn proves the core healthy: the crash budget and the "told the user" flag start over.
        this.policy.recordHealthy();
        this.incidentNotified = false;
        this.resumingAfterCrash = false;
        this.listSessionsIfSupported();
        this.send({ type: 'stats' });
        break;
      case 'sessions':
        this.resumingAfterCrash = false;
        break;
      case 'error':
        this.log(`core error${typeof e.code === 'string' ? ` [${e.code}]` : ''}: ${typeof e.message === 'string' ? e.message : ''}`);
        break;
    }
  }

  /**
   * A core that resumed a conversation replays it (`history`) after the handshake, and the rebuild replaces the
   * transcript: a prompt shown before it would vanish. So from `ready` (with resumed messages) until the history is in,
   * prompts are held. The answer to the `stats` sent after the handshake also ends the wait: the core answers commands
   * in order, so by then its start-up events are all out (a history line too large to decode is dropped).
   */
  private followResumedHistory(e: WireEvent): void {
    if (e.type === 'ready') {
      this.awaitingHistory = (num(e.resumed_messages) ?? 0) > 0;
    } else if (this.awaitingHistory && (e.type === 'history' || e.type === 'stats')) {
      this.awaitingHistory = false;
      // Before the handshake has marked the core ready, the handshake releases them.
      if (this.state.core.status === 'ready') this.releaseHeldPrompts();
    }
  }

  private releaseHeldPrompts(): void {
    for (const p of this.heldPrompts.splice(0)) this.ctx.sendHeldPrompt(p.text, p.images);
  }

  /** After a crash the restart notice already says the turn was interrupted; a bare "runs interrupted" recovery repeats it. */
  private isRedundantRecovery(e: WireEvent): boolean {
    return this.resumingAfterCrash && e.type === 'session_recovered' && strings(e.warnings).length === 0;
  }

  private listSessionsIfSupported(): void {
    if (supports(this.state, UI_CAPABILITIES.sessions)) this.send({ type: 'list_sessions' });
  }

  private log(line: string): void {
    this.ctx.log(line);
  }
}

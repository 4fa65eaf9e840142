import type { Command, CommandOf, HeadersSpec, ProviderKind } from '../protocol';
import { timestampedSessionName } from '../protocol/sessionLayout';
import { supports, type UiCapability } from '../shared/coreCapabilities';
import { type ApprovalMode, type NoticeItem, type SessionState, initialSessionState, UI_CAPABILITIES, APPROVAL_DECISIONS, type ApprovalDecision } from '../shared/sessionState';
import { type Patch, diffState } from '../shared/statePatch';
import { isCheckpointId, safeRelativePath } from './checkpoints/checkpointEvents';
import type { ClientEvent } from './clientEvents';
import { describeCommand } from './commandLog';
import type { CoreChannel, ServerQueueControl } from './coreChannel';
import { type Disposable, type WireEvent, DEFAULT_HANDSHAKE_TIMEOUT_MS, describeExit } from './coreConnection';
import { type CoreLaunch, type CoreLaunchOptions, resolveCoreLaunch } from './coreLaunch';
import { num, strings } from './eventFields';
import { isApprovalMode } from './reduceCore';
import { RestartPolicy } from './restartPolicy';
import { perChangeOffReason } from './review/perChangeReview';
import { sessionFileToResume } from './sessionFiles';
import { sessionReducer } from './sessionReducer';
import { ApprovalRules } from './scv/approvalRules';
import { spawnCoreChannel } from './spawnCoreChannel';
import { runSlashCommand, type SlashTarget } from './slashCommands';

export interface SessionControllerOptions {
  /** How to launch the core; the session file is the controller's choice. */
  launch: Omit<CoreLaunchOptions, 'sessionFile'>;
  /** This workspace's sessions directory (`sessionsDirFor(configDir, workspace)`). */
  sessionsDir: string;
  /** The extension's version, sent in `init`. */
  clientVersion: string;
  /** The client's own log (the output channel); core stderr lines land here too. */
  log?: (line: string) => void;
  restartPolicy?: RestartPolicy;
  handshakeTimeoutMs?: number;
  /** Preselected model (a setting); kept when the core lists it, otherwise the first listed model is used. */
  defaultModel?: string;
  /** Starts the channel for a resolved launch; `spawnCoreChannel` unless a test passes a fake. */
  spawnChannel?: (launch: CoreLaunch, cwd: string, clientVersion: string, rules: ApprovalRules) => CoreChannel;
}

export type StateListener = (state: SessionState, patches: Patch[]) => void;

interface ApproveOptions {
  pattern?: string;
  editedContent?: string;
}

export interface CustomProviderSpec {
  name: string;
  baseUrl: string;
  kind: ProviderKind;
  headers?: HeadersSpec;
  /** A `setKey` for this provider follows: the core waits for it before listing the models (`key_follows`). */
  keyFollows?: boolean;
}

type LaunchMode = 'start' | 'auto';

interface HeldPrompt {
  text: string;
  images: string[];
}

/** Held while a resumed history is awaited, as the one-deep queue would take them: the first starts a turn, the second waits. */
const MAX_HELD_PROMPTS = 2;

/**
 * One core for one workspace folder and the session model derived from its events. Starts it, restarts it after a
 * crash with bounded backoff (the same `--session` file, so the conversation resumes), and turns the user's intents
 * into validated commands. Listeners get every state change synchronously with its patches.
 */
export class SessionController implements SlashTarget {
  private current: SessionState;
  private connection: CoreChannel | undefined;
  /** The connection whose handshake is in flight; its failure is handled there, not as a crash. */
  private handshaking: CoreChannel | undefined;
  private readonly stopping = new WeakSet<CoreChannel>();
  private sessionFile: string | undefined;
  private startPromise: Promise<boolean> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private incidentNotified = false;
  private resumingAfterCrash = false;
  private everReady = false;
  /** The core's `ready` announced a resumed conversation whose `history` has not been delivered yet. */
  private awaitingHistory = false;
  /** Prompts sent while `awaitingHistory`: shown and sent once the history is in, so its rebuild cannot replace them. */
  private heldPrompts: HeldPrompt[] = [];
  private readonly reportsRequested = new Set<'stats' | 'context_breakdown'>();
  private readonly policy: RestartPolicy;
  private readonly changeListeners = new Set<StateListener>();
  private readonly eventListeners = new Set<(e: WireEvent) => void>();
  /** SCV's "always" answers, kept across server restarts for this controller's life (the adapter applies them). */
  private readonly approvalRules = new ApprovalRules();

  constructor(private readonly o: SessionControllerOptions) {
    this.policy = o.restartPolicy ?? new RestartPolicy();
    this.current = initialSessionState(o.launch.kind);
    if (o.defaultModel) this.current = { ...this.current, model: o.defaultModel };
  }

  get state(): SessionState {
    return this.current;
  }

  /** The session file the core was (or will be) started with; follows `session_changed`. */
  get currentSessionFile(): string | undefined {
    return this.sessionFile;
  }

  capabilities(): Set<string> {
    return new Set(this.current.core.capabilities);
  }

  onDidChange(listener: StateListener): Disposable {
    this.changeListeners.add(listener);
    return { dispose: () => void this.changeListeners.delete(listener) };
  }

  /** Raw core events, after the state has been updated for them. */
  onEvent(listener: (e: WireEvent) => void): Disposable {
    this.eventListeners.add(listener);
    return { dispose: () => void this.eventListeners.delete(listener) };
  }

  // ── Lifecycle ──────────────────────────────────────────────────────────────

  /** Starts the core unless it is running; resolves true once it is ready. Failures end up in the state, never thrown. */
  start(): Promise<boolean> {
    if (this.connection && !this.connection.hasExited && this.current.core.status === 'ready') return Promise.resolve(true);
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
    this.dispatch({ type: 'client:core_status', status: 'stopped' });
  }

  async dispose(): Promise<void> {
    this.heldPrompts = [];
    await this.stop();
    this.changeListeners.clear();
    this.eventListeners.clear();
  }

  private async launch(mode: LaunchMode): Promise<boolean> {
    this.cancelRestartTimer();
    this.sessionFile ??= sessionFileToResume(this.o.sessionsDir);
    const kind = this.o.launch.kind;
    this.dispatch({ type: 'client:core_status', status: mode === 'auto' ? 'restarting' : 'starting', kind });
    // After the user changed the approval mode, a restarted core keeps it.
    const approval = this.everReady ? this.current.approvalMode : this.o.launch.approval;
    const launch = resolveCoreLaunch({ ...this.o.launch, approval, sessionFile: this.sessionFile });
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
      this.dispatch({ type: 'client:core_status', status: 'ready', kind: this.o.launch.kind, pid: conn.pid, capabilities: strings(hello.capabilities), version: typeof hello.version === 'string' ? hello.version : undefined });
      this.log(`core ready (pid ${conn.pid ?? '?'}, session ${this.sessionFile ?? 'none'})`);
      if (!this.awaitingHistory) this.releaseHeldPrompts();
      // SCV keeps a conversation only for its connection: a new server starts from nothing.
      if (restarted && this.o.launch.kind === 'scv' && this.current.items.some((i) => i.kind === 'user' || i.kind === 'assistant')) {
        this.notice('info', 'The SCV server was restarted and keeps no conversation across restarts: the model no longer sees the messages above.');
      }
      this.listSessionsIfSupported();
      this.sendCommand({ type: 'stats' });
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
      this.fail(`${reason}. It crashed too often in a short time, so it was not restarted; use Restart Core after checking the log.`, 'restartCore');
      return;
    }
    this.dispatch({ type: 'client:core_status', status: 'restarting', kind: this.o.launch.kind, message: reason });
    if (!this.incidentNotified) {
      this.incidentNotified = true;
      const resuming = this.o.launch.kind === 'scv' ? 'Restarting it (SCV cannot resume the conversation)…' : 'Restarting it and resuming the session…';
      this.notice('warning', `${reason}. ${resuming}`, 'showLog', 'core_restart');
    }
    this.log(`restarting the core in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.launch('auto');
    }, delay);
  }

  private fail(message: string, action: NoticeItem['action']): false {
    this.log(message);
    this.dispatch({ type: 'client:core_status', status: 'crashed', kind: this.o.launch.kind, message });
    this.notice('error', message, action, 'core_failed');
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
    if (!this.isRedundantRecovery(e)) this.dispatch(e);
    this.followResumedHistory(e);
    this.reportIfRequested(e);
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
        if (typeof e.path === 'string' && e.path) this.sessionFile = e.path;
        this.sendCommand({ type: 'stats' });
        this.listSessionsIfSupported();
        break;
      case 'done':
        // A completed turn proves the core healthy: the crash budget and the "told the user" flag start over.
        this.policy.recordHealthy();
        this.incidentNotified = false;
        this.resumingAfterCrash = false;
        this.listSessionsIfSupported();
        this.sendCommand({ type: 'stats' });
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
      if (this.current.core.status === 'ready') this.releaseHeldPrompts();
    }
  }

  private releaseHeldPrompts(): void {
    for (const p of this.heldPrompts.splice(0)) this.sendPrompt(p.text, p.images);
  }

  /** After a crash the restart notice already says the turn was interrupted; a bare "runs interrupted" recovery repeats it. */
  private isRedundantRecovery(e: WireEvent): boolean {
    return this.resumingAfterCrash && e.type === 'session_recovered' && strings(e.warnings).length === 0;
  }

  private reportIfRequested(e: WireEvent): void {
    if (e.type === 'stats' && this.reportsRequested.delete('stats')) {
      const u = this.current.usage;
      this.notice('info', `Tokens: ${u.tokensIn.toLocaleString('en-US')} in (${u.cachedTokens.toLocaleString('en-US')} cached), ${u.tokensOut.toLocaleString('en-US')} out${u.costUsd !== undefined ? `; about $${u.costUsd.toFixed(4)}` : ''}.`);
    } else if (e.type === 'context_breakdown' && this.reportsRequested.delete('context_breakdown')) {
      const c = this.current.context;
      if (c) this.notice('info', `Context: ${c.tokens.toLocaleString('en-US')} of ${c.window.toLocaleString('en-US')} tokens (${c.pct}%).`);
    }
  }

  private dispatch(e: ClientEvent | WireEvent): void {
    const prev = this.current;
    const next = sessionReducer(prev, e);
    if (next === prev) return;
    this.current = next;
    const patches = diffState(prev, next);
    for (const listener of [...this.changeListeners]) {
      try {
        listener(next, patches);
      } catch (err) {
        this.log(`state listener failed: ${(err as Error).message}`);
      }
    }
  }

  // ── Intents ────────────────────────────────────────────────────────────────

  /**
   * While a run is going, a Catalyst core queues one prompt (shown as `run.queued`); a core with a server-side queue
   * (SCV) queues any number and shows them in `serverQueue`, and its adapter reports the prompt when its turn starts.
   */
  sendPrompt(text: string, images: string[] = []): boolean {
    if (typeof text !== 'string' || !text.trim()) return this.refuse('Type a message first.');
    if (!this.requireReady() || !this.withinPromptLimit(text)) return false;
    const model = this.current.model;
    if (!model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    if (this.awaitingHistory) return this.holdPrompt(text, images);
    const busy = this.current.run.status !== 'idle';
    const serverQueue = this.capabilities().has(UI_CAPABILITIES.serverQueue);
    if (busy && !serverQueue && this.current.run.queued !== undefined) {
      return this.refuse('A prompt is already queued. Wait for this turn, steer it, or clear the queue.');
    }
    // A server that keeps the queue decides whether the prompt runs now or waits: the adapter shows it when it runs.
    if (!serverQueue) this.dispatch({ type: 'client:prompt', text, images: images.length });
    const cmd: CommandOf<'send'> = { type: 'send', prompt: text, model, reasoning_effort: this.current.reasoningEffort, ...this.providerOf(model) };
    if (images.length) cmd.images = [...images];
    return this.sendCommand(cmd);
  }

  private holdPrompt(text: string, images: string[]): boolean {
    if (this.heldPrompts.length >= MAX_HELD_PROMPTS) return this.refuse('Two prompts are already waiting for the conversation to load; send this one once they show.');
    this.log('prompt held until the resumed conversation is shown');
    this.heldPrompts.push({ text, images: [...images] });
    return true;
  }

  steer(text: string): boolean {
    if (typeof text !== 'string' || !text.trim()) return this.refuse('/steer needs the new instructions.');
    if (!this.requireReady() || !this.requireCapability(UI_CAPABILITIES.steer, 'steering')) return false;
    const model = this.current.model;
    if (!model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    return this.sendCommand({ type: 'steer', prompt: text, model, reasoning_effort: this.current.reasoningEffort, ...this.providerOf(model) });
  }

  abort(): boolean {
    return this.requireReady() && this.sendCommand({ type: 'abort' });
  }

  clearQueue(): boolean {
    return this.requireReady() && this.sendCommand({ type: 'clear_queue' });
  }

  /** Replaces the text of a prompt waiting in the server's queue. */
  editQueued(id: string, prompt: string): boolean {
    if (typeof prompt !== 'string' || !prompt.trim()) return this.refuse('A queued prompt cannot be empty; remove it instead.');
    const queue = this.queueFor(id);
    if (!queue || !this.withinPromptLimit(prompt)) return false;
    this.log(`→ queue edit ${id}`);
    return queue.edit(id, prompt);
  }

  /** Moves a queued prompt before `beforeId`, or to the end with null. */
  moveQueued(id: string, beforeId: string | null): boolean {
    const queue = this.queueFor(id);
    if (!queue) return false;
    if (beforeId === id) return false;
    if (beforeId !== null && !this.isQueued(beforeId)) return this.refuse('That place in the queue is gone; the queue changed meanwhile.');
    this.log(`→ queue move ${id} before ${beforeId ?? 'the end'}`);
    return queue.move(id, beforeId);
  }

  removeQueued(id: string): boolean {
    const queue = this.queueFor(id);
    if (!queue) return false;
    this.log(`→ queue remove ${id}`);
    return queue.remove(id);
  }

  /** Holds (or releases) the server's queue: a paused queue starts no queued prompt; the running turn goes on. */
  pauseQueue(paused: boolean): boolean {
    if (typeof paused !== 'boolean') return this.refuse('Pause takes true or false.');
    const queue = this.serverQueue();
    if (!queue) return false;
    this.log(`→ queue ${paused ? 'pause' : 'resume'}`);
    return queue.pause(paused);
  }

  approve(requestId: string, decision: ApprovalDecision, opts: ApproveOptions = {}): boolean {
    if (!(APPROVAL_DECISIONS as readonly string[]).includes(decision)) return this.refuse(`Unknown approval decision: ${String(decision)}.`);
    const item = this.current.items.find((i) => i.kind === 'approval' && i.id === requestId);
    if (!item || item.kind !== 'approval' || item.state !== 'pending') return this.refuse('That approval is no longer pending.');
    if (!this.requireReady()) return false;
    const cmd: CommandOf<'approve'> = { type: 'approve', request_id: requestId, decision };
    if (decision === 'allow_pattern') {
      const pattern = opts.pattern?.trim() || item.suggestedPattern;
      if (pattern) cmd.pattern = pattern;
    }
    if (opts.editedContent !== undefined && decision !== 'no') {
      if (!this.capabilities().has(UI_CAPABILITIES.editedContent)) {
        return this.refuse(`${capitalized(perChangeOffReason(this.o.launch.kind))}. Accept or reject the proposal as the model wrote it.`);
      }
      cmd.edited_content = opts.editedContent;
    }
    // Only an edit the core will actually apply counts (a rejection never carries edited_content).
    // Marked answered only once the core took it: an adapter may refuse a decision its server cannot express.
    if (!this.sendCommand(cmd)) return false;
    this.dispatch({ type: 'client:approval_answered', requestId, decision, ...(cmd.edited_content !== undefined ? { edited: true } : {}) });
    return true;
  }

  askReply(requestId: string, answers: Record<string, string> | null): boolean {
    if (!this.isPending('ask', requestId)) return this.refuse('That question is no longer open.');
    if (!this.requireReady()) return false;
    this.dispatch({ type: 'client:ask_answered', requestId, answers });
    return this.sendCommand({ type: 'ask_reply', request_id: requestId, answers: answers === null ? null : { ...answers } });
  }

  /** The password goes to the core only: never into the state, a notice or the log. */
  sudoReply(requestId: string, approved: boolean, password?: string): boolean {
    if (!this.isPending('sudo', requestId)) return this.refuse('That sudo request is no longer pending.');
    if (!this.requireReady()) return false;
    this.dispatch({ type: 'client:sudo_answered', requestId, approved });
    const cmd: CommandOf<'sudo_reply'> = { type: 'sudo_reply', request_id: requestId, approved };
    if (approved && typeof password === 'string') cmd.password = password;
    return this.sendCommand(cmd);
  }

  setModel(model: string): boolean {
    if (!this.current.models.some((m) => m.id === model)) return this.refuse(`Unknown model: ${model}. Pick one from the model list.`);
    this.dispatch({ type: 'client:model_selected', model });
    return true;
  }

  setReasoning(effort: string): boolean {
    const value = typeof effort === 'string' ? effort.trim() : '';
    if (!value || value.length > 50) return this.refuse('Give a reasoning effort such as low, medium or high.');
    const levels = this.current.models.find((m) => m.id === this.current.model)?.thinkingLevels;
    if (levels?.length && !levels.includes(value)) return this.refuse(`This model's reasoning efforts are: ${levels.join(', ')}.`);
    this.dispatch({ type: 'client:reasoning_selected', effort: value });
    return true;
  }

  setApprovalMode(mode: ApprovalMode): boolean {
    if (!isApprovalMode(mode)) return this.refuse('The approval mode is one of: never, destructive, always.');
    if (this.o.launch.kind === 'scv') {
      return this.refuse("SCV's approval policy is fixed when the server starts: set catalystCode.scv.approvalPolicy and restart the core.");
    }
    if (!this.requireReady()) return false;
    this.dispatch({ type: 'client:approval_mode_selected', mode });
    return this.sendCommand({ type: 'set_approval', mode });
  }

  /** A core without sessions (SCV) starts over by clearing its one conversation instead. */
  newSession(): boolean {
    if (!this.requireReady()) return false;
    if (!this.can(UI_CAPABILITIES.sessions)) return this.sendCommand({ type: 'clear' });
    return this.sendCommand({ type: 'new_session', path: timestampedSessionName() });
  }

  loadSession(path: string): boolean {
    if (typeof path !== 'string' || !path) return this.refuse('No session was given.');
    return this.requireReady() && this.sendCommand({ type: 'load_session', path });
  }

  renameSession(path: string, title: string): boolean {
    return this.requireReady() && this.sendCommand({ type: 'rename_session', path, title: String(title).trim().slice(0, 200) });
  }

  pinSession(path: string, pinned: boolean): boolean {
    return this.requireReady() && this.sendCommand({ type: 'pin_session', path, pinned });
  }

  deleteSession(path: string): boolean {
    if (path === this.sessionFile) return this.refuse('This is the open session; switch to another one before deleting it.');
    return this.requireReady() && this.sendCommand({ type: 'delete_session', path });
  }

  listSessions(): boolean {
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.sessions, 'sessions') && this.sendCommand({ type: 'list_sessions' });
  }

  undo(): boolean {
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.undo, 'undo') && this.sendCommand({ type: 'undo' });
  }

  compact(instructions?: string): boolean {
    const cmd: CommandOf<'compact'> = { type: 'compact' };
    if (instructions?.trim()) cmd.instructions = instructions.trim();
    return this.requireReady() && this.sendCommand(cmd);
  }

  clear(): boolean {
    return this.requireReady() && this.sendCommand({ type: 'clear' });
  }

  reset(): boolean {
    return this.requireReady() && this.sendCommand({ type: 'reset' });
  }

  saveMemory(text: string): boolean {
    if (!text.trim()) return this.refuse('/memory needs the note to save.');
    return this.requireReady() && this.sendCommand({ type: 'save_memory', text: text.trim() });
  }

  /** Asks the core for usage figures; with `report` the answer is also shown as a notice (the /stats command). */
  stats(report = true): boolean {
    if (!this.requireReady()) return false;
    if (report) this.reportsRequested.add('stats');
    return this.sendCommand({ type: 'stats' });
  }

  context(report = true): boolean {
    if (!this.requireReady()) return false;
    if (report) this.reportsRequested.add('context_breakdown');
    return this.sendCommand({ type: 'context' });
  }

  createCheckpoint(label?: string): boolean {
    const cmd: CommandOf<'create_checkpoint'> = { type: 'create_checkpoint' };
    if (label?.trim()) cmd.label = label.trim();
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpoints, 'checkpoints') && this.sendCommand(cmd);
  }

  /** With `paths` (a core with `checkpoint_files`), only those files; a path the checkpoint lacks is removed. */
  restoreCheckpoint(id: string, paths?: readonly string[]): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    if (paths === undefined) {
      return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpoints, 'checkpoints') && this.sendCommand({ type: 'restore_checkpoint', id });
    }
    const valid = checkpointPaths(paths);
    if (!valid) return this.refuse('Restore needs workspace-relative file paths.');
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'restoring single files of a checkpoint') && this.sendCommand({ type: 'restore_checkpoint', id, paths: valid });
  }

  deleteCheckpoint(id: string): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'deleting checkpoints') && this.sendCommand({ type: 'delete_checkpoint', id });
  }

  /** Asks how the working tree differs from the checkpoint → `checkpoint_changes{id, files}`. */
  checkpointChanges(id: string): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'comparing checkpoints') && this.sendCommand({ type: 'checkpoint_changes', id });
  }

  /** Asks for one file's content at the checkpoint → `checkpoint_file{id, path, exists, content?}`. */
  checkpointFile(id: string, path: string): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    const rel = safeRelativePath(path);
    if (!rel) return this.refuse('A checkpoint file is named by a workspace-relative path.');
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'comparing checkpoints') && this.sendCommand({ type: 'checkpoint_file', id, path: rel });
  }

  listCheckpoints(): boolean {
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpoints, 'checkpoints') && this.sendCommand({ type: 'list_checkpoints' });
  }

  /** A key for this core process only (never persisted by the core); the caller keeps it in SecretStorage. */
  setKey(provider: string, key: string): boolean {
    if (typeof key !== 'string' || !key.trim()) return this.refuse('The API key is empty.');
    const cmd: CommandOf<'set_key'> = { type: 'set_key', api_key: key.trim() };
    if (provider) cmd.provider = provider;
    return this.requireReady() && this.sendCommand(cmd);
  }

  /** Registers an endpoint without a key: keys go through `setKey`, so the core never writes them to config.json. */
  addCustomProvider(spec: CustomProviderSpec): boolean {
    const name = spec.name?.trim();
    if (!name) return this.refuse('The provider needs a name.');
    if (!isHttpUrl(spec.baseUrl)) return this.refuse('The base URL must be an http:// or https:// URL.');
    const cmd: CommandOf<'add_custom_provider'> = { type: 'add_custom_provider', name, base_url: spec.baseUrl.trim(), kind: spec.kind };
    if (spec.headers) cmd.headers = spec.headers;
    if (spec.keyFollows) cmd.key_follows = true;
    return this.requireReady() && this.sendCommand(cmd);
  }

  logout(provider: string): boolean {
    if (!provider) return this.refuse('No provider was given.');
    return this.requireReady() && this.sendCommand({ type: 'logout', provider });
  }

  refreshModels(): boolean {
    return this.requireReady() && this.sendCommand({ type: 'refresh_models' });
  }

  runSlash(name: string, args: string): boolean {
    return runSlashCommand(this, name, args);
  }

  notify(level: 'info' | 'warning' | 'error', text: string): boolean {
    this.notice(level, text);
    return false;
  }

  // ── Helpers ────────────────────────────────────────────────────────────────

  private sendCommand(cmd: Command): boolean {
    const conn = this.connection;
    if (!conn) return false;
    this.log(describeCommand(cmd));
    return conn.send(cmd);
  }

  private requireReady(): boolean {
    if (this.connection && this.current.core.status === 'ready') return true;
    const status = this.current.core.status;
    if (status === 'starting' || status === 'restarting') this.notice('info', 'The core is starting; try again in a moment.');
    else this.notice('warning', 'The core is not running.', 'restartCore');
    return false;
  }

  private requireCapability(capability: string, what: string): boolean {
    if (this.capabilities().has(capability)) return true;
    this.notice('warning', `${this.o.launch.kind === 'scv' ? 'An SCV server' : 'This core'} does not support ${what}.`);
    return false;
  }

  /** The same rule as the chat's (src/shared/coreCapabilities), for what the controller itself asks the core. */
  private can(capability: UiCapability): boolean {
    return supports(this.current, capability);
  }

  private listSessionsIfSupported(): void {
    if (this.can(UI_CAPABILITIES.sessions)) this.sendCommand({ type: 'list_sessions' });
  }

  /** Refuses, before anything is shown, a prompt larger than the server accepts (UTF-8 bytes). */
  private withinPromptLimit(text: string): boolean {
    const max = this.connection?.limits?.maxPromptBytes;
    if (max === undefined) return true;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= max) return true;
    const who = this.o.launch.kind === 'scv' ? 'the SCV server' : 'the core';
    return this.refuse(
      `This prompt is ${bytes.toLocaleString('en-US')} bytes (UTF-8); ${who} accepts at most ${max.toLocaleString('en-US')} (${kib(max)} KiB). Shorten it, or put the text in a file and mention the file.`,
    );
  }

  /** The server's queue control, when the core has one; tells the user otherwise. */
  private serverQueue(): ServerQueueControl | undefined {
    if (!this.requireReady()) return undefined;
    const queue = this.connection?.serverQueue;
    if (queue && this.capabilities().has(UI_CAPABILITIES.serverQueue)) return queue;
    this.refuse('This core has no editable queue.');
    return undefined;
  }

  /** As serverQueue(), and `id` must still be waiting in it. */
  private queueFor(id: string): ServerQueueControl | undefined {
    const queue = this.serverQueue();
    if (!queue) return undefined;
    if (typeof id === 'string' && this.isQueued(id)) return queue;
    this.refuse('That prompt is no longer queued.');
    return undefined;
  }

  private isQueued(id: string): boolean {
    return this.current.serverQueue?.entries.some((entry) => entry.id === id) ?? false;
  }

  private isPending(kind: 'ask' | 'sudo', id: string): boolean {
    return this.current.items.some((i) => i.kind === kind && i.id === id && i.state === 'pending');
  }

  private providerOf(model: string): { provider?: string } {
    const provider = this.current.models.find((m) => m.id === model)?.provider;
    return provider ? { provider } : {};
  }

  private refuse(text: string, action?: NoticeItem['action'], level: NoticeItem['level'] = 'warning'): false {
    this.notice(level, text, action);
    return false;
  }

  private notice(level: NoticeItem['level'], text: string, action?: NoticeItem['action'], code?: string): void {
    this.dispatch({ type: 'client:notice', level, text, action, code });
  }

  private log(line: string): void {
    try {
      this.o.log?.(line);
    } catch {
      // The log sink must never break the session.
    }
  }
}

/** Every path workspace-relative (normalized), at least one, at most 10 000; undefined otherwise. */
function checkpointPaths(paths: unknown): string[] | undefined {
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > 10_000) return undefined;
  const out = paths.map(safeRelativePath);
  return out.every((p): p is string => p !== undefined) ? out : undefined;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function kib(bytes: number): string {
  return String(Math.round((bytes / 1024) * 10) / 10);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

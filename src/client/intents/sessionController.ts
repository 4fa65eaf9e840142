import { initialSessionState, type NoticeItem, type SessionState } from '../../shared/sessionState';
import type { Disposable } from '../channel/coreConnection';
import { CoreSupervisor, type CoreSupervisorOptions } from '../channel/coreSupervisor';
import type { WireEvent } from '../state/eventFields';
import { SessionStore, type StateListener } from '../state/sessionStore';
import { IntentContext } from './intentContext';
import { RequestedReports } from './requestedReports';
import { sessionIntents, type SessionIntents } from './sessionIntents';
import { runSlashCommand } from './slashCommands';

export interface SessionControllerOptions extends CoreSupervisorOptions {
  /** The client's own log (the output channel); core stderr lines land here too. */
  log?: (line: string) => void;
  /** Preselected model (a setting); kept when the core lists it, otherwise the first listed model is used. */
  defaultModel?: string;
}

// The intents are the facets' (./facets), assigned to the instance in the constructor: one declaration of each.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SessionController extends SessionIntents {}

/**
 * One core for one workspace folder and the session model derived from its events. The core's process (start,
 * restart after a crash, resume) is the `CoreSupervisor`'s; the user's intents, validated into commands, are the
 * facets' of `SessionIntents`. Listeners get every state change synchronously with its patches.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SessionController {
  private readonly store: SessionStore;
  private readonly core: CoreSupervisor;

  constructor(o: SessionControllerOptions) {
    const log = guardedLog(o.log);
    const initial = initialSessionState(o.launch.kind);
    this.store = new SessionStore(o.defaultModel ? { ...initial, model: o.defaultModel } : initial, log);
    this.core = new CoreSupervisor(o, { store: this.store, log, sendHeldPrompt: (text, images) => this.sendPrompt(text, images) });
    const reports = new RequestedReports();
    // Registered first, so a requested report is in the state before any other listener sees the event.
    this.core.onEvent((e) => {
      const text = reports.noticeFor(e, this.state);
      if (text) this.store.notice('info', text);
    });
    const ctx = new IntentContext(this.store, this.core, o.launch.kind, log, (answer) => reports.request(answer));
    Object.assign(this, sessionIntents(ctx));
  }

  get state(): SessionState {
    return this.store.state;
  }

  /** The session file the core was (or will be) started with; follows `session_changed`. */
  get currentSessionFile(): string | undefined {
    return this.core.sessionFile;
  }

  capabilities(): Set<string> {
    return new Set(this.state.core.capabilities);
  }

  onDidChange(listener: StateListener): Disposable {
    return this.store.onDidChange(listener);
  }

  /** Raw core events, after the state has been updated for them. */
  onEvent(listener: (e: WireEvent) => void): Disposable {
    return this.core.onEvent(listener);
  }

  /** Starts the core unless it is running; resolves true once it is ready. Failures end up in the state, never thrown. */
  start(): Promise<boolean> {
    return this.core.start();
  }

  /** User-requested: stop, then start again on the same session, with a fresh crash budget. */
  restart(): Promise<boolean> {
    return this.core.restart();
  }

  stop(): Promise<void> {
    return this.core.stop();
  }

  /** Stops the core and drops every listener. */
  async dispose(): Promise<void> {
    await this.core.dispose();
    this.store.dispose();
  }

  /** `/name args` from the chat; a missing argument or an unknown name becomes a notice. */
  runSlash(name: string, args: string): boolean {
    return runSlashCommand(this, name, args);
  }

  /** A notice in the chat (a slash command's answer); false, as nothing was sent. */
  notify(level: NoticeItem['level'], text: string): boolean {
    this.store.notice(level, text);
    return false;
  }
}

/** The log sink must never break the session. */
function guardedLog(sink: ((line: string) => void) | undefined): (line: string) => void {
  return (line) => {
    try {
      sink?.(line);
    } catch {
      // dropped: a failing output channel is not the session's problem
    }
  };
}

import type { Command } from '../../protocol';
import { supports, type UiCapability } from '../../shared/coreCapabilities';
import type { CoreKind, NoticeItem, SessionState } from '../../shared/sessionState';
import type { CoreSupervisor } from '../channel/coreSupervisor';
import type { Disposable } from '../channel/coreConnection';
import type { ClientEvent } from '../state/clientEvents';
import type { WireEvent } from '../state/eventFields';
import type { SessionStore, StateListener } from '../state/sessionStore';

/** What the intents use of the supervised core. */
export type IntentCore = Pick<CoreSupervisor, 'send' | 'channel' | 'sessionFile' | 'holdsPrompts' | 'holdPrompt' | 'onEvent'>;

/** The core's answers shown as a notice when they arrive (`/stats`, `/context`, `/agents`, `/skills`). */
export type ReportedAnswer = 'stats' | 'context_breakdown' | 'agents' | 'skills';

/**
 * What every intent facet shares: the session's state, the core to send to, and the checks that turn a refused intent
 * into a notice. A check returns false after telling the user why, so an intent reads `ctx.requireReady() && ctx.send(cmd)`.
 */
export class IntentContext {
  constructor(
    private readonly store: SessionStore,
    readonly core: IntentCore,
    readonly kind: CoreKind,
    readonly log: (line: string) => void,
    readonly requestReport: (answer: ReportedAnswer) => void,
  ) {}

  get state(): SessionState {
    return this.store.state;
  }

  /** "An SCV server" or "This core", as a notice names the other end. */
  private get who(): string {
    return this.kind === 'scv' ? 'An SCV server' : 'This core';
  }

  send(cmd: Command): boolean {
    return this.core.send(cmd);
  }

  dispatch(e: ClientEvent): void {
    this.store.dispatch(e);
  }

  onDidChange(listener: StateListener): Disposable {
    return this.store.onDidChange(listener);
  }

  notice(level: NoticeItem['level'], text: string, action?: NoticeItem['action']): void {
    this.store.notice(level, text, action);
  }

  refuse(text: string, action?: NoticeItem['action'], level: NoticeItem['level'] = 'warning'): false {
    this.notice(level, text, action);
    return false;
  }

  requireReady(): boolean {
    if (this.core.channel && this.state.core.status === 'ready') return true;
    const status = this.state.core.status;
    if (status === 'starting' || status === 'restarting') this.notice('info', 'The core is starting; try again in a moment.');
    else this.notice('warning', 'The core is not running.', 'restartCore');
    return false;
  }

  /** Whether the core announced `capability` itself. */
  announces(capability: string): boolean {
    return this.state.core.capabilities.includes(capability);
  }

  requireCapability(capability: string, what: string): boolean {
    if (this.announces(capability)) return true;
    this.notice('warning', `${this.who} does not support ${what}.`);
    return false;
  }

  /** The same rule as the chat's (src/shared/coreCapabilities), for what the intents themselves ask the core. */
  can(capability: UiCapability): boolean {
    return supports(this.state, capability);
  }

  /** As can(), saying `lacking` ("has no goal mode") when the core cannot. */
  requireFeature(capability: UiCapability, lacking: string): boolean {
    if (this.can(capability)) return true;
    this.notice('warning', `${this.who} ${lacking}.`);
    return false;
  }

  /** The commands that need nothing but a ready core. */
  sendWhenReady(cmd: Command): boolean {
    return this.requireReady() && this.send(cmd);
  }

  /** The commands that need a ready core that announced `capability` (`what` names it in the refusal). */
  sendIfAnnounced(capability: string, what: string, cmd: Command): boolean {
    return this.requireReady() && this.requireCapability(capability, what) && this.send(cmd);
  }

  /** Sends `cmd` and resolves with the next event of one of the `answers` types, or undefined once the core stops. */
  nextAnswer(cmd: Command, answers: readonly string[]): Promise<WireEvent | undefined> {
    return new Promise((resolve) => {
      const done = (e: WireEvent | undefined) => {
        events.dispose();
        status.dispose();
        resolve(e);
      };
      const events = this.core.onEvent((e) => answers.includes(e.type) && done(e));
      const status = this.onDidChange((s) => s.core.status !== 'ready' && done(undefined));
      if (!this.send(cmd)) done(undefined);
    });
  }

  /** Refuses, before anything is shown, a prompt larger than the server accepts (UTF-8 bytes). */
  withinPromptLimit(text: string): boolean {
    const max = this.core.channel?.limits?.maxPromptBytes;
    if (max === undefined) return true;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= max) return true;
    const who = this.kind === 'scv' ? 'the SCV server' : 'the core';
    return this.refuse(
      `This prompt is ${bytes.toLocaleString('en-US')} bytes (UTF-8); ${who} accepts at most ${max.toLocaleString('en-US')} (${kib(max)} KiB). Shorten it, or put the text in a file and mention the file.`,
    );
  }

  /** The model to run a prompt on; refuses (undefined) when there is none. */
  requireModel(model: string | undefined): string | undefined {
    if (model) return model;
    this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    return undefined;
  }
}

function kib(bytes: number): string {
  return String(Math.round((bytes / 1024) * 10) / 10);
}

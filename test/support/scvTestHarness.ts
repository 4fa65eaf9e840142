// Test support: drives an ScvTranslator through the handshake and feeds it server events with consecutive seq numbers.
import type { ClientMessage } from '../../src/protocol/scv';
import type { ClientEvent } from '../../src/client/state/clientEvents';
import type { WireEvent } from '../../src/client/state/eventFields';
import { ApprovalRules } from '../../src/client/channel/scv/approvalRules';
import { type ScvTranslatorOptions, type TranslatorStep, ScvTranslator } from '../../src/client/channel/scv/scvTranslator';

export const SESSION = 'sess-1';
export const WORKSPACE = '/ws';
export const NOW = 1_700_000_000_000;

export type AnyEvent = WireEvent | ClientEvent;

export class TranslatorHarness {
  readonly t: ScvTranslator;
  readonly rules: ApprovalRules;
  /** Every frame sent so far, in order. */
  readonly sent: ClientMessage[] = [];
  private seq = 0;

  constructor(opts: Partial<ScvTranslatorOptions> = {}) {
    this.rules = opts.rules ?? new ApprovalRules();
    this.t = new ScvTranslator({
      workspace: WORKSPACE,
      client: { name: 'catalyst-vscode', version: '1.2.3' },
      rules: this.rules,
      now: () => NOW,
      ...opts,
    });
  }

  /** Through `queue.snapshot`: the translator is ready. Returns the snapshot's step (hello, ready, queue). */
  handshake(snapshot: { entries?: unknown[]; paused?: boolean } = {}): TranslatorStep {
    this.record(this.t.begin());
    this.server({ type: 'initialized', request_id: 'c-1', protocol_version: 3, server: { name: 'scv-server', version: '0.3.14' } });
    this.server({
      type: 'session.started',
      request_id: 'c-2',
      session_id: SESSION,
      cwd: WORKSPACE,
      model: 'gpt-test',
      context_max_tokens: 128_000,
      max_server_frame_bytes: 4_194_304,
      max_transcript_bytes: 1,
      max_transcript_items: 1,
      max_prompt_history_bytes: 1,
      max_prompt_history_items: 1,
    });
    return this.event('queue.snapshot', { request_id: 'c-2', entries: snapshot.entries ?? [], paused: snapshot.paused ?? false });
  }

  /** A raw server value, exactly as given. */
  server(value: unknown): TranslatorStep {
    return this.record(this.t.onServerValue(value));
  }

  /** A session-scoped event with the session id and the next seq. */
  event(type: string, fields: Record<string, unknown> = {}): TranslatorStep {
    return this.server({ type, session_id: SESSION, seq: ++this.seq, ...fields });
  }

  /** A turn event of `turnId`, answering `requestId`. */
  turnEvent(type: string, turnId: string, fields: Record<string, unknown> = {}, requestId = 'c-3'): TranslatorStep {
    return this.event(type, { request_id: requestId, turn_id: turnId, ...fields });
  }

  skipSeq(n = 1): void {
    this.seq += n;
  }

  get lastSeq(): number {
    return this.seq;
  }

  record<T extends TranslatorStep>(step: T): T {
    for (const m of step.messages) this.sent.push(m.message);
    return step;
  }

  lastSent(): ClientMessage | undefined {
    return this.sent[this.sent.length - 1];
  }
}

export function types(step: TranslatorStep): string[] {
  return step.events.map((e) => e.type);
}

export function only<T = Record<string, unknown>>(step: TranslatorStep, type: string): T {
  const found = step.events.filter((e) => e.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type}, got ${found.length} in ${JSON.stringify(types(step))}`);
  return found[0] as T;
}

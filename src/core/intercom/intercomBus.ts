/**
 * The session's intercom: mailboxes keyed by target, the pending asks, and the fixed `orchestrator` target, which has
 * no mailbox — the user answers for it through `intercom_message` events and `intercom_reply` (upstream's intercom.rs).
 */

export const ORCHESTRATOR = 'orchestrator';

export const INTERCOM_MAILBOX_LIMIT = 256;
export const INTERCOM_ASK_LIMIT = 256;
export const INTERCOM_MESSAGE_BYTES = 64 * 1024;
export const INTERCOM_ASK_TIMEOUT_MS = 300_000;

/** One message in a mailbox, or one addressed to the orchestrator. */
export interface IntercomEnvelope {
  id: string;
  from: string;
  to: string;
  reason: string;
  message: string;
  /** Unix ms. */
  ts: number;
  /** The ask the recipient must quote in its reply; empty for a plain message. */
  ask_id: string;
}

/** How a blocking ask ended. */
export type AskOutcome =
  | { kind: 'reply'; text: string }
  | { kind: 'interrupted' }
  | { kind: 'agent_finished' }
  | { kind: 'session_replaced' }
  | { kind: 'timed_out' };

/** A limit or an unknown target: the message is for the model. */
export class IntercomError extends Error {}

export interface IntercomBusOptions {
  /** Surfaces traffic addressed to the orchestrator (as `intercom_message`). */
  toOrchestrator(envelope: IntercomEnvelope): void;
  /** How long an ask waits for its reply (default 300 s). */
  timeoutMs?: number;
  now?: () => number;
}

interface PendingAsk {
  envelope: IntercomEnvelope;
  settle(outcome: AskOutcome): void;
}

let lastSequence = 0;

/** `<prefix>-<hex seq>-<unix ms>`, the sequence process-wide like upstream's. */
function nextId(prefix: 'ask' | 'msg', now: number): string {
  return `${prefix}-${(lastSequence++).toString(16)}-${now}`;
}

export class IntercomBus {
  private readonly mailboxes = new Map<string, IntercomEnvelope[]>();
  private readonly asks = new Map<string, PendingAsk>();
  private readonly timeoutMs: number;
  private readonly now: () => number;
  /**
   * Answers a child's need_decision at once instead of asking the user, when it returns true (goal mode's
   * auto-resolution while a goal runs, research A:469-472); it surfaces the question itself.
   */
  autoResolveDecision: ((from: string, message: string) => boolean) | undefined;

  constructor(private readonly opts: IntercomBusOptions) {
    this.timeoutMs = opts.timeoutMs ?? INTERCOM_ASK_TIMEOUT_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Gives a child its mailbox; idempotent. */
  register(target: string): void {
    if (target && target !== ORCHESTRATOR && !this.mailboxes.has(target)) this.mailboxes.set(target, []);
  }

  /**
   * The child ended: its mailbox goes, and the asks it made — and those made of it, which it can no longer answer — wake
   * with `[agent finished]`.
   */
  unregister(target: string): void {
    this.mailboxes.delete(target);
    for (const ask of [...this.asks.values()])
      if (ask.envelope.from === target || ask.envelope.to === target) ask.settle({ kind: 'agent_finished' });
  }

  /** The orchestrator, then every registered child. */
  targets(): string[] {
    return [ORCHESTRATOR, ...this.mailboxes.keys()];
  }

  get pendingAskCount(): number {
    return this.asks.size;
  }

  /** A message that needs no answer. To the orchestrator it is surfaced at once; otherwise it waits in the peer's mailbox. */
  send(from: string, to: string, message: string, reason = ''): IntercomEnvelope {
    checkSize(message, 'message');
    const envelope = this.envelope('msg', from, to, reason, message);
    if (to === ORCHESTRATOR) this.opts.toOrchestrator(envelope);
    else this.deliver(envelope);
    return envelope;
  }

  /**
   * A blocking question. It wakes on the reply, on `signal` (`interrupted`), when the asker is unregistered, on
   * reset, or after the timeout. Limits and an unknown peer throw before anything is surfaced.
   */
  ask(from: string, to: string, message: string, reason: string, signal: AbortSignal): { id: string; outcome: Promise<AskOutcome> } {
    checkSize(message, 'ask');
    if (this.asks.size >= INTERCOM_ASK_LIMIT) throw new IntercomError(`too many pending intercom asks (limit ${INTERCOM_ASK_LIMIT})`);
    const envelope = this.envelope('ask', from, to, reason, message);
    envelope.ask_id = envelope.id;
    if (signal.aborted) return { id: envelope.id, outcome: Promise.resolve({ kind: 'interrupted' }) };
    if (to !== ORCHESTRATOR) this.deliver(envelope);
    const outcome = new Promise<AskOutcome>((resolve) => {
      const onAbort = (): void => settle({ kind: 'interrupted' });
      const timer = setTimeout(() => settle({ kind: 'timed_out' }), this.timeoutMs);
      // A waiting ask must not keep a core alive that is otherwise shutting down.
      timer.unref();
      const settle = (result: AskOutcome): void => {
        if (!this.asks.delete(envelope.id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      this.asks.set(envelope.id, { envelope, settle });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    if (to === ORCHESTRATOR) this.opts.toOrchestrator(envelope);
    return { id: envelope.id, outcome };
  }

  /**
   * Answers a pending ask; false when there is none with that id (unknown, answered, expired) or, with `as`, when it
   * was not addressed to `as` (a child answers only its own asks, never a sibling's question to the user).
   */
  reply(askId: string, text: string, as?: string): boolean {
    const ask = this.asks.get(askId);
    if (!ask || (as !== undefined && ask.envelope.to !== as)) return false;
    ask.settle({ kind: 'reply', text });
    return true;
  }

  /** Takes the oldest message in `target`'s mailbox. */
  receive(target: string): IntercomEnvelope | undefined {
    return this.mailboxes.get(target)?.shift();
  }

  /** Takes, in order, every message in `target`'s mailbox sent by `from`, leaving the others (steering: `from` = orchestrator). */
  drainFrom(target: string, from: string): IntercomEnvelope[] {
    const box = this.mailboxes.get(target);
    if (!box) return [];
    const taken = box.filter((e) => e.from === from);
    this.mailboxes.set(
      target,
      box.filter((e) => e.from !== from),
    );
    return taken;
  }

  /** The session was replaced: every ask wakes with `[session replaced]` and every mailbox goes. */
  reset(): void {
    for (const ask of [...this.asks.values()]) ask.settle({ kind: 'session_replaced' });
    this.mailboxes.clear();
  }

  private envelope(prefix: 'ask' | 'msg', from: string, to: string, reason: string, message: string): IntercomEnvelope {
    const ts = this.now();
    return { id: nextId(prefix, ts), from, to, reason, message, ts, ask_id: '' };
  }

  private deliver(envelope: IntercomEnvelope): void {
    const box = this.mailboxes.get(envelope.to);
    if (!box) throw new IntercomError(`unknown intercom target '${envelope.to}'; use action:"targets" to list known peers`);
    if (box.length >= INTERCOM_MAILBOX_LIMIT)
      throw new IntercomError(`intercom mailbox '${envelope.to}' is full (${INTERCOM_MAILBOX_LIMIT} messages)`);
    box.push(envelope);
  }
}

function checkSize(message: string, what: 'message' | 'ask'): void {
  if (Buffer.byteLength(message, 'utf8') > INTERCOM_MESSAGE_BYTES)
    throw new IntercomError(`intercom ${what} exceeds the ${INTERCOM_MESSAGE_BYTES} byte limit`);
}

/** `CATALYST_CODE_INTERCOM_TIMEOUT_SECS` (for tests), else upstream's 300 s. */
export function intercomTimeoutMs(env: NodeJS.ProcessEnv): number {
  const secs = Number(env.CATALYST_CODE_INTERCOM_TIMEOUT_SECS);
  return Number.isFinite(secs) && secs > 0 ? secs * 1000 : INTERCOM_ASK_TIMEOUT_MS;
}

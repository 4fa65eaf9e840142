import { PROTOCOL_VERSION, type EventType, type Unstamped } from '../../protocol';
import { SecretScrubber, containsSecretKey, redactSecrets } from './redact';
import type { ChildScope } from './childScope';
import type { RunScope } from './runScope';
import { StreamRedactor } from './streamRedactor';

/** An event inside a foreground run: the sink stamps protocol_version, session_id, run_id and sequence. */
export type RunEvent = Unstamped;

/** The in-run events of the given types, e.g. for a helper that builds one. */
export type RunEventOf<T extends EventType> = Extract<RunEvent, { type: T }>;

/** An event outside a run: the sink stamps protocol_version and fills session_id when absent; run_id is the emitter's. */
export type SessionEvent = Unstamped<'protocol_version' | 'session_id' | 'sequence'> & { session_id?: string };

/**
 * An event of a child run: the sink keeps its run_id (a `subagent_*` event's own, an approval's target) or gives it the
 * root run's, and stamps protocol_version, session_id and the root run's sequence.
 */
export type ChildEvent = Unstamped<'protocol_version' | 'session_id' | 'sequence' | 'run_id'> & { run_id?: string };

export type SessionEventOf<T extends EventType> = Extract<SessionEvent, { type: T }>;

/** An event of a session's background work: the sink stamps protocol_version and the session it names. */
export type BackgroundEvent = Unstamped<'protocol_version' | 'session_id' | 'sequence'>;

/**
 * Any event's fields, as the sink's internals handle them: redaction, the stream templates and the stamping rewrite
 * fields by name whatever the event's type. The public methods take the typed unions above.
 */
export type EventFields = { type: string } & Record<string, unknown>;

/** Streamed events whose text field is one chunk of a longer text, in which a secret may be split across chunks. */
const STREAMED_TEXT: Readonly<Record<string, string>> = { delta: 'text', thinking: 'text', tool_call_args: 'args', subagent_delta: 'text' };

/** The stream of a run whose carry buffer holds text back (at most one per run: another event flushes it). */
interface OpenStream {
  key: string;
  field: string;
  /** The stream's latest event, so that a flush emits an event of the same shape (e.g. the tool call's index). */
  template: EventFields;
  redactor: StreamRedactor;
}

/**
 * The only writer of stdout (research §1.1): stamps protocol_version/session_id/run_id/sequence, fills
 * tool_result.status from legacy fields, redacts secret-named keys and the live secrets' values, and drops events of
 * cancelled runs or replaced sessions. Our own event types go only to a client that announced their capability in init
 * (`clientAccepts`, see EXTENSION_EVENT_CAPABILITIES). A child run's events (`emitInChild`) keep their own run_id, count the root run's
 * sequence, and are dropped once the child, an ancestor or the root run is cancelled.
 *
 * Secrets (`secrets()`: provider keys, config keys, sudo passwords): every occurrence in any string of any event is
 * replaced by [REDACTED]. Streamed text (delta, thinking, tool_call_args, subagent_delta) goes through a carry buffer
 * per run and per child run that holds back a tail that could be the start of a secret, so a key split across chunks
 * is caught too; the held text is emitted with the stream's next chunk, or before the run's next event of any other
 * kind (a different stream, a tool call, done, error…), or by `endRun` / `endChild`. A cancelled run's held text is
 * dropped like the rest of its late events.
 */
export class EventSink {
  discardedStale = 0;
  private readonly scrubber: SecretScrubber;
  /** The open stream of each run and of each child run (a child's deltas have their own carry buffer). */
  private readonly streams = new WeakMap<RunScope | ChildScope, OpenStream>();

  constructor(
    private readonly write: (line: string) => void,
    private currentSessionId: () => string,
    private readonly onEmit?: (event: EventFields) => void,
    secrets: () => readonly string[] = () => [],
    private readonly clientAccepts: (type: string) => boolean = () => true,
  ) {
    this.scrubber = new SecretScrubber(secrets);
  }

  /** Emits an event outside any run (session-scoped). */
  emit(event: SessionEvent): void {
    if (this.withheld(event)) return;
    this.writeEvent({ ...event, protocol_version: PROTOCOL_VERSION, session_id: event.session_id ?? this.currentSessionId() });
  }

  /** Emits an event inside a foreground run; dropped if the run was cancelled or its session replaced. */
  emitInRun(scope: RunScope, event: RunEvent): boolean {
    if (this.isStale(scope)) return false;
    if (this.withheld(event)) return true;
    for (const e of this.throughStreams(scope, event)) this.writeInRun(scope, e);
    return true;
  }

  /** Ends the run's open stream, emitting any text it still holds (a no-op when nothing is held or the run is stale). */
  endRun(scope: RunScope): void {
    const open = this.streams.get(scope);
    if (!open) return;
    this.streams.delete(scope);
    if (this.isStale(scope)) return;
    const rest = open.redactor.flush();
    if (rest) this.writeInRun(scope, { ...open.template, [open.field]: rest });
  }

  /**
   * Emits an event of a child run; dropped when the child or its root run was cancelled, or the session replaced, so
   * nothing of a cancelled tree follows its `run_cancelled`. `subagent_delta` goes through the child's own carry buffer.
   */
  emitInChild(child: ChildScope, event: ChildEvent): boolean {
    if (this.isStaleChild(child)) return false;
    if (this.withheld(event)) return true;
    for (const e of this.throughStreams(child, event)) this.writeInChild(child, e);
    return true;
  }

  /**
   * A child run's last event (`subagent_done`): sent even when the child alone was interrupted (the client must close its
   * row), but not once its root run was cancelled or the session replaced.
   */
  emitChildEnd(child: ChildScope, event: ChildEvent): boolean {
    if (child.root.cancelled || child.sessionId !== this.currentSessionId()) {
      this.discardedStale++;
      return false;
    }
    if (this.withheld(event)) return true;
    this.writeInChild(child, event);
    return true;
  }

  /** Ends the child's open stream, emitting any text it still holds. */
  endChild(child: ChildScope): void {
    const open = this.streams.get(child);
    if (!open) return;
    this.streams.delete(child);
    if (this.isStaleChild(child)) return;
    const rest = open.redactor.flush();
    if (rest) this.writeInChild(child, { ...open.template, [open.field]: rest });
  }

  /** Emits for session-owned background work: dropped if that session is no longer current. */
  emitForSession(sessionId: string, event: BackgroundEvent): boolean {
    if (sessionId !== this.currentSessionId()) {
      this.discardedStale++;
      return false;
    }
    if (this.withheld(event)) return true;
    this.writeEvent({ ...event, protocol_version: PROTOCOL_VERSION, session_id: sessionId });
    return true;
  }

  /**
   * An event of ours the client did not ask for in init (`clientAccepts`): not written, and — checked before the run's
   * sequence is taken — leaving no gap in it. The run goes on; only this client does not see the event.
   */
  private withheld(event: EventFields): boolean {
    return !this.clientAccepts(event.type);
  }

  private isStale(scope: RunScope): boolean {
    if (!scope.cancelled && scope.sessionId === this.currentSessionId()) return false;
    this.discardedStale++;
    this.streams.delete(scope);
    return true;
  }

  private isStaleChild(child: ChildScope): boolean {
    if (!child.cancelled && child.sessionId === this.currentSessionId()) return false;
    this.discardedStale++;
    this.streams.delete(child);
    return true;
  }

  /** The events to write for `event`: the held text of another stream first, then `event` with its safe text (if any). */
  private throughStreams(scope: RunScope | ChildScope, event: EventFields): EventFields[] {
    const field = STREAMED_TEXT[event.type];
    const text = field ? event[field] : undefined;
    const key = field && typeof text === 'string' ? `${event.type}:${String(event.index ?? '')}` : undefined;
    const out: EventFields[] = [];
    let open = this.streams.get(scope);
    if (open && open.key !== key) {
      this.streams.delete(scope);
      const rest = open.redactor.flush();
      if (rest) out.push({ ...open.template, [open.field]: rest });
      open = undefined;
    }
    if (key === undefined || (!open && !this.scrubber.active)) {
      out.push(event);
      return out;
    }
    const stream = open ?? { key, field: field!, template: event, redactor: new StreamRedactor(() => this.scrubber.needles()) };
    stream.template = event;
    const safe = stream.redactor.push(text as string);
    if (stream.redactor.pending) this.streams.set(scope, stream);
    else this.streams.delete(scope);
    if (safe) out.push({ ...event, [field!]: safe });
    return out;
  }

  private writeInRun(scope: RunScope, event: EventFields): void {
    this.writeEvent({
      ...event,
      protocol_version: PROTOCOL_VERSION,
      session_id: scope.sessionId,
      run_id: scope.runId,
      sequence: scope.takeSequence(),
    });
  }

  private writeInChild(child: ChildScope, event: EventFields): void {
    this.writeEvent({
      ...event,
      protocol_version: PROTOCOL_VERSION,
      session_id: child.sessionId,
      run_id: typeof event.run_id === 'string' ? event.run_id : child.root.runId,
      sequence: child.root.takeSequence(),
    });
  }

  private writeEvent(event: EventFields): void {
    if (event.type === 'tool_result' && typeof event.status !== 'string') event.status = legacyStatus(event);
    let serialized: { value: EventFields; json: string };
    try {
      const named = containsSecretKey(event) ? redactSecrets(event) : event;
      serialized = this.scrubber.serialize(named);
    } catch (err) {
      // An event that cannot be serialized (a cycle, a BigInt, too deep) must not throw into the command that made it.
      const failure = {
        type: 'error',
        code: 'internal_error',
        message: `an event of type ${String(event.type)} could not be sent: ${(err as Error).message}`,
        protocol_version: PROTOCOL_VERSION,
      };
      serialized = this.scrubber.serialize(failure);
    }
    this.onEmit?.(serialized.value);
    this.write(serialized.json + '\n');
  }
}

/** Derives tool_result.status from the legacy ok/output pair (research §1.1). */
export function legacyStatus(event: Record<string, unknown>): string {
  if (event.ok === true) return 'success';
  const text = String(event.output ?? '').toLowerCase();
  if (/denied|declined|not approved/.test(text)) return 'denied';
  if (/cancelled|canceled|aborted/.test(text)) return 'cancelled';
  if (/timed out|timeout/.test(text)) return 'timed_out';
  if (/partially completed|partial success/.test(text)) return 'partially_completed';
  return 'failed';
}

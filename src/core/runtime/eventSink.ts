import { PROTOCOL_VERSION } from '../../protocol';
import { containsSecretKey, redactSecrets } from './redact';
import type { RunScope } from './runScope';

export type EventFields = { type: string } & Record<string, unknown>;

/**
 * The only writer of stdout (research §1.1): stamps protocol_version/session_id/run_id/sequence, fills
 * tool_result.status from legacy fields, redacts secret-named keys, and drops events of cancelled runs or replaced sessions.
 */
export class EventSink {
  discardedStale = 0;

  constructor(
    private readonly write: (line: string) => void,
    private currentSessionId: () => string,
    private readonly onEmit?: (event: EventFields) => void,
  ) {}

  /** Emits an event outside any run (session-scoped). */
  emit(event: EventFields): void {
    this.writeEvent({ ...event, protocol_version: PROTOCOL_VERSION, session_id: event.session_id ?? this.currentSessionId() });
  }

  /** Emits an event inside a foreground run; dropped if the run was cancelled or its session replaced. */
  emitInRun(scope: RunScope, event: EventFields): boolean {
    if (scope.cancelled || scope.sessionId !== this.currentSessionId()) {
      this.discardedStale++;
      return false;
    }
    this.writeEvent({ ...event, protocol_version: PROTOCOL_VERSION, session_id: scope.sessionId, run_id: scope.runId, sequence: scope.takeSequence() });
    return true;
  }

  /** Emits for session-owned background work: dropped if that session is no longer current. */
  emitForSession(sessionId: string, event: EventFields): boolean {
    if (sessionId !== this.currentSessionId()) {
      this.discardedStale++;
      return false;
    }
    this.writeEvent({ ...event, protocol_version: PROTOCOL_VERSION, session_id: sessionId });
    return true;
  }

  private writeEvent(event: EventFields): void {
    if (event.type === 'tool_result' && typeof event.status !== 'string') event.status = legacyStatus(event);
    const safe = containsSecretKey(event) ? redactSecrets(event) : event;
    this.onEmit?.(safe);
    this.write(JSON.stringify(safe) + '\n');
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

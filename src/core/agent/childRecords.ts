/** A child run's session records and its last event. */
import type { ChildScope } from '../runtime/childScope';
import type { ChildEvent } from '../runtime/eventSink';
import type { RunRecord } from '../sessions/sessionTypes';
import type { ChildEnv } from './childEnv';
import { capBytes } from './childText';

export const RECORD_DETAIL_BYTES = 24 * 1024;

/** A run's last event: it is sent even when the run itself was interrupted, but not once its root run was cancelled. */
export function emitEnd(env: ChildEnv, scope: ChildScope, event: ChildEvent): void {
  env.sink.endChild(scope);
  env.sink.emitChildEnd(scope, event);
}

export function recordRun(env: ChildEnv, scope: ChildScope, toolCallId: string, state: RunRecord['state'], detail: string): void {
  env.recordRun({
    session_id: scope.sessionId,
    run_id: scope.runId,
    kind: 'subagent',
    parent_run_id: scope.parentRunId,
    tool_call_id: toolCallId,
    state,
    timestamp_ms: Date.now(),
    detail: capBytes(detail, RECORD_DETAIL_BYTES, ''),
  });
}

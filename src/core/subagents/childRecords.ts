/** A child run's session records and its last event. */
import type { ChildScope } from '../runtime/childScope';
import type { ChildEvent } from '../runtime/eventSink';
import type { RunRecord } from '../sessions/sessionTypes';
import type { ChildEnv } from './childEnv';
import { capBytes } from '../platform/textCaps';

export const RECORD_DETAIL_BYTES = 24 * 1024;
/** The task kept in a `started` record (the card's line; the child's conversation is not in the session file). */
export const RECORD_TASK_BYTES = 4 * 1024;

/** What a `started` record adds for a resumed session's card (ours). */
export interface StartedFields {
  mode: 'single' | 'parallel' | 'chain';
  task: string;
}

/** A run's last event: it is sent even when the run itself was interrupted, but not once its root run was cancelled. */
export function emitEnd(env: ChildEnv, scope: ChildScope, event: ChildEvent): void {
  env.sink.endChild(scope);
  env.sink.emitChildEnd(scope, event);
}

export function recordRun(
  env: ChildEnv,
  scope: ChildScope,
  toolCallId: string,
  state: RunRecord['state'],
  detail: string,
  started?: StartedFields,
): void {
  env.recordRun({
    session_id: scope.sessionId,
    run_id: scope.runId,
    kind: 'subagent',
    parent_run_id: scope.parentRunId,
    tool_call_id: toolCallId,
    state,
    timestamp_ms: Date.now(),
    detail: capBytes(detail, RECORD_DETAIL_BYTES, ''),
    ...(started ? { mode: started.mode, task: capBytes(started.task, RECORD_TASK_BYTES), depth: scope.depth } : {}),
  });
}

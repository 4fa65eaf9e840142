import type { CoreRuntime } from '../coreRuntime';
import type { LoadedSession } from '../sessions/sessionFile';

/** `history`: the conversation as stored (OpenAI-chat shape) after a resume, load or undo. */
export function emitHistory(rt: CoreRuntime): void {
  rt.emit({ type: 'history', messages: [...rt.conversation.all], tokens_in: rt.usage.lastPromptTokens });
}

/** `session_recovered` when the file had a damaged tail, malformed lines or runs that never finished (then marked interrupted). */
export function emitRecovered(rt: CoreRuntime, loaded: LoadedSession): void {
  if (loaded.version !== undefined && loaded.version > 2) {
    rt.emit({
      type: 'error',
      code: 'session_version',
      message: `session file is from a newer version (${loaded.version}); some records may be ignored`,
    });
  }
  const interrupted = loaded.interruptedRuns;
  if (!loaded.truncatedTail && loaded.malformedLines === 0 && interrupted.length === 0 && loaded.warnings.length === 0) return;
  for (const run of interrupted) rt.conversation.recordRun({ ...run, state: 'interrupted', timestamp_ms: Date.now() });
  rt.conversation.sync();
  const warnings = [...loaded.warnings];
  if (loaded.truncatedTail) warnings.push('the last record of the session file was truncated and was dropped');
  if (loaded.malformedLines > 0) warnings.push(`${loaded.malformedLines} malformed line(s) were skipped`);
  rt.emit({
    type: 'session_recovered',
    warnings,
    interrupted_runs: interrupted.map((r) => r.run_id),
    interrupted_activities: interrupted.map((r) => ({
      run_id: r.run_id,
      kind: r.kind,
      parent_run_id: r.parent_run_id ?? null,
      tool_call_id: r.tool_call_id ?? null,
    })),
  });
}

import type { CoreRuntime } from '../app/coreRuntime';
import type { ChatMessage } from '../providers/types';
import type { LoadedSession } from '../sessions/sessionFile';
import { historySubagents } from '../sessions/historySubagents';
import { historyTurnCosts } from '../sessions/historyTurnCosts';
import type { RunRecord } from '../sessions/sessionTypes';

/** `history`: the conversation as stored (OpenAI-chat shape) after a resume, load or undo. */
export function emitHistory(rt: CoreRuntime): void {
  const messages = [...rt.conversation.all];
  const subagents = historySubagents(messages, rt.conversation.runRecords);
  const turnCosts = historyTurnCosts(messages, rt.conversation.runRecords);
  rt.emit({
    type: 'history',
    messages,
    tokens_in: rt.usage.lastPromptTokens,
    ...(subagents.length ? { subagents } : {}),
    ...(turnCosts.length ? { turn_costs: turnCosts } : {}),
  });
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
  answerDanglingSubagentCalls(rt, loaded);
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

/**
 * A `subagent` call the process died in has no result in the file (the conversation holds a generic "interrupted"
 * note): it is answered from its children's `_run` records instead — a finished child's output, `[interrupted]` for the
 * others — so the model's next turn does not redo the work that was done.
 */
function answerDanglingSubagentCalls(rt: CoreRuntime, loaded: LoadedSession): void {
  const answered = new Set(loaded.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  const dangling = new Set(
    loaded.messages
      .flatMap((m) => m.tool_calls ?? [])
      .filter((c) => c.function.name === 'subagent' && !answered.has(c.id))
      .map((c) => c.id),
  );
  if (!dangling.size) return;
  const messages = rt.conversation.all.map((m): ChatMessage =>
    m.role === 'tool' && m.tool_call_id && dangling.has(m.tool_call_id)
      ? { ...m, content: recoveredOutput(loaded.runs, m.tool_call_id) }
      : m,
  );
  rt.conversation.replace(messages);
}

/** The children of one subagent call (not the batch or chain runs that group them), each as its latest record says. */
export function recoveredOutput(runs: readonly RunRecord[], toolCallId: string): string {
  const mine = runs.filter((r) => r.kind === 'subagent' && r.tool_call_id === toolCallId);
  const groups = new Set(mine.map((r) => r.parent_run_id));
  const latest = new Map<string, RunRecord>();
  for (const r of mine) if (!groups.has(r.run_id)) latest.set(r.run_id, r);
  const blocks = [...latest.values()].map(
    (r) =>
      `=== ${r.run_id} (${r.state === 'completed' ? 'completed' : 'interrupted'}) ===\n${r.state === 'completed' ? (r.detail ?? '') : '[interrupted]'}`,
  );
  const head = '[interrupted] the core stopped while this subagent call ran.';
  return blocks.length ? `${head} Its subagents' results:\n\n${blocks.join('\n\n')}` : head;
}

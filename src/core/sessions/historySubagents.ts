/**
 * A replayed session's subagent runs (`history.subagents`), from its `_run` records: the session file keeps no child
 * conversation, but it keeps each run's start (agent, task) and end (state, final text), which is what a card's rows show.
 */
import type { HistorySubagentRun } from '../../protocol';
import type { ChatMessage } from '../providers/types';
import { capChars, NO_SUMMARY, SUMMARY_CHARS } from '../platform/textCaps';
import type { RunRecord } from './sessionTypes';

const GROUP_MODES: ReadonlySet<string> = new Set(['parallel', 'chain']);

/**
 * The ended runs whose card is in `messages` (a `subagent` call of the conversation, or the run's parent for a nested
 * one): the runs of an undone or compacted turn have nowhere to show. A run still going is left to its live events.
 */
export function historySubagents(messages: readonly ChatMessage[], runs: readonly RunRecord[]): HistorySubagentRun[] {
  const calls = new Set(messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id));
  const byRun = new Map<string, { first: RunRecord; last: RunRecord }>();
  for (const r of runs) {
    if (r.kind !== 'subagent') continue;
    const seen = byRun.get(r.run_id);
    if (seen) seen.last = r;
    else byRun.set(r.run_id, { first: r, last: r });
  }
  const out: HistorySubagentRun[] = [];
  const shown = new Set<string>();
  for (const [runId, { first, last }] of byRun) {
    if (last.state === 'started' || !first.tool_call_id) continue;
    const parentShown = first.parent_run_id !== undefined && shown.has(first.parent_run_id);
    if (!parentShown && !calls.has(first.tool_call_id)) continue;
    shown.add(runId);
    out.push(historyRun(first, last));
  }
  return out;
}

function historyRun(first: RunRecord, last: RunRecord): HistorySubagentRun {
  const mode = first.mode ?? (GROUP_MODES.has(first.detail ?? '') ? (first.detail as 'parallel' | 'chain') : 'single');
  const single = mode === 'single';
  return {
    run_id: first.run_id,
    tool_call_id: first.tool_call_id!,
    ...(first.parent_run_id !== undefined ? { parent_run_id: first.parent_run_id } : {}),
    mode,
    agent: single ? (first.detail ?? '') : '',
    task: first.task ?? '',
    depth: first.depth ?? 1,
    state: last.state as HistorySubagentRun['state'],
    ...(single ? { summary: capChars((last.detail ?? '').trim() || NO_SUMMARY, SUMMARY_CHARS) } : {}),
    started_at: first.timestamp_ms,
    ended_at: last.timestamp_ms,
  };
}

import type { HistorySubagentRun } from '../../protocol';
import type { SubagentItem, SubagentState, TranscriptItem } from '../../shared/sessionState';
import { subagentTarget } from '../../protocol/subagents';
import { num, records, str } from './eventFields';

const INTERRUPTED_SUMMARY = 'Interrupted: the core stopped while this run was going.';

/**
 * A replayed session's subagent rows (`history.subagents`): each ended run goes right after its `subagent` card — a
 * nested run or a group's child after its parent's — with its agent, task, state and summary, as its live events left it.
 */
export function withHistorySubagents(items: TranscriptItem[], runs: unknown): TranscriptItem[] {
  const list = records<HistorySubagentRun>(runs);
  if (list.length === 0) return items;
  const cards = new Set(items.filter((item) => item.kind === 'tool').map((item) => item.id));
  const known = new Map<string, SubagentItem>();
  const rowsOfCard = new Map<string, SubagentItem[]>();
  for (const run of list) {
    const id = str(run.run_id);
    if (!id || known.has(id)) continue;
    const parentRunId = str(run.parent_run_id);
    const parent = parentRunId === undefined ? undefined : known.get(parentRunId);
    const toolCallId = str(run.tool_call_id);
    const card = parent ? parent.parentToolCallId : toolCallId !== undefined && cards.has(toolCallId) ? toolCallId : undefined;
    if (card === undefined) continue;
    const row = subagentRow(run, id, card, parent ? parentRunId : undefined);
    known.set(id, row);
    rowsOfCard.set(card, [...(rowsOfCard.get(card) ?? []), row]);
  }
  if (rowsOfCard.size === 0) return items;
  return items.flatMap((item) => (item.kind === 'tool' && rowsOfCard.has(item.id) ? [item, ...rowsOfCard.get(item.id)!] : [item]));
}

function subagentRow(run: Record<string, unknown>, id: string, card: string, parentRunId: string | undefined): SubagentItem {
  const mode = str(run.mode) ?? 'single';
  const agent = mode === 'single' ? (str(run.agent) ?? '') : '';
  const reported = str(run.state);
  const interrupted = reported === 'interrupted';
  const state: SubagentState = reported === 'completed' || reported === 'failed' ? reported : 'cancelled';
  const summary = interrupted ? INTERRUPTED_SUMMARY : str(run.summary);
  const startedAt = num(run.started_at) ?? 0;
  return {
    kind: 'subagent',
    id,
    ...(parentRunId !== undefined ? { parentRunId } : {}),
    parentToolCallId: card,
    mode,
    agent,
    agents: agent ? [agent] : [],
    task: str(run.task) ?? '',
    depth: num(run.depth) ?? 1,
    phase: 'done',
    state,
    toolCount: 0,
    tokensIn: 0,
    tokensOut: 0,
    startedAt,
    elapsedMs: Math.max(0, (num(run.ended_at) ?? startedAt) - startedAt),
    ...(summary ? { summary } : {}),
    target: agent && mode === 'single' ? subagentTarget(id, agent) : '',
  };
}

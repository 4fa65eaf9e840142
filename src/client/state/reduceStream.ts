// Reducers for a turn's stream: text, reasoning, tool calls as they stream, tool results and file changes.
import type { SessionState, ToolCardStatus, ToolItem } from '../../shared/sessionState';
import type { EventMetadata } from '../../protocol';
import { type Untrusted, type UntrustedEvent, num, str } from './eventFields';
import {
  appendItem,
  currentAssistantIndex,
  findLastIndex,
  indexOfItem,
  isChildItem,
  newAssistantItem,
  newItemId,
  streamingToolIndexes,
  updateItemAt,
  withRun,
} from './transcript';

const TOOL_RESULT_STATUSES: ReadonlySet<string> = new Set<ToolCardStatus>([
  'success',
  'denied',
  'cancelled',
  'timed_out',
  'failed',
  'stale',
  'partially_completed',
]);

/** A run-scoped event shows a run is going: idle becomes running, and the run id is learned. */
export function noteRunActivity(s: SessionState, e: Untrusted<EventMetadata>): SessionState {
  const runId = str(e.run_id);
  if (s.run.status !== 'idle') return runId !== undefined && s.run.runId === undefined ? withRun(s, { runId }) : s;
  return withRun(s, { status: 'running', runId: runId ?? s.run.runId });
}

export function reduceDelta(s: SessionState, e: UntrustedEvent<'delta'>): SessionState {
  return appendToAssistant(s, e, 'text');
}

export function reduceThinking(s: SessionState, e: UntrustedEvent<'thinking'>): SessionState {
  return appendToAssistant(s, e, 'thinking');
}

function appendToAssistant(s: SessionState, e: UntrustedEvent<'delta' | 'thinking'>, field: 'text' | 'thinking'): SessionState {
  const piece = str(e.text);
  if (!piece) return s;
  const next = noteRunActivity(s, e);
  const index = currentAssistantIndex(next.items);
  if (index < 0) return appendItem(next, newAssistantItem(next, str(e.run_id) ?? next.run.runId, { [field]: piece }));
  const item = next.items[index] as { text: string; thinking: string };
  return updateItemAt(next, index, { [field]: item[field] + piece });
}

export function reduceToolCallStart(s: SessionState, e: UntrustedEvent<'tool_call_start'>): SessionState {
  const id = str(e.id);
  if (id !== undefined && indexOfItem(s.items, 'tool', id) >= 0) return s;
  const next = noteRunActivity(s, e);
  return appendItem(next, toolCard(next, id, str(e.run_id), { status: 'streaming' }));
}

/**
 * tool_call_name/_args carry only the stream index. Indexes count the response's tool calls from 0 in both dialects,
 * so the index-th streaming card is the one; a sparse index falls back to the last card (the full tool_call repairs it).
 */
function streamingCardIndex(s: SessionState, e: UntrustedEvent<'tool_call_name' | 'tool_call_args'>): number {
  const cards = streamingToolIndexes(s.items);
  if (cards.length === 0) return -1;
  const index = num(e.index) ?? cards.length - 1;
  return cards[index] ?? cards[cards.length - 1];
}

export function reduceToolCallName(s: SessionState, e: UntrustedEvent<'tool_call_name'>): SessionState {
  const name = str(e.name);
  const index = streamingCardIndex(s, e);
  if (!name || index < 0) return s;
  const card = s.items[index] as ToolItem;
  // Our core sends the name so far; a core sending fragments gets them joined.
  return updateItemAt<ToolItem>(s, index, { name: name.startsWith(card.name) ? name : card.name + name });
}

export function reduceToolCallArgs(s: SessionState, e: UntrustedEvent<'tool_call_args'>): SessionState {
  const args = str(e.args);
  const index = streamingCardIndex(s, e);
  if (!args || index < 0) return s;
  return updateItemAt<ToolItem>(s, index, { args: (s.items[index] as ToolItem).args + args });
}

/** The full call: the card gets the complete raw args and waits for its gate; the text before it is final. */
export function reduceToolCall(s: SessionState, e: UntrustedEvent<'tool_call'>): SessionState {
  const id = str(e.id);
  let next = finishAssistantBeforeTools(noteRunActivity(s, e));
  const index = id === undefined ? -1 : indexOfItem(next.items, 'tool', id);
  if (index < 0)
    return appendItem(
      next,
      toolCard(next, id, str(e.run_id), { name: str(e.name) ?? '', args: str(e.args) ?? '', status: 'pending', ...outerCallOf(next, id) }),
    );
  const card = next.items[index] as ToolItem;
  next = updateItemAt<ToolItem>(next, index, {
    name: str(e.name) ?? card.name,
    args: str(e.args) ?? card.args,
    status: card.status === 'streaming' ? 'pending' : card.status,
  });
  return next;
}

/** A bulk tool's inner call has the id `<outer id>.<n>` (the core's gate numbers them), and follows its outer card. */
function outerCallOf(s: SessionState, id: string | undefined): Pick<ToolItem, 'outerId'> {
  const outerId = id && /^(.+)\.\d+$/.exec(id)?.[1];
  return outerId && indexOfItem(s.items, 'tool', outerId) >= 0 ? { outerId } : {};
}

function finishAssistantBeforeTools(s: SessionState): SessionState {
  const index = findLastIndex(s.items, (item) => item.kind === 'assistant' && !isChildItem(item));
  const item = s.items[index];
  return item?.kind === 'assistant' && item.streaming ? updateItemAt(s, index, { streaming: false }) : s;
}

export function reduceToolResult(s: SessionState, e: UntrustedEvent<'tool_result'>): SessionState {
  const id = str(e.id);
  const ok = e.ok === true;
  const reported = str(e.status);
  const status: ToolCardStatus =
    reported !== undefined && TOOL_RESULT_STATUSES.has(reported) ? (reported as ToolCardStatus) : ok ? 'success' : 'failed';
  const changes: Partial<ToolItem> = { status };
  const output = str(e.output);
  const diff = str(e.diff);
  if (output !== undefined) changes.output = output;
  if (diff) changes.diff = diff;
  const index = id === undefined ? -1 : indexOfItem(s.items, 'tool', id);
  if (index >= 0) return updateItemAt<ToolItem>(s, index, changes);
  return appendItem(s, { ...toolCard(s, id, str(e.run_id), {}), ...changes });
}

/**
 * file_change names the tool, not the call: it belongs to the latest card of that tool (it follows its tool_result).
 * A child's calls send none, so a child's card is never it.
 */
export function reduceFileChange(s: SessionState, e: UntrustedEvent<'file_change'>): SessionState {
  const path = str(e.path);
  if (!path) return s;
  const tool = str(e.tool);
  const index = findLastIndex(s.items, (item) => item.kind === 'tool' && !isChildItem(item) && (tool === undefined || item.name === tool));
  if (index < 0) return s;
  const card = s.items[index] as ToolItem;
  return card.files.includes(path) ? s : updateItemAt<ToolItem>(s, index, { files: [...card.files, path] });
}

function toolCard(s: SessionState, id: string | undefined, runId: string | undefined, fields: Partial<ToolItem>): ToolItem {
  const card: ToolItem = { kind: 'tool', id: id ?? newItemId(s, 't'), name: '', args: '', status: 'pending', files: [], ...fields };
  const run = runId ?? s.run.runId;
  if (run !== undefined) card.runId = run;
  return card;
}

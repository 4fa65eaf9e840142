import type { HistoryTurnCost } from '../../protocol';
import type { ChatMessage } from '../providers/types';
import { fnv1a64Hex } from './sessionPaths';
import type { RunRecord, TurnCostRecord } from './sessionTypes';

/**
 * What identifies a turn's reply in a history: its text and the user message it answered. Messages carry no run id,
 * and rewrites (undo, compaction) move them, so a turn's cost record finds its reply by this fingerprint.
 */
export function turnReplyFingerprint(messages: readonly ChatMessage[], replyIndex: number): string {
  let user: unknown = null;
  for (let i = replyIndex - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      user = messages[i].content;
      break;
    }
  }
  return fnv1a64Hex(JSON.stringify([user, messages[replyIndex].content ?? null]));
}

/** The turn's reply: its last message, when that is an assistant's answer (not a tool call left unanswered). */
export function turnReplyIndex(messages: readonly ChatMessage[]): number | undefined {
  const last = messages.length - 1;
  const m = messages[last];
  return m && m.role === 'assistant' && !m.tool_calls?.length ? last : undefined;
}

/**
 * Each replayed reply that a finished turn's cost record fingerprints, matched from the latest backwards: an undone
 * turn's record (its reply gone) or a compacted one is passed over, and a later turn with the same text takes the later record.
 */
export function historyTurnCosts(messages: readonly ChatMessage[], runs: readonly RunRecord[]): HistoryTurnCost[] {
  const records = runs.filter((r): r is RunRecord & { cost: TurnCostRecord } => r.kind === 'turn' && r.cost !== undefined);
  const out: HistoryTurnCost[] = [];
  let next = records.length - 1;
  for (let i = messages.length - 1; i >= 0 && next >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant' || m.tool_calls?.length) continue;
    const fingerprint = turnReplyFingerprint(messages, i);
    let j = next;
    while (j >= 0 && records[j].cost.reply !== fingerprint) j--;
    if (j < 0) continue;
    const { estimated_usd, requests, tokens_in, tokens_out } = records[j].cost;
    out.push({ message_index: i, estimated_usd, requests, tokens_in, tokens_out });
    next = j - 1;
  }
  return out.reverse();
}

/** The cost record of a finished turn, or undefined when it made no request or ended on no reply. */
export function turnCostRecord(
  messages: readonly ChatMessage[],
  totals: Omit<TurnCostRecord, 'reply'> | undefined,
): TurnCostRecord | undefined {
  const reply = turnReplyIndex(messages);
  return totals && reply !== undefined ? { ...totals, reply: turnReplyFingerprint(messages, reply) } : undefined;
}

import type { ChatContentPart, ChatMessage, ChatTextPart, ChatToolCall } from '../../protocol';
import type { AssistantItem, ToolItem, TranscriptItem } from '../../shared/sessionState';
import { type Untrusted, num, record, records, str } from './eventFields';

/**
 * Transcript items for a `history` event: the stored conversation in OpenAI-chat shape. User text (string or text
 * parts; images counted), assistant text and reasoning, and each tool call as a completed card whose output is the
 * matching tool message. System messages are not shown.
 */
export function itemsFromHistory(messages: unknown, idPrefix: string): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const cardsByCallId = new Map<string, number>();
  records<ChatMessage>(messages).forEach((m, i) => {
    const id = `${idPrefix}-${i}`;
    switch (str(m.role)) {
      case 'user':
        items.push({ kind: 'user', id, text: textOf(m.content), images: imageCount(m.content) });
        break;
      case 'assistant':
        pushAssistant(items, cardsByCallId, m, id);
        break;
      case 'tool':
        attachToolOutput(items, cardsByCallId, m);
        break;
    }
  });
  return items;
}

/**
 * Puts each replayed reply's turn cost (`history.turn_costs`, ours: the finished turns' `cost_update` figures) on the
 * item of the message it names, so that a reloaded session's replies show their cost lines again.
 */
export function withHistoryTurnCosts(items: TranscriptItem[], idPrefix: string, turnCosts: unknown): TranscriptItem[] {
  const costs = records<{ message_index: number; estimated_usd: number | null; requests: number; tokens_in: number; tokens_out: number }>(
    turnCosts,
  );
  if (!costs.length) return items;
  const byId = new Map(items.map((item, index) => [item.id, index]));
  const out = items.slice();
  for (const c of costs) {
    const index = byId.get(`${idPrefix}-${num(c.message_index)}`);
    const item = index === undefined ? undefined : out[index];
    if (item?.kind !== 'assistant') continue;
    const turnCost = { usd: num(c.estimated_usd) ?? null, tokensIn: num(c.tokens_in) ?? 0, tokensOut: num(c.tokens_out) ?? 0 };
    const requests = num(c.requests);
    out[index!] = { ...(item as AssistantItem), turnCost: requests === undefined ? turnCost : { ...turnCost, requests } };
  }
  return out;
}

function pushAssistant(items: TranscriptItem[], cardsByCallId: Map<string, number>, m: Untrusted<ChatMessage>, id: string): void {
  const text = textOf(m.content);
  const thinking = str(m.reasoning_content) ?? '';
  if (text || thinking) items.push({ kind: 'assistant', id, text, thinking, streaming: false });
  records<ChatToolCall>(m.tool_calls).forEach((call, j) => {
    const fn = record<ChatToolCall['function']>(call.function);
    const callId = str(call.id) ?? `${id}-call-${j}`;
    cardsByCallId.set(callId, items.length);
    // A call without a tool message was interrupted; the core repairs such pairs, an older file may not have.
    items.push({ kind: 'tool', id: callId, name: str(fn?.name) ?? '', args: str(fn?.arguments) ?? '', status: 'cancelled', files: [] });
  });
}

function attachToolOutput(items: TranscriptItem[], cardsByCallId: Map<string, number>, m: Untrusted<ChatMessage>): void {
  const callId = str(m.tool_call_id);
  const index = callId === undefined ? undefined : cardsByCallId.get(callId);
  if (index === undefined) return;
  const card = items[index] as ToolItem;
  items[index] = { ...card, status: 'success', output: textOf(m.content) };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return records<ChatTextPart>(content)
    .filter((part) => part.type === 'text')
    .map((part) => str(part.text) ?? '')
    .join('\n');
}

function imageCount(content: unknown): number {
  return records<ChatContentPart>(content).filter((part) => part.type === 'image_url' || part.type === 'image').length;
}

import type { ChatMessage, ChatToolCall, ContentPart } from './types';

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: AnthropicImageSource }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicBlock[] };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicConversation {
  system?: string;
  messages: AnthropicMessage[];
}

/**
 * OpenAI-shaped history → Messages API: system messages become the top-level `system`; assistant tool_calls
 * become tool_use blocks; tool messages become tool_result blocks in a user turn. Consecutive turns of one role
 * are merged (tool results first, as the API requires), and empty turns are dropped.
 */
export function toAnthropicConversation(messages: readonly ChatMessage[]): AnthropicConversation {
  const systemParts: string[] = [];
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      const text = plainText(message.content);
      if (text) systemParts.push(text);
      continue;
    }
    const converted = convertTurn(message);
    if (converted.content.length > 0) appendMerged(out, converted);
  }
  return { system: systemParts.length > 0 ? systemParts.join('\n\n') : undefined, messages: out };
}

function convertTurn(message: ChatMessage): AnthropicMessage {
  switch (message.role) {
    case 'assistant':
      return { role: 'assistant', content: [...contentBlocks(message.content), ...(message.tool_calls ?? []).map(toolUseBlock)] };
    case 'tool':
      return { role: 'user', content: [toolResultBlock(message)] };
    default:
      return { role: 'user', content: contentBlocks(message.content) };
  }
}

function appendMerged(out: AnthropicMessage[], next: AnthropicMessage): void {
  const previous = out[out.length - 1];
  if (previous?.role !== next.role) {
    out.push(next);
    return;
  }
  const merged = [...previous.content, ...next.content];
  const toolResults = merged.filter((block) => block.type === 'tool_result');
  previous.content = [...toolResults, ...merged.filter((block) => block.type !== 'tool_result')];
}

function toolUseBlock(call: ChatToolCall): AnthropicBlock {
  return { type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) };
}

/** tool_use.input must be an object; arguments the model garbled are sent as an empty one. */
function parseToolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toolResultBlock(message: ChatMessage): AnthropicBlock {
  const content =
    typeof message.content === 'string' || message.content === null ? (message.content ?? '') : contentBlocks(message.content);
  return { type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content };
}

function contentBlocks(content: ChatMessage['content']): AnthropicBlock[] {
  if (content === null) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.flatMap(partBlocks);
}

function partBlocks(part: ContentPart): AnthropicBlock[] {
  if (part.type === 'text') return part.text ? [{ type: 'text', text: part.text }] : [];
  return [imageBlock(part.image_url.url)];
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(url: string): AnthropicBlock {
  const dataUrl = DATA_URL.exec(url);
  if (dataUrl) return { type: 'image', source: { type: 'base64', media_type: dataUrl[1], data: dataUrl[2] } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return { type: 'text', text: '[image omitted: only data: and http(s) URLs can be sent]' };
}

function plainText(content: ChatMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

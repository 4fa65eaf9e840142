import { toAnthropicConversation } from './anthropicMessages';
import type { HttpRequestSpec } from './dialect';
import { endpointUrl, providerHeaders } from './endpoint';
import type { ChatMessage, StreamRequest, ToolSchema } from './types';

export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;
/** Room left for the answer itself when thinking would otherwise eat all of max_tokens. */
const ANSWER_HEADROOM_TOKENS = 4096;

const THINKING_BUDGETS: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
  max: 32768,
};
const THINKING_OFF = new Set(['', 'none', 'off', 'disabled']);

export function thinkingBudget(reasoningEffort: string | undefined): number | undefined {
  const effort = (reasoningEffort ?? '').trim().toLowerCase();
  if (THINKING_OFF.has(effort)) return undefined;
  return THINKING_BUDGETS[effort] ?? THINKING_BUDGETS.medium;
}

export function buildAnthropicRequest(req: StreamRequest): HttpRequestSpec {
  const { system, messages } = toAnthropicConversation(req.messages);
  const budget = midToolLoop(req.messages) ? undefined : thinkingBudget(req.reasoningEffort);
  let maxTokens = req.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + ANSWER_HEADROOM_TOKENS;
  const body: Record<string, unknown> = { model: req.model, max_tokens: maxTokens, messages, stream: true };
  if (system) body.system = system;
  if (req.tools.length > 0) body.tools = req.tools.map(toAnthropicTool);
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  return {
    url: endpointUrl(req.provider.baseUrl, 'messages'),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...providerHeaders(req.provider) },
    body,
  };
}

/**
 * With thinking on, the API wants the last assistant turn of an unfinished tool loop to start with its signed
 * thinking block. The history does not keep those signatures, so thinking stays off until the next user turn.
 */
function midToolLoop(messages: readonly ChatMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'tool') continue;
    return message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0;
  }
  return false;
}

function toAnthropicTool(tool: ToolSchema) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

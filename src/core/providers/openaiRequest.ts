import { endpointUrl, providerHeaders } from './endpoint';
import type { HttpRequestSpec } from './dialect';
import type { ChatMessage, StreamRequest, ToolSchema } from './types';

export function buildOpenAiRequest(req: StreamRequest): HttpRequestSpec {
  const body: Record<string, unknown> = {
    model: req.model,
    messages: req.messages.map(withoutReasoning),
    stream: true,
    stream_options: { include_usage: true },
  };
  // Some OpenAI-compatible servers reject an empty tools array.
  if (req.tools.length > 0) body.tools = req.tools.map(toOpenAiTool);
  if (req.reasoningEffort) body.reasoning_effort = req.reasoningEffort;
  if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
  return {
    url: endpointUrl(req.provider.baseUrl, 'chat/completions'),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...providerHeaders(req.provider) },
    body,
  };
}

/** Reasoning is not replayed: several providers (DeepSeek among them) reject it in the history. */
function withoutReasoning(message: ChatMessage): Omit<ChatMessage, 'reasoning_content'> {
  const { reasoning_content: _dropped, ...rest } = message;
  return rest;
}

function toOpenAiTool(tool: ToolSchema) {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

import { buildAnthropicRequest } from './anthropicRequest';
import { AnthropicStreamParser } from './anthropicStreamParser';
import type { Dialect } from './dialect';
import { buildOpenAiRequest } from './openaiRequest';
import { OpenAiStreamParser } from './openaiStreamParser';
import type { ProviderKind } from './types';

const DIALECTS: Readonly<Record<ProviderKind, Dialect>> = {
  openai: { buildRequest: buildOpenAiRequest, createParser: (context) => new OpenAiStreamParser(context) },
  anthropic: { buildRequest: buildAnthropicRequest, createParser: (context) => new AnthropicStreamParser(context) },
};

export function dialectFor(kind: ProviderKind): Dialect {
  const dialect = DIALECTS[kind];
  if (!dialect) throw new Error(`unknown provider kind: ${String(kind)}`);
  return dialect;
}

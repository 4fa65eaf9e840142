import type { EventSourceMessage } from 'eventsource-parser';
import type { DialectStreamParser, ParserContext } from './dialect';
import { httpStatusError, isRetryableStatus } from './httpFailure';
import { asArray, asNumber, asRecord, asString, type JsonRecord } from './jsonValue';
import { errorBodyExcerpt } from './redact';
import { ProviderError } from './types';

/** Parses OpenAI chat-completion chunks (and the DeepSeek / OpenRouter reasoning variants). */
export class OpenAiStreamParser implements DialectStreamParser {
  private done = false;
  private lastToolIndex = -1;
  private readonly indexById = new Map<string, number>();

  constructor(private readonly context: ParserContext) {}

  get complete(): boolean {
    return this.done;
  }

  /** Servers that omit [DONE] still send a finish_reason; a clean close after it loses nothing. */
  get completeWithoutMarker(): boolean {
    return this.context.accumulator.hasFinishReason;
  }

  onMessage(message: EventSourceMessage): void {
    const data = message.data.trim();
    if (data === '') return;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    const chunk = this.parseChunk(data);
    const error = chunk.error;
    if (error !== undefined) throw this.inStreamError(error, data);
    this.readUsage(asRecord(chunk.usage));
    const choice = asRecord(asArray(chunk.choices)?.[0]);
    if (choice) this.readChoice(choice);
  }

  private parseChunk(data: string): JsonRecord {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw this.badResponse('unparsable stream chunk', data);
    }
    const chunk = asRecord(parsed);
    if (!chunk) throw this.badResponse('stream chunk is not an object', data);
    return chunk;
  }

  private readChoice(choice: JsonRecord): void {
    const delta = asRecord(choice.delta) ?? asRecord(choice.message);
    if (delta) this.readDelta(delta);
    const finish = asString(choice.finish_reason);
    if (finish) this.context.accumulator.setFinishReason(finish);
  }

  private readDelta(delta: JsonRecord): void {
    const { accumulator } = this.context;
    accumulator.addReasoning(asString(delta.reasoning_content) ?? asString(delta.reasoning) ?? '');
    accumulator.addText(asString(delta.content) ?? '');
    for (const raw of asArray(delta.tool_calls) ?? []) {
      const toolCall = asRecord(raw);
      if (toolCall) this.readToolCallDelta(toolCall);
    }
  }

  private readToolCallDelta(toolCall: JsonRecord): void {
    const { accumulator } = this.context;
    const id = asString(toolCall.id) || undefined;
    const index = this.toolIndex(asNumber(toolCall.index), id);
    if (!accumulator.hasToolCall(index)) accumulator.startToolCall(index, id ?? syntheticToolCallId(index));
    const fn = asRecord(toolCall.function);
    if (!fn) return;
    accumulator.addToolName(index, asString(fn.name) ?? '');
    const args = fn.arguments;
    // A few servers send the arguments as an object rather than a JSON string.
    accumulator.addToolArgs(index, typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args));
  }

  /** Deltas normally carry `index`; without one, match by id, else continue the last call (or open the first). */
  private toolIndex(index: number | undefined, id: string | undefined): number {
    let resolved = index;
    if (resolved === undefined && id !== undefined) resolved = this.indexById.get(id) ?? this.lastToolIndex + 1;
    resolved ??= Math.max(this.lastToolIndex, 0);
    if (id !== undefined) this.indexById.set(id, resolved);
    this.lastToolIndex = Math.max(this.lastToolIndex, resolved);
    return resolved;
  }

  private readUsage(usage: JsonRecord | undefined): void {
    if (!usage) return;
    const details = asRecord(usage.prompt_tokens_details);
    this.context.accumulator.setUsage({
      promptTokens: asNumber(usage.prompt_tokens),
      completionTokens: asNumber(usage.completion_tokens),
      // DeepSeek reports cache hits as prompt_cache_hit_tokens.
      cachedTokens: asNumber(details?.cached_tokens) ?? asNumber(usage.prompt_cache_hit_tokens),
    });
  }

  /** OpenRouter and others report upstream failures inside a 200 stream as `{"error":{code,message}}`. */
  private inStreamError(error: unknown, data: string): ProviderError {
    const code = asNumber(asRecord(error)?.code);
    if (code !== undefined && code >= 400 && code < 600) {
      return httpStatusError(this.context.providerName, code, data, this.context.secrets);
    }
    const excerpt = errorBodyExcerpt(data, this.context.secrets);
    return new ProviderError('bad_response', `stream error from ${this.context.providerName}: ${excerpt}`, {
      retryable: code === undefined || isRetryableStatus(code),
    });
  }

  private badResponse(what: string, data: string): ProviderError {
    const excerpt = errorBodyExcerpt(data, this.context.secrets);
    return new ProviderError('bad_response', `${what} from ${this.context.providerName}: ${excerpt}`);
  }
}

function syntheticToolCallId(index: number): string {
  return `call_${index}_${Math.random().toString(36).slice(2, 10)}`;
}

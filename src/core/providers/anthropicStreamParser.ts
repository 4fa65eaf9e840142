import type { EventSourceMessage } from 'eventsource-parser';
import type { DialectStreamParser, ParserContext } from './dialect';
import { httpStatusError } from './httpFailure';
import { asNumber, asRecord, asString, type JsonRecord } from './jsonValue';
import { errorBodyExcerpt } from './redact';
import { ProviderError } from './types';

/** Anthropic stop reasons in the OpenAI vocabulary the rest of the core speaks. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
};

/** The HTTP status each Messages API error type stands for (https://docs.anthropic.com/en/api/errors). */
const ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface OpenToolBlock {
  toolIndex: number;
  initialInput: Record<string, unknown> | undefined;
}

/** Parses Messages API SSE events; tool_use blocks become tool-call indexes 0, 1, … in stream order. */
export class AnthropicStreamParser implements DialectStreamParser {
  private done = false;
  private nextToolIndex = 0;
  private readonly toolBlocks = new Map<number, OpenToolBlock>();
  private inputTokens = 0;
  private cacheReadTokens = 0;
  private cacheWriteTokens = 0;

  constructor(private readonly context: ParserContext) {}

  get complete(): boolean {
    return this.done;
  }

  /** message_stop is the only proof the message is whole. */
  get completeWithoutMarker(): boolean {
    return false;
  }

  onMessage(message: EventSourceMessage): void {
    if (message.data.trim() === '') return;
    const event = this.parseEvent(message.data);
    switch (asString(event.type) ?? message.event) {
      case 'message_start':
        return this.readUsage(asRecord(asRecord(event.message)?.usage));
      case 'content_block_start':
        return this.startBlock(asNumber(event.index) ?? 0, asRecord(event.content_block));
      case 'content_block_delta':
        return this.readBlockDelta(asNumber(event.index) ?? 0, asRecord(event.delta));
      case 'content_block_stop':
        return this.stopBlock(asNumber(event.index) ?? 0);
      case 'message_delta':
        return this.readMessageDelta(event);
      case 'message_stop':
        this.done = true;
        return;
      case 'error':
        throw this.streamError(asRecord(event.error), message.data);
      default:
        return; // ping and event types added later
    }
  }

  private parseEvent(data: string): JsonRecord {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    const event = asRecord(parsed);
    if (event) return event;
    const excerpt = errorBodyExcerpt(data, this.context.secrets);
    throw new ProviderError('bad_response', `unparsable stream event from ${this.context.providerName}: ${excerpt}`);
  }

  private startBlock(blockIndex: number, block: JsonRecord | undefined): void {
    const { accumulator } = this.context;
    switch (asString(block?.type)) {
      case 'text':
        return accumulator.addText(asString(block?.text) ?? '');
      case 'thinking':
        return accumulator.addReasoning(asString(block?.thinking) ?? '');
      case 'tool_use': {
        const toolIndex = this.nextToolIndex++;
        const input = asRecord(block?.input);
        this.toolBlocks.set(blockIndex, { toolIndex, initialInput: input && Object.keys(input).length > 0 ? input : undefined });
        accumulator.startToolCall(toolIndex, asString(block?.id) ?? `toolu_${toolIndex}`);
        accumulator.addToolName(toolIndex, asString(block?.name) ?? '');
        return;
      }
      default:
        return; // redacted_thinking, server tools: nothing to show
    }
  }

  private readBlockDelta(blockIndex: number, delta: JsonRecord | undefined): void {
    const { accumulator } = this.context;
    switch (asString(delta?.type)) {
      case 'text_delta':
        return accumulator.addText(asString(delta?.text) ?? '');
      case 'thinking_delta':
        return accumulator.addReasoning(asString(delta?.thinking) ?? '');
      case 'input_json_delta': {
        const tool = this.toolBlocks.get(blockIndex);
        if (tool) accumulator.addToolArgs(tool.toolIndex, asString(delta?.partial_json) ?? '');
        return;
      }
      default:
        return; // signature_delta and others
    }
  }

  /** Some gateways put the whole input in content_block_start and stream no input_json_delta. */
  private stopBlock(blockIndex: number): void {
    const tool = this.toolBlocks.get(blockIndex);
    if (!tool?.initialInput) return;
    const { accumulator } = this.context;
    if (accumulator.toolArgs(tool.toolIndex) === '') accumulator.addToolArgs(tool.toolIndex, JSON.stringify(tool.initialInput));
  }

  private readMessageDelta(event: JsonRecord): void {
    const stopReason = asString(asRecord(event.delta)?.stop_reason);
    if (stopReason) this.context.accumulator.setFinishReason(STOP_REASONS[stopReason] ?? stopReason);
    this.readUsage(asRecord(event.usage));
  }

  /** input_tokens counts only uncached input; promptTokens is the whole prompt, cache reads and writes included. */
  private readUsage(usage: JsonRecord | undefined): void {
    if (!usage) return;
    this.inputTokens = asNumber(usage.input_tokens) ?? this.inputTokens;
    this.cacheReadTokens = asNumber(usage.cache_read_input_tokens) ?? this.cacheReadTokens;
    this.cacheWriteTokens = asNumber(usage.cache_creation_input_tokens) ?? this.cacheWriteTokens;
    this.context.accumulator.setUsage({
      promptTokens: this.inputTokens + this.cacheReadTokens + this.cacheWriteTokens,
      completionTokens: asNumber(usage.output_tokens),
      cachedTokens: this.cacheReadTokens,
      cacheWriteTokens: this.cacheWriteTokens > 0 ? this.cacheWriteTokens : undefined,
    });
  }

  private streamError(error: JsonRecord | undefined, data: string): ProviderError {
    const status = ERROR_TYPE_STATUS[asString(error?.type) ?? ''];
    if (status !== undefined) return httpStatusError(this.context.providerName, status, data, this.context.secrets);
    const excerpt = errorBodyExcerpt(data, this.context.secrets);
    return new ProviderError('bad_response', `stream error from ${this.context.providerName}: ${excerpt}`, { retryable: true });
  }
}

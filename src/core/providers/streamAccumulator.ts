import type { StreamEvent, StreamResult, StreamedToolCall, TokenUsage } from './types';

interface ToolCallDraft {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Collects one attempt's stream into a StreamResult and forwards each piece to the caller as it arrives.
 * Both dialects feed it, so the events and the result have one shape whatever the provider.
 */
export class StreamAccumulator {
  private text = '';
  private reasoning = '';
  private readonly toolCalls = new Map<number, ToolCallDraft>();
  private usage: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  private finishReason = '';
  private firstOutputMs: number | undefined;

  constructor(
    private readonly emit: (event: StreamEvent) => void,
    private readonly elapsedMs: () => number,
  ) {}

  /** True once anything was shown to the caller: a retry must then tell it to discard that. */
  get emittedOutput(): boolean {
    return this.firstOutputMs !== undefined;
  }

  addText(text: string): void {
    if (!text) return;
    this.markOutput();
    this.text += text;
    this.emit({ type: 'text', text });
  }

  addReasoning(text: string): void {
    if (!text) return;
    this.markOutput();
    this.reasoning += text;
    this.emit({ type: 'reasoning', text });
  }

  hasToolCall(index: number): boolean {
    return this.toolCalls.has(index);
  }

  startToolCall(index: number, id: string): void {
    if (this.toolCalls.has(index)) return;
    this.markOutput();
    this.toolCalls.set(index, { id, name: '', arguments: '' });
    this.emit({ type: 'tool_call_start', index, id });
  }

  /** Name fragments are appended; a repeat of the whole name (some servers resend it) is ignored. */
  addToolName(index: number, name: string): void {
    const draft = this.toolCalls.get(index);
    if (!draft || !name || draft.name === name) return;
    draft.name += name;
    this.emit({ type: 'tool_call_name', index, name: draft.name });
  }

  addToolArgs(index: number, args: string): void {
    const draft = this.toolCalls.get(index);
    if (!draft || !args) return;
    draft.arguments += args;
    this.emit({ type: 'tool_call_args', index, args });
  }

  toolArgs(index: number): string {
    return this.toolCalls.get(index)?.arguments ?? '';
  }

  setUsage(update: Partial<TokenUsage>): void {
    this.usage = { ...this.usage, ...definedOnly(update) };
  }

  setFinishReason(reason: string): void {
    if (reason) this.finishReason = reason;
  }

  get hasFinishReason(): boolean {
    return this.finishReason !== '';
  }

  result(): StreamResult {
    const elapsedMs = this.elapsedMs();
    return {
      text: this.text,
      reasoning: this.reasoning,
      toolCalls: this.sortedToolCalls(),
      usage: { ...this.usage },
      finishReason: this.finishReason || (this.toolCalls.size > 0 ? 'tool_calls' : 'stop'),
      ttftMs: this.firstOutputMs ?? elapsedMs,
      elapsedMs,
    };
  }

  private sortedToolCalls(): StreamedToolCall[] {
    return (
      [...this.toolCalls.entries()]
        .sort(([a], [b]) => a - b)
        // A tool without parameters streams no argument bytes; '{}' is what it means.
        .map(([, call]) => ({ id: call.id, name: call.name, arguments: call.arguments || '{}' }))
    );
  }

  private markOutput(): void {
    this.firstOutputMs ??= this.elapsedMs();
  }
}

function definedOnly(update: Partial<TokenUsage>): Partial<TokenUsage> {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
}

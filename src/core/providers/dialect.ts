import type { EventSourceMessage } from 'eventsource-parser';
import type { StreamAccumulator } from './streamAccumulator';
import type { StreamRequest } from './types';

export interface HttpRequestSpec {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Turns one attempt's SSE messages into accumulator calls; throws a ProviderError for an in-stream error. */
export interface DialectStreamParser {
  onMessage(message: EventSourceMessage): void;
  /** The stream's own end marker arrived ([DONE] / message_stop). */
  readonly complete: boolean;
  /** The connection closed cleanly without the end marker, yet nothing is missing that matters. */
  readonly completeWithoutMarker: boolean;
}

export interface ParserContext {
  accumulator: StreamAccumulator;
  providerName: string;
  secrets: readonly string[];
}

export interface Dialect {
  buildRequest(req: StreamRequest): HttpRequestSpec;
  createParser(context: ParserContext): DialectStreamParser;
}

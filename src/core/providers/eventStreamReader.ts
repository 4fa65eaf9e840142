import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { AttemptWatchdog } from './attemptWatchdog';
import type { DialectStreamParser } from './dialect';
import { ProviderError } from './types';

/** One SSE event (or unterminated line) larger than this is not a stream we can use. */
const MAX_EVENT_CHARS = 32 * 1024 * 1024;

export interface EventStreamContext {
  watchdog: AttemptWatchdog;
  providerName: string;
  secrets: readonly string[];
}

/**
 * Feeds a response body through the SSE parser into the dialect parser until the stream's end marker or EOF.
 * Returns normally at EOF even when the marker is missing; the caller decides whether that is a drop.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  parser: DialectStreamParser,
  context: EventStreamContext,
): Promise<void> {
  const pending: EventSourceMessage[] = [];
  let oversized = false;
  // Messages are queued, not handled inside the callback, so a ProviderError from the dialect parser is not
  // thrown through eventsource-parser's internals.
  const sse = createParser({
    onEvent: (message) => pending.push(message),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const feed = (text: string) => {
    sse.feed(text);
    if (oversized)
      throw new ProviderError('bad_response', `stream event from ${context.providerName} exceeds ${MAX_EVENT_CHARS} characters`);
  };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    while (!parser.complete) {
      const chunk = await readChunk(reader, context);
      if (chunk.done) {
        feed(decoder.decode() + '\n\n');
        deliverTail(pending, parser);
        return;
      }
      context.watchdog.touch();
      feed(decoder.decode(chunk.value, { stream: true }));
      deliver(pending, parser);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>, context: EventStreamContext) {
  try {
    return await reader.read();
  } catch (error) {
    throw context.watchdog.failure(error, 'stream', context.providerName, context.secrets);
  }
}

function deliver(pending: EventSourceMessage[], parser: DialectStreamParser): void {
  while (pending.length > 0 && !parser.complete) parser.onMessage(pending.shift()!);
  pending.length = 0;
}

/** The flushed last event may be a line cut in half by the drop: unreadable there means incomplete, not malformed. */
function deliverTail(pending: EventSourceMessage[], parser: DialectStreamParser): void {
  try {
    deliver(pending, parser);
  } catch (error) {
    if (!(error instanceof ProviderError && error.kind === 'bad_response' && !error.retryable)) throw error;
  }
}

import { AttemptWatchdog } from './attemptWatchdog';
import type { Dialect, HttpRequestSpec } from './dialect';
import { readEventStream, type EventStreamContext } from './eventStreamReader';
import { errorFromResponse } from './httpFailure';
import { errorBodyExcerpt } from './redact';
import type { StreamAccumulator } from './streamAccumulator';
import { ProviderError, type IdleTimerFactory } from './types';

export interface AttemptInput {
  spec: HttpRequestSpec;
  dialect: Dialect;
  accumulator: StreamAccumulator;
  providerName: string;
  secrets: readonly string[];
  signal: AbortSignal;
  idleTimeoutMs: number;
  idleTimer?: IdleTimerFactory;
  /** The response was accepted as an event stream: a failure from here on is a stream failure, not the request's. */
  onStreamOpen?: () => void;
}

/** One POST and its stream, start to end. Throws a ProviderError whose `retryable` says whether to try again. */
export async function runStreamAttempt(input: AttemptInput): Promise<void> {
  const watchdog = new AttemptWatchdog(input.signal, input.idleTimeoutMs, input.idleTimer);
  const context: EventStreamContext = { watchdog, providerName: input.providerName, secrets: input.secrets };
  try {
    const response = await post(input.spec, context);
    if (!response.ok) {
      const error = await errorFromResponse(response, input.providerName, input.secrets);
      watchdog.throwIfCancelled();
      throw error;
    }
    if (!response.body) throw new ProviderError('bad_response', `empty response from ${input.providerName}`);
    await rejectNonStream(response, context);
    input.onStreamOpen?.();
    const parser = input.dialect.createParser({ accumulator: input.accumulator, providerName: input.providerName, secrets: input.secrets });
    await readEventStream(response.body, parser, context);
    if (!parser.complete && !parser.completeWithoutMarker) {
      throw new ProviderError('network', `stream from ${input.providerName} ended before completion`);
    }
  } finally {
    watchdog.dispose();
  }
}

async function post(spec: HttpRequestSpec, context: EventStreamContext) {
  try {
    return await fetch(spec.url, {
      method: 'POST',
      headers: spec.headers,
      body: JSON.stringify(spec.body),
      signal: context.watchdog.signal,
    });
  } catch (error) {
    throw context.watchdog.failure(error, 'connect', context.providerName, context.secrets);
  }
}

/** A JSON body on a 200 is usually a proxy's error object; it never holds the stream we asked for. */
async function rejectNonStream(response: Response, context: EventStreamContext): Promise<void> {
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('application/json')) return;
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    throw context.watchdog.failure(error, 'stream', context.providerName, context.secrets);
  }
  const excerpt = errorBodyExcerpt(body, context.secrets);
  throw new ProviderError('bad_response', `expected an event stream from ${context.providerName}, got JSON: ${excerpt}`);
}

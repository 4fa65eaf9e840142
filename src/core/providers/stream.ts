import { backoffDelayMs, cancelledError, sleepUnlessAborted } from './backoff';
import { dialectFor } from './dialects';
import { providerSecrets } from './redact';
import { withRequestAuth } from './requestAuth';
import { StreamAccumulator } from './streamAccumulator';
import { runStreamAttempt } from './streamAttempt';
import { DEFAULT_RETRY_POLICY, ProviderError, type StreamEvent, type StreamRequest, type StreamResult } from './types';

/**
 * Streams one model call, forwarding text, reasoning and tool-call pieces through `onEvent` as they arrive.
 * Transient failures (429/5xx, network errors, dropped or idle streams) are retried from scratch after a `retry`
 * event; `discardPartial` on it tells the caller to drop what the failed attempt showed. A stream that failed once open
 * is retried under upstream's reason (STREAM_RETRY_REASONS), with our own words in `detail`.
 */
export async function streamChat(request: StreamRequest, onEvent: (event: StreamEvent) => void): Promise<StreamResult> {
  const req = { ...request, provider: await withRequestAuth(request.provider) };
  const policy = { ...DEFAULT_RETRY_POLICY, ...req.retry };
  const dialect = dialectFor(req.provider.kind);
  const spec = dialect.buildRequest(req);
  const secrets = providerSecrets(req.provider);
  const startedAt = performance.now();
  const elapsedMs = () => Math.round(performance.now() - startedAt);
  for (let attempt = 1; ; attempt++) {
    if (req.signal.aborted) throw cancelledError();
    const accumulator = new StreamAccumulator(onEvent, elapsedMs);
    let streamOpen = false;
    try {
      await runStreamAttempt({
        spec,
        dialect,
        accumulator,
        providerName: req.provider.name,
        secrets,
        signal: req.signal,
        idleTimeoutMs: req.idleTimeoutMs,
        idleTimer: req.idleTimer,
        onStreamOpen: () => (streamOpen = true),
      });
      return accumulator.result();
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || attempt >= policy.maxAttempts) throw error;
      // A rate limit that lasts longer than any backoff would fail every retry: say until when at once.
      if (error.rateLimitedUntil !== undefined && error.rateLimitedUntil - Date.now() > policy.maxDelayMs) throw error;
      const backoffMs = backoffDelayMs(attempt, policy, error.retryAfterMs);
      const discardPartial = accumulator.emittedOutput;
      onEvent({
        type: 'retry',
        attempt,
        status: error.status,
        ...(streamOpen
          ? { reason: STREAM_RETRY_REASONS[discardPartial ? 'afterOutput' : 'beforeOutput'], detail: error.message }
          : { reason: error.message }),
        backoffMs,
        discardPartial,
      });
      await sleepUnlessAborted(backoffMs, req.signal);
    }
  }
}

/** Upstream's `http_retry.reason` for a stream that failed once open (clients match these words). */
export const STREAM_RETRY_REASONS = {
  beforeOutput: 'stream error before first token',
  afterOutput: 'retryable stream error after partial output',
} as const;

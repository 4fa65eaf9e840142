import { cancelledError } from './backoff';
import { redactSecrets } from './redact';
import { ProviderError, type IdleTimer, type IdleTimerFactory } from './types';

/** The default: `timeoutMs` of real time without a restart. */
export const realIdleTimer: IdleTimerFactory = (timeoutMs, onIdle) => {
  let timer: NodeJS.Timeout | undefined;
  return {
    restart() {
      clearTimeout(timer);
      timer = setTimeout(onIdle, timeoutMs);
    },
    stop() {
      clearTimeout(timer);
    },
  };
};

/**
 * One HTTP attempt's abort signal: it fires when the caller cancels or when nothing arrived for idleTimeoutMs.
 * It also names the failure once an operation on that signal throws.
 */
export class AttemptWatchdog {
  private readonly controller = new AbortController();
  private readonly idleTimer: IdleTimer | undefined;
  private idleFired = false;
  private readonly onOuterAbort = () => this.controller.abort();

  constructor(
    private readonly outer: AbortSignal,
    private readonly idleTimeoutMs: number,
    makeIdleTimer: IdleTimerFactory = realIdleTimer,
  ) {
    if (outer.aborted) this.controller.abort();
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    this.idleTimer = idleTimeoutMs > 0 ? makeIdleTimer(idleTimeoutMs, () => this.onIdle()) : undefined;
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Something arrived: restart the idle countdown. */
  touch(): void {
    if (!this.controller.signal.aborted) this.idleTimer?.restart();
  }

  private onIdle(): void {
    this.idleFired = true;
    this.controller.abort();
  }

  throwIfCancelled(): void {
    if (this.outer.aborted) throw cancelledError();
  }

  /** What an exception thrown by fetch or a body read means, given why (or whether) this attempt was aborted. */
  failure(error: unknown, stage: 'connect' | 'stream', providerName: string, secrets: readonly string[]): ProviderError {
    if (error instanceof ProviderError) return error;
    if (this.outer.aborted) return cancelledError();
    if (this.idleFired) {
      return new ProviderError('idle_timeout', `no data from ${providerName} for ${this.idleTimeoutMs} ms`);
    }
    const detail = redactSecrets(networkErrorDetail(error), secrets);
    const what = stage === 'connect' ? `network error contacting ${providerName}` : `connection to ${providerName} lost mid-stream`;
    return new ProviderError('network', `${what}: ${detail}`);
  }

  dispose(): void {
    this.idleTimer?.stop();
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }
}

/** fetch wraps the useful part (ECONNREFUSED, "other side closed") in `cause`. */
function networkErrorDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

// Provider-facing types. The conversation is kept in OpenAI chat shape everywhere (it is also what the
// session file stores); the Anthropic dialect translates at the HTTP boundary only.

export type ProviderKind = 'openai' | 'anthropic';

export interface ResolvedProvider {
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  apiKey?: string;
  headers: Record<string, string>;
  modelsEndpoint?: string;
  /**
   * Request-time credentials of a provider without a key (a plugin's OAuth token): headers to add before each request,
   * or undefined when there are none (see requestAuth.ts).
   */
  authorize?: () => Promise<Array<[string, string]> | undefined>;
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  reasoning_content?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ToolSchema {
  name: string;
  description: string;
  parameters: object;
}

export interface RetryPolicy {
  /** Total attempts, the first one included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8000 };

/** One attempt's idle countdown: `restart` (re)arms it, `stop` disarms it; running out calls the factory's `onIdle`. */
export interface IdleTimer {
  restart(): void;
  stop(): void;
}

/** Makes an attempt's idle timer of `timeoutMs` (a test passes one that runs out only when the test fires it). */
export type IdleTimerFactory = (timeoutMs: number, onIdle: () => void) => IdleTimer;

export interface StreamRequest {
  provider: ResolvedProvider;
  model: string;
  messages: ChatMessage[];
  tools: ToolSchema[];
  reasoningEffort?: string;
  maxTokens?: number;
  signal: AbortSignal;
  /** No byte for this long (waiting for headers included) counts as a dropped stream. 0 disables. */
  idleTimeoutMs: number;
  /** Makes each attempt's idle timer; default a real one (a test fires its own when it chooses). */
  idleTimer?: IdleTimerFactory;
  retry?: RetryPolicy;
}

export type StreamEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call_start'; index: number; id: string }
  | { type: 'tool_call_name'; index: number; name: string }
  | { type: 'tool_call_args'; index: number; args: string }
  /**
   * `status` is the HTTP status of the failed attempt; a dropped stream or a network error has none. `detail` is the
   * failure in our words when `reason` is upstream's generic wording for a failed stream.
   */
  | { type: 'retry'; attempt: number; status?: number; reason: string; detail?: string; backoffMs: number; discardPartial: boolean };

export interface StreamedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface TokenUsage {
  /** All prompt tokens, cached ones included (Anthropic's uncached input + cache reads + cache writes). */
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Anthropic's cache writes (cache_creation_input_tokens), part of promptTokens; priced apart (a write costs more). */
  cacheWriteTokens?: number;
}

export interface StreamResult {
  text: string;
  reasoning: string;
  toolCalls: StreamedToolCall[];
  usage: TokenUsage;
  /** OpenAI vocabulary: stop | tool_calls | length | … (Anthropic stop reasons are mapped onto it). */
  finishReason: string;
  /** From the streamChat call to the first output of the attempt that succeeded (retries included). */
  ttftMs: number;
  /** From the streamChat call to the end of the stream (retries included). */
  elapsedMs: number;
}

export interface ModelInfoLite {
  id: string;
  name: string;
  provider: string;
  context_window?: number;
  max_tokens?: number;
  reasoning?: boolean;
  /** Reasoning effort levels the model accepts, e.g. ["low","medium","high"]. */
  thinking_levels?: string[];
  /** Accepts image input natively. */
  vision?: boolean;
}

export type ProviderErrorKind = 'auth' | 'http' | 'network' | 'idle_timeout' | 'cancelled' | 'bad_response';

export interface ProviderErrorOptions {
  status?: number;
  retryable?: boolean;
  /** Server-requested wait (Retry-After), when it sent one. */
  retryAfterMs?: number;
  /** A 429's end as epoch ms, from Retry-After or the rate-limit reset headers. */
  rateLimitedUntil?: number;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<ProviderErrorKind> = new Set(['network', 'idle_timeout']);

/** Every message is built from redacted text: it never holds an API key or an Authorization header. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly rateLimitedUntil?: number;

  constructor(kind: ProviderErrorKind, message: string, options: ProviderErrorOptions = {}) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(kind);
    this.retryAfterMs = options.retryAfterMs;
    this.rateLimitedUntil = options.rateLimitedUntil;
  }
}

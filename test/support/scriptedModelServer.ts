// The only model test double: a real HTTP server on 127.0.0.1 that answers OpenAI chat-completions and
// Anthropic Messages requests from a FIFO of scripted responses, streamed as SSE the way those APIs stream.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

export interface ScriptStep {
  text?: string;
  reasoning?: string;
  toolCall?: { id: string; name: string; arguments: string | object };
  /** Wait this long before the step. */
  delayMs?: number;
  /** Destroy the socket after this step's content (a step of only `cut` drops the stream right there). */
  cut?: boolean;
}

export interface ScriptedResponse {
  /** Non-200: answer with an error body (`body`, or a dialect-shaped default) instead of a stream. */
  status?: number;
  /** With a non-200 status, the error body; with 200 and no steps, a plain JSON answer instead of a stream. */
  body?: unknown;
  /** Retry-After header, in seconds. */
  retryAfter?: number;
  /** With a non-200 status, more response headers (e.g. a rate limit's reset headers). */
  headers?: Record<string, string>;
  steps?: ScriptStep[];
  /** `cached`: cache reads; `written`: Anthropic's cache writes (both part of `prompt`). */
  usage?: { prompt: number; completion: number; cached?: number; written?: number };
  /** OpenAI finish_reason (mapped for Anthropic); default tool_calls when a step called a tool, else stop. */
  finish?: string;
  /** Pause between every SSE event written. */
  chunkDelayMs?: number;
  /** After the steps, keep the connection open and send nothing more (an idle stream). */
  hangAfterSteps?: boolean;
  /** Answer nothing (not even headers) until the test calls `release(gate)`; `held(gate)` tells when a request waits here. */
  holdUntil?: string;
}

/** A scenario file's shape: the default FIFO and one FIFO per route key (see `route`). */
export interface RoutedScript {
  default: ScriptedResponse[];
  routes: Record<string, ScriptedResponse[]>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body is not JSON (undefined when empty). `any` so tests can index into it. */
  body: any;
  /** The key the client sent, from `Authorization: Bearer …` or `x-api-key`. */
  apiKey?: string;
  /** The route key whose FIFO answered this chat request; undefined for the default FIFO (and for non-chat requests). */
  route?: string;
}

/** How the server's response to a request ended. */
export type ResponseEnd = 'completed' | 'closed_by_client' | 'cut_by_script' | 'closed_by_server';

export interface ScriptedModelServer {
  /** http://127.0.0.1:PORT/v1 */
  url: string;
  requests: RecordedRequest[];
  /** The default FIFO; each POST to /chat/completions or /messages that no route claims consumes one. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** What GET /v1/models lists. */
  setModels(ids: string[]): void;
  /** Scripted responses not consumed yet, default and routed. */
  readonly pending: number;
  close(): Promise<void>;
}

/** A started server: the above (all a helper reading its requests needs), plus routes, gates, its /models/info map and how each response ended. */
export interface StartedScriptedModelServer extends ScriptedModelServer {
  /**
   * A FIFO of its own for the conversation whose LAST USER MESSAGE contains `key` (text only: an Anthropic user turn
   * of nothing but tool results does not count, so a child keeps its route across tool rounds). Several keys match:
   * the longest wins. A matching request with the route's FIFO empty is answered 500, never from the default FIFO.
   */
  route(key: string, ...responses: ScriptedResponse[]): void;
  /** `enqueue(...script.default)` and `route(key, ...)` for each of `script.routes`. */
  load(script: RoutedScript): void;
  /** The chat requests answered from `key`'s FIFO, in arrival order. */
  requestsFor(key: string): RecordedRequest[];
  /** Chat requests whose response has not ended yet, among those of the given route keys (none given: all of them). */
  inFlight(...keys: string[]): number;
  /** The most chat requests of the given route keys (none given: any) that were ever in flight at once. */
  peakInFlight(...keys: string[]): number;
  /** Resolves once `count` responses (in all, over the server's life) have reached `holdUntil: gate`. */
  held(gate: string, count?: number): Promise<void>;
  /** Lets every response held at `gate`, now or later, go on. */
  release(gate: string): void;
  /** What GET /v1/models/info answers (Umans' capabilities map); undefined: 404, as a vanilla OpenAI server. */
  setModelsInfo(info: Record<string, unknown> | undefined): void;
  /**
   * Resolves once the response to `request` (one of `requests`) is over. `closed_by_client` is the proof that a client
   * abandoned a stream (a cancelled run's fetch): nothing the script still had for it can reach that client.
   */
  responseEnd(request: RecordedRequest): Promise<ResponseEnd>;
  /**
   * Resolves once the response to `request` has sent everything its `hangAfterSteps` script has, and hangs: from then
   * on the stream is idle. Never resolves for a response that does not hang.
   */
  responseStalled(request: RecordedRequest): Promise<void>;
}

export const NO_SCRIPT_LEFT_MESSAGE = 'scripted model server: no scripted response left';
const DELTA_CHARS = 8;

type Dialect = 'openai' | 'anthropic';

export interface ScriptedServerOptions {
  models?: string[];
  /** GET /models/info's map; without it that route is a 404. */
  modelsInfo?: Record<string, unknown>;
  script?: ScriptedResponse[];
  /** Route FIFOs, as `route(key, ...responses)` for each. */
  routes?: Record<string, ScriptedResponse[]>;
  /** Every request without this key is answered 401, as by a server started with one (vLLM's --api-key). */
  requiredKey?: string;
}

export async function startScriptedModelServer(opts: ScriptedServerOptions = {}): Promise<StartedScriptedModelServer> {
  const state = new ServerState(opts.models ?? [], opts.script ?? [], opts.requiredKey);
  state.modelsInfo = opts.modelsInfo;
  for (const [key, responses] of Object.entries(opts.routes ?? {})) state.route(key, responses);
  const server = createServer((req, res) => {
    handleRequest(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `scripted model server failed: ${String(error)}` } });
      else res.destroy();
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    responseEnd: (request) => {
      const end = state.responseEnds.get(request);
      if (!end) throw new Error(`scripted model server: not one of its requests: ${request.method} ${request.path}`);
      return end;
    },
    responseStalled: (request) => {
      const stalled = state.responseStalls.get(request);
      if (!stalled) throw new Error(`scripted model server: not one of its requests: ${request.method} ${request.path}`);
      return stalled;
    },
    enqueue: (...responses) => state.queue.push(...responses),
    route: (key, ...responses) => state.route(key, responses),
    load: (script) => {
      state.queue.push(...script.default);
      for (const [key, responses] of Object.entries(script.routes)) state.route(key, responses);
    },
    requestsFor: (key) => state.requests.filter((r) => r.route === key),
    inFlight: (...keys) => state.flights.current(keys),
    peakInFlight: (...keys) => state.flights.peak(keys),
    held: (gate, count = 1) => state.gate(gate).reached(count),
    release: (gate) => state.gate(gate).open(),
    setModels: (ids) => {
      state.models = [...ids];
    },
    setModelsInfo: (info) => {
      state.modelsInfo = info;
    },
    get pending() {
      return state.queue.length + [...state.routes.values()].reduce((sum, fifo) => sum + fifo.length, 0);
    },
    close: () => closeServer(server, sockets, state),
  };
}

/** The scenario files in test/support/scenarios/<name>.json that are a JSON array of ScriptedResponse (the default FIFO only). */
export function loadScenario(name: string): ScriptedResponse[] {
  const parsed = readScenarioFile(name);
  if (!isResponseList(parsed)) throw new Error(`scenario ${name} must be a JSON array of scripted responses`);
  return parsed;
}

/** Any scenario file: a JSON array (the default FIFO), or `{default:[…], routes:{key:[…]}}` for `server.load`. */
export function loadRoutedScenario(name: string): RoutedScript {
  const parsed = readScenarioFile(name);
  if (isResponseList(parsed)) return { default: parsed, routes: {} };
  const { default: fifo = [], routes = {} } = (parsed ?? {}) as { default?: unknown; routes?: unknown };
  const routeLists = typeof routes === 'object' && routes !== null && !Array.isArray(routes) ? Object.values(routes) : [undefined];
  if (!isResponseList(fifo) || !routeLists.every(isResponseList)) {
    throw new Error(`scenario ${name} must be a JSON array, or {default:[…], routes:{key:[…]}}, of scripted responses`);
  }
  return { default: fifo, routes: routes as Record<string, ScriptedResponse[]> };
}

function readScenarioFile(name: string): unknown {
  if (!/^[\w-]+$/.test(name)) throw new Error(`invalid scenario name: ${name}`);
  return JSON.parse(readFileSync(join(__dirname, 'scenarios', `${name}.json`), 'utf8'));
}

function isResponseList(value: unknown): value is ScriptedResponse[] {
  return Array.isArray(value) && value.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r));
}

/** When each routed chat request started and ended, so a test can ask how many overlapped without any timing. */
class FlightLog {
  private readonly log: { route: string | undefined; delta: 1 | -1 }[] = [];

  start(route: string | undefined): () => void {
    this.log.push({ route, delta: 1 });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.log.push({ route, delta: -1 });
    };
  }

  current(keys: string[]): number {
    return this.replay(keys).current;
  }

  peak(keys: string[]): number {
    return this.replay(keys).peak;
  }

  private replay(keys: string[]): { current: number; peak: number } {
    let current = 0;
    let peak = 0;
    for (const entry of this.log) {
      if (keys.length > 0 && (entry.route === undefined || !keys.includes(entry.route))) continue;
      current += entry.delta;
      peak = Math.max(peak, current);
    }
    return { current, peak };
  }
}

/** A named gate responses wait at (`holdUntil`) until the test opens it. */
class Gate {
  private arrivals = 0;
  private isOpen = false;
  private readonly openers: (() => void)[] = [];
  private readonly watchers: { count: number; resolve: () => void }[] = [];

  /** Resolves when the gate opens (at once if it is open). */
  pass(): Promise<void> {
    this.arrivals++;
    for (const watcher of this.watchers.filter((w) => w.count <= this.arrivals)) {
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
    if (this.isOpen) return Promise.resolve();
    return new Promise((resolve) => this.openers.push(resolve));
  }

  reached(count: number): Promise<void> {
    if (this.arrivals >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  open(): void {
    this.isOpen = true;
    for (const resolve of this.openers.splice(0)) resolve();
  }
}

class ServerState {
  readonly requests: RecordedRequest[] = [];
  readonly responseEnds = new WeakMap<RecordedRequest, Promise<ResponseEnd>>();
  readonly responseStalls = new WeakMap<RecordedRequest, Promise<void>>();
  /** Responses whose socket a `cut` step destroyed. */
  readonly cut = new WeakSet<ServerResponse>();
  readonly routes = new Map<string, ScriptedResponse[]>();
  readonly flights = new FlightLog();
  private readonly gates = new Map<string, Gate>();
  modelsInfo: Record<string, unknown> | undefined;
  closed = false;
  private readonly timers = new Map<NodeJS.Timeout, () => void>();

  constructor(
    public models: string[],
    public readonly queue: ScriptedResponse[],
    public readonly requiredKey: string | undefined,
  ) {}

  route(key: string, responses: ScriptedResponse[]): void {
    if (key === '') throw new Error('scripted model server: a route key must not be empty');
    const fifo = this.routes.get(key) ?? [];
    fifo.push(...responses);
    this.routes.set(key, fifo);
  }

  /** The longest route key the last user message contains, if any. */
  routeFor(body: unknown): string | undefined {
    const text = lastUserText(body);
    if (text === undefined) return undefined;
    let best: string | undefined;
    for (const key of this.routes.keys()) if (text.includes(key) && (best === undefined || key.length > best.length)) best = key;
    return best;
  }

  gate(name: string): Gate {
    const gate = this.gates.get(name) ?? new Gate();
    this.gates.set(name, gate);
    return gate;
  }

  /** A pause that close() cuts short, so a scripted delay never keeps the test process alive. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.set(timer, resolve);
    });
  }

  close(): void {
    this.closed = true;
    for (const [timer, resolve] of this.timers) {
      clearTimeout(timer);
      resolve();
    }
    this.timers.clear();
  }
}

async function handleRequest(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Listening before the body is read, so a client that leaves at once is seen too.
  let over = false;
  const closed = new Promise<void>((resolve) => res.once('close', resolve)).then(() => {
    over = true;
  });
  const end = closed.then(() => endOf(state, res));
  const recorded = await recordRequest(req);
  state.responseEnds.set(recorded, end);
  let stalled: () => void = () => undefined;
  state.responseStalls.set(recorded, new Promise<void>((resolve) => (stalled = resolve)));
  state.requests.push(recorded);
  const path = recorded.path.split('?')[0].replace(/\/+$/, '');
  if (state.requiredKey !== undefined && recorded.apiKey !== state.requiredKey) {
    return sendJson(
      res,
      401,
      errorBody(
        dialectOfPath(path) ?? ('anthropic-version' in recorded.headers ? 'anthropic' : 'openai'),
        401,
        'invalid or missing API key',
      ),
    );
  }
  if (recorded.method === 'GET' && path.endsWith('/models/info') && state.modelsInfo) return sendJson(res, 200, state.modelsInfo);
  if (recorded.method === 'GET' && path.endsWith('/models')) {
    return sendJson(res, 200, modelList(state.models, 'anthropic-version' in recorded.headers));
  }
  const dialect = recorded.method === 'POST' ? dialectOfPath(path) : undefined;
  if (!dialect) return sendJson(res, 404, { error: { message: `scripted model server: no route for ${recorded.method} ${path}` } });
  const route = state.routeFor(recorded.body);
  recorded.route = route;
  void closed.then(state.flights.start(route));
  const scripted = route === undefined ? state.queue.shift() : state.routes.get(route)?.shift();
  if (!scripted) {
    const message = route === undefined ? NO_SCRIPT_LEFT_MESSAGE : `${NO_SCRIPT_LEFT_MESSAGE} for route ${JSON.stringify(route)}`;
    return sendJson(res, 500, errorBody(dialect, 500, message));
  }
  if (scripted.holdUntil !== undefined) {
    await Promise.race([state.gate(scripted.holdUntil).pass(), closed]);
    if (state.closed || over) return;
  }
  await respond(state, dialect, scripted, modelOf(recorded.body), res, stalled);
}

/**
 * The text of the last user message, in either dialect: a string content, or its text parts. Tool results are not
 * user messages (OpenAI's role `tool`; an Anthropic user turn holding only tool_result blocks is skipped).
 */
function lastUserText(body: unknown): string | undefined {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: unknown; content?: unknown } | null;
    if (message?.role !== 'user') continue;
    const text = textOf(message.content);
    if (text !== undefined) return text;
  }
  return undefined;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part: { type?: unknown; text?: unknown } | null) =>
    part?.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function endOf(state: ServerState, res: ServerResponse): ResponseEnd {
  if (res.writableFinished) return 'completed';
  if (state.cut.has(res)) return 'cut_by_script';
  return state.closed ? 'closed_by_server' : 'closed_by_client';
}

function dialectOfPath(path: string): Dialect | undefined {
  if (path.endsWith('/chat/completions')) return 'openai';
  if (path.endsWith('/messages')) return 'anthropic';
  return undefined;
}

async function respond(
  state: ServerState,
  dialect: Dialect,
  scripted: ScriptedResponse,
  model: string,
  res: ServerResponse,
  onHang: () => void,
): Promise<void> {
  const status = scripted.status ?? 200;
  if (status !== 200) {
    const headers: Record<string, string> = {
      ...scripted.headers,
      ...(scripted.retryAfter === undefined ? {} : { 'retry-after': String(scripted.retryAfter) }),
    };
    return sendJson(res, status, scripted.body ?? errorBody(dialect, status, `scripted error ${status}`), headers);
  }
  if (scripted.body !== undefined && !scripted.steps) return sendJson(res, 200, scripted.body);
  const actions = dialect === 'openai' ? openAiActions(scripted, model) : anthropicActions(scripted, model);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  await play(state, actions, scripted.chunkDelayMs ?? 0, res, onHang);
}

// ---- the stream as a list of actions ------------------------------------------------------------

type Action = { kind: 'write'; data: string } | { kind: 'delay'; ms: number } | { kind: 'cut' } | { kind: 'hang' };

async function play(state: ServerState, actions: Action[], chunkDelayMs: number, res: ServerResponse, onHang: () => void): Promise<void> {
  for (const action of actions) {
    if (state.closed || res.destroyed) return;
    switch (action.kind) {
      case 'delay':
        await state.sleep(action.ms);
        break;
      case 'write':
        if (chunkDelayMs > 0) await state.sleep(chunkDelayMs);
        if (state.closed || res.destroyed) return;
        await new Promise<void>((resolve) => res.write(action.data, () => resolve()));
        break;
      case 'cut':
        state.cut.add(res);
        res.socket?.destroy();
        return;
      case 'hang':
        onHang();
        return; // the response stays open until the client or close() ends it
    }
  }
  res.end();
}

function openAiActions(scripted: ScriptedResponse, model: string): Action[] {
  const id = `chatcmpl-scripted-${Math.random().toString(36).slice(2, 10)}`;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): Action => ({
    kind: 'write',
    data: `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices, ...extra })}\n\n`,
  });
  const delta = (d: Record<string, unknown>) => chunk([{ index: 0, delta: d, finish_reason: null }]);
  const actions: Action[] = [delta({ role: 'assistant', content: '' })];
  let toolIndex = 0;
  for (const step of scripted.steps ?? []) {
    if (step.delayMs) actions.push({ kind: 'delay', ms: step.delayMs });
    for (const piece of pieces(step.reasoning)) actions.push(delta({ reasoning_content: piece }));
    for (const piece of pieces(step.text)) actions.push(delta({ content: piece }));
    if (step.toolCall) {
      const index = toolIndex++;
      const { id: callId, name } = step.toolCall;
      actions.push(delta({ tool_calls: [{ index, id: callId, type: 'function', function: { name, arguments: '' } }] }));
      for (const piece of argumentPieces(step.toolCall.arguments)) {
        actions.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    if (step.cut) actions.push({ kind: 'cut' });
  }
  if (scripted.hangAfterSteps) return [...actions, { kind: 'hang' }];
  const finish = scripted.finish ?? (toolIndex > 0 ? 'tool_calls' : 'stop');
  const usage = scripted.usage ?? { prompt: 0, completion: 0 };
  actions.push(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
  actions.push(
    chunk([], {
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
        prompt_tokens_details: { cached_tokens: usage.cached ?? 0 },
      },
    }),
  );
  actions.push({ kind: 'write', data: 'data: [DONE]\n\n' });
  return actions;
}

const ANTHROPIC_STOP_REASONS: Record<string, string> = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' };

function anthropicActions(scripted: ScriptedResponse, model: string): Action[] {
  const event = (type: string, payload: Record<string, unknown>): Action => ({
    kind: 'write',
    data: `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`,
  });
  const usage = scripted.usage ?? { prompt: 0, completion: 0 };
  const cached = usage.cached ?? 0;
  const written = usage.written ?? 0;
  const actions: Action[] = [
    event('message_start', {
      message: {
        id: `msg_scripted_${Math.random().toString(36).slice(2, 10)}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: Math.max(0, usage.prompt - cached - written),
          cache_read_input_tokens: cached,
          ...(written ? { cache_creation_input_tokens: written } : {}),
          output_tokens: 1,
        },
      },
    }),
    event('ping', {}),
  ];
  let blockIndex = 0;
  let calledTool = false;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    const index = blockIndex++;
    actions.push(event('content_block_start', { index, content_block: start }));
    for (const delta of deltas) actions.push(event('content_block_delta', { index, delta }));
    actions.push(event('content_block_stop', { index }));
  };
  for (const step of scripted.steps ?? []) {
    if (step.delayMs) actions.push({ kind: 'delay', ms: step.delayMs });
    if (step.reasoning) {
      const deltas = pieces(step.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking }));
      block({ type: 'thinking', thinking: '' }, [...deltas, { type: 'signature_delta', signature: 'scripted-signature' }]);
    }
    if (step.text)
      block(
        { type: 'text', text: '' },
        pieces(step.text).map((text) => ({ type: 'text_delta', text })),
      );
    if (step.toolCall) {
      calledTool = true;
      const { id, name } = step.toolCall;
      const deltas = argumentPieces(step.toolCall.arguments).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
      block({ type: 'tool_use', id, name, input: {} }, deltas);
    }
    if (step.cut) actions.push({ kind: 'cut' });
  }
  if (scripted.hangAfterSteps) return [...actions, { kind: 'hang' }];
  const finish = scripted.finish ?? (calledTool ? 'tool_calls' : 'stop');
  actions.push(
    event('message_delta', {
      delta: { stop_reason: ANTHROPIC_STOP_REASONS[finish] ?? finish, stop_sequence: null },
      usage: { output_tokens: usage.completion },
    }),
  );
  actions.push(event('message_stop', {}));
  return actions;
}

/** Text longer than DELTA_CHARS goes out as several deltas (split on code points, never inside a pair). */
function pieces(text: string | undefined): string[] {
  if (!text) return [];
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += DELTA_CHARS) out.push(chars.slice(i, i + DELTA_CHARS).join(''));
  return out;
}

/** Arguments always arrive in at least two fragments when they can be split, as real providers send them. */
function argumentPieces(args: string | object): string[] {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  if (text.length <= DELTA_CHARS) {
    const half = Math.ceil(text.length / 2);
    return [text.slice(0, half), text.slice(half)].filter(Boolean);
  }
  return pieces(text);
}

// ---- plain HTTP --------------------------------------------------------------------------------

async function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
  return { method: req.method ?? 'GET', path: req.url ?? '/', headers, body: parseBody(text), apiKey: bearer ?? headers['x-api-key'] };
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : 'scripted-model';
}

function modelList(ids: string[], anthropicShape: boolean): unknown {
  if (anthropicShape) {
    const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
    return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null };
  }
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })) };
}

function errorBody(dialect: Dialect, status: number, message: string): unknown {
  if (dialect === 'anthropic') return { type: 'error', error: { type: anthropicErrorType(status), message } };
  return { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: status } };
}

function anthropicErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const contentType = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server, sockets: Set<Socket>, state: ServerState): Promise<void> {
  state.close();
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

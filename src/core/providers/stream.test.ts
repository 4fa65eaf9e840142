import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  loadScenario,
  startScriptedModelServer,
  type ScriptedModelServer,
  type StartedScriptedModelServer,
} from '../../../test/support/scriptedModelServer';
import { STREAM_RETRY_REASONS, streamChat } from './stream';
import { ProviderError, type IdleTimerFactory, type ProviderKind, type StreamEvent, type StreamRequest } from './types';

const KEY = 'sk-test-0123456789abcdef';
const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 50 };
const LIVENESS = { timeout: 15_000 };

function request(server: ScriptedModelServer, kind: ProviderKind, overrides: Partial<StreamRequest> = {}): StreamRequest {
  return {
    provider: { name: 'scripted', kind, baseUrl: server.url, apiKey: KEY, headers: {} },
    model: 'test-model',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    idleTimeoutMs: 5_000,
    retry: FAST_RETRY,
    ...overrides,
  };
}

async function collect(req: StreamRequest) {
  const events: StreamEvent[] = [];
  const result = await streamChat(req, (event) => events.push(event));
  return { events, result };
}

function joined(events: StreamEvent[], type: 'text' | 'reasoning'): string {
  return events.flatMap((e) => (e.type === type ? [e.text] : [])).join('');
}

function retries(events: StreamEvent[]) {
  return events.flatMap((e) => (e.type === 'retry' ? [e] : []));
}

/** Idle timers that run out only when the test fires them, so no real timer can time out an attempt. One per attempt. */
function handFiredIdleTimers() {
  const attempts: { armed: boolean; onIdle: () => void }[] = [];
  const factory: IdleTimerFactory = (_timeoutMs, onIdle) => {
    const attempt = { armed: false, onIdle };
    attempts.push(attempt);
    return {
      restart: () => void (attempt.armed = true),
      stop: () => void (attempt.armed = false),
    };
  };
  return {
    factory,
    get made() {
      return attempts.length;
    },
    /** Runs out the idle countdown of attempt `n` (1-based), which must be running. */
    fire(n: number) {
      const attempt = attempts[n - 1];
      assert.ok(attempt?.armed, `attempt ${n} has a running idle countdown`);
      attempt.onIdle();
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to reject');
}

for (const kind of ['openai', 'anthropic'] as const) {
  describe(`streamChat (${kind} dialect)`, () => {
    let server: StartedScriptedModelServer;
    before(async () => {
      server = await startScriptedModelServer();
    });
    after(() => server.close());
    beforeEach(() => {
      server.requests.length = 0;
      assert.equal(server.pending, 0, 'a previous test left scripted responses behind');
    });

    test('streams reasoning then text as several events, in order', async () => {
      server.enqueue({ steps: [{ reasoning: 'Weighing the options first.' }, { text: 'Hello there, general Kenobi!' }] });
      const { events, result } = await collect(request(server, kind));
      const kinds = events.map((e) => e.type);
      assert.ok(kinds.filter((k) => k === 'text').length > 1, 'text arrives in several deltas');
      assert.ok(kinds.lastIndexOf('reasoning') < kinds.indexOf('text'), 'reasoning precedes text');
      assert.equal(joined(events, 'reasoning'), 'Weighing the options first.');
      assert.equal(joined(events, 'text'), 'Hello there, general Kenobi!');
      assert.equal(result.text, 'Hello there, general Kenobi!');
      assert.equal(result.reasoning, 'Weighing the options first.');
      assert.equal(result.finishReason, 'stop');
      assert.deepEqual(result.toolCalls, []);
      assert.ok(result.ttftMs <= result.elapsedMs);
    });

    test('assembles tool calls from streamed fragments', async () => {
      const args = { path: 'src/a.ts', edits: [{ search: 'let x = 1;', replace: 'const x = 1;' }] };
      server.enqueue({
        steps: [
          { text: 'Editing.' },
          { toolCall: { id: 'call_1', name: 'edit', arguments: args } },
          { toolCall: { id: 'call_2', name: 'read_file', arguments: { path: 'b.ts' } } },
        ],
      });
      const { events, result } = await collect(request(server, kind));
      assert.deepEqual(
        events.filter((e) => e.type === 'tool_call_start'),
        [
          { type: 'tool_call_start', index: 0, id: 'call_1' },
          { type: 'tool_call_start', index: 1, id: 'call_2' },
        ],
      );
      assert.deepEqual(
        events.find((e) => e.type === 'tool_call_name'),
        { type: 'tool_call_name', index: 0, name: 'edit' },
      );
      const argFragments = events.flatMap((e) => (e.type === 'tool_call_args' && e.index === 0 ? [e.args] : []));
      assert.ok(argFragments.length > 1, 'arguments arrive in fragments');
      assert.deepEqual(JSON.parse(argFragments.join('')), args);
      assert.equal(result.toolCalls.length, 2);
      assert.equal(result.toolCalls[0].id, 'call_1');
      assert.equal(result.toolCalls[0].name, 'edit');
      assert.deepEqual(JSON.parse(result.toolCalls[0].arguments), args);
      assert.deepEqual(result.toolCalls[1], { id: 'call_2', name: 'read_file', arguments: '{"path":"b.ts"}' });
      assert.equal(result.finishReason, 'tool_calls');
    });

    test('reports usage with cached prompt tokens', async () => {
      server.enqueue({ steps: [{ text: 'ok' }], usage: { prompt: 1200, completion: 34, cached: 1000 } });
      const { result } = await collect(request(server, kind));
      assert.deepEqual(result.usage, { promptTokens: 1200, completionTokens: 34, cachedTokens: 1000 });
    });

    test('retries a 429, honouring Retry-After, then succeeds', async () => {
      server.enqueue({ status: 429, retryAfter: 0 }, { steps: [{ text: 'second time lucky' }] });
      const { events, result } = await collect(request(server, kind));
      const [retry, ...more] = retries(events);
      assert.equal(more.length, 0);
      assert.equal(retry.attempt, 1);
      assert.equal(retry.status, 429);
      assert.equal(retry.backoffMs, 0, 'Retry-After: 0 is honoured');
      assert.equal(retry.discardPartial, false);
      assert.match(retry.reason, /429/);
      assert.equal(retry.detail, undefined, 'a refused request is not a failed stream');
      assert.equal(result.text, 'second time lucky');
      assert.equal(server.requests.length, 2);
    });

    test('retries a 504 with backoff', async () => {
      server.enqueue({ status: 504 }, { status: 504 }, { steps: [{ text: 'gateway recovered' }] });
      const { events, result } = await collect(request(server, kind));
      assert.deepEqual(
        retries(events).map((r) => [r.attempt, r.status]),
        [
          [1, 504],
          [2, 504],
        ],
      );
      for (const r of retries(events)) assert.ok(r.backoffMs >= 0 && r.backoffMs <= FAST_RETRY.maxDelayMs);
      assert.equal(result.text, 'gateway recovered');
    });

    test('a stream cut mid-answer is retried from scratch with discardPartial', async () => {
      server.enqueue({ steps: [{ text: 'This partial answer will be' }, { cut: true }] }, { steps: [{ text: 'The full answer.' }] });
      const { events, result } = await collect(request(server, kind));
      const retryAt = events.findIndex((e) => e.type === 'retry');
      assert.ok(retryAt > 0, 'output was shown before the retry');
      const retry = retries(events)[0];
      assert.equal(retry.discardPartial, true);
      assert.equal(retry.status, undefined, 'a dropped stream has no HTTP status');
      assert.equal(retry.reason, STREAM_RETRY_REASONS.afterOutput, "upstream's words");
      assert.match(retry.detail ?? '', /ended before completion|lost mid-stream/, 'ours, for the user');
      assert.equal(joined(events.slice(0, retryAt), 'text'), 'This partial answer will be');
      assert.equal(joined(events.slice(retryAt), 'text'), 'The full answer.');
      assert.equal(result.text, 'The full answer.');
    });

    test("a stream cut before any output is retried with nothing to discard, in upstream's words", async () => {
      server.enqueue({ steps: [{ cut: true }] }, { steps: [{ text: 'second try' }] });
      const { events, result } = await collect(request(server, kind));
      const [retry, ...more] = retries(events);
      assert.equal(more.length, 0);
      assert.deepEqual([retry.reason, retry.discardPartial], [STREAM_RETRY_REASONS.beforeOutput, false]);
      assert.ok(retry.detail, 'our own words come along');
      assert.equal(result.text, 'second try');
    });

    test('a stalled stream is abandoned once its idle timeout runs out, and retried', LIVENESS, async () => {
      server.enqueue({ steps: [{ text: 'stalling…' }], hangAfterSteps: true }, { steps: [{ text: 'awake again' }] });
      const idle = handFiredIdleTimers();
      const events: StreamEvent[] = [];
      let partialShown: () => void = () => undefined;
      const shown = new Promise<void>((resolve) => (partialShown = resolve));
      const pending = streamChat(request(server, kind, { idleTimeoutMs: 300, idleTimer: idle.factory }), (event) => {
        events.push(event);
        if (joined(events, 'text') === 'stalling…') partialShown();
      });
      await shown;
      await server.responseStalled(server.requests[0]);
      idle.fire(1);
      const result = await pending;
      const [retry, ...more] = retries(events);
      assert.ok(retry, 'a retry event was emitted');
      assert.equal(more.length, 0);
      assert.equal(retry.reason, STREAM_RETRY_REASONS.afterOutput);
      assert.match(retry.detail ?? '', /no data .* 300 ms/);
      assert.equal(retry.discardPartial, true);
      assert.equal(await server.responseEnd(server.requests[0]), 'closed_by_client', 'the stalled stream was abandoned');
      assert.equal(result.text, 'awake again');
      assert.equal(idle.made, 2, 'the retry ran under its own idle timer, which never ran out');
    });

    test('a 401 fails at once as an auth error whose message holds no secret', async () => {
      const echo = `Incorrect API key provided: ${KEY}. Header was Authorization: Bearer ${KEY}`;
      server.enqueue({ status: 401, body: { error: { message: echo, type: 'invalid_request_error' } } });
      const error = await rejection(collect(request(server, kind)));
      assert.equal(error.kind, 'auth');
      assert.equal(error.status, 401);
      assert.equal(error.retryable, false);
      assert.equal(server.requests.length, 1, 'not retried');
      assert.ok(!error.message.includes(KEY), error.message);
      assert.ok(!/Bearer\s+\S/.test(error.message.replace(/Bearer \[REDACTED\]/g, '')), error.message);
      assert.match(error.message, /401/);
      assert.match(error.message, /Incorrect API key provided/);
    });

    test('a 400 is not retried', async () => {
      server.enqueue({ status: 400, body: { error: { message: 'model not supported' } } });
      const error = await rejection(collect(request(server, kind)));
      assert.equal(error.kind, 'http');
      assert.equal(error.status, 400);
      assert.equal(server.requests.length, 1);
    });

    test('aborting during a slow stream rejects promptly with cancelled', LIVENESS, async () => {
      server.enqueue({ steps: [{ text: 'first words' }, { delayMs: 60_000, text: 'never sent' }] });
      const controller = new AbortController();
      const events: StreamEvent[] = [];
      const pending = streamChat(request(server, kind, { signal: controller.signal }), (event) => {
        events.push(event);
        if (event.type === 'text') controller.abort();
      });
      const error = await rejection(pending);
      assert.equal(error.kind, 'cancelled');
      assert.ok(!events.some((e) => e.type === 'retry'));
    });

    test('aborting during a backoff wait rejects with cancelled', LIVENESS, async () => {
      server.enqueue({ status: 429, retryAfter: 60 });
      const controller = new AbortController();
      const pending = streamChat(
        request(server, kind, { signal: controller.signal, retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 120_000 } }),
        (event) => {
          if (event.type === 'retry') {
            assert.equal(event.backoffMs, 60_000);
            controller.abort();
          }
        },
      );
      const error = await rejection(pending);
      assert.equal(error.kind, 'cancelled');
    });

    test('gives up after maxAttempts and throws the last failure', async () => {
      server.enqueue({ status: 500 }, { status: 503 }, { status: 502 });
      const events: StreamEvent[] = [];
      const error = await rejection(streamChat(request(server, kind, { retry: { ...FAST_RETRY, maxAttempts: 3 } }), (e) => events.push(e)));
      assert.equal(error.status, 502);
      assert.equal(retries(events).length, 2);
      assert.equal(server.requests.length, 3);
    });

    test('an empty script answers 500 with a clear message', async () => {
      const error = await rejection(collect(request(server, kind, { retry: { ...FAST_RETRY, maxAttempts: 1 } })));
      assert.equal(error.status, 500);
      assert.match(error.message, /no scripted response left/);
    });

    test('the bundled scenarios play through', async () => {
      server.enqueue(...loadScenario('retry-429-then-ok'), ...loadScenario('drop-mid-stream'));
      const afterRateLimit = await collect(request(server, kind));
      assert.equal(afterRateLimit.result.text, 'Answer after the rate limit passed.');
      assert.equal(retries(afterRateLimit.events)[0].status, 429);
      const afterDrop = await collect(request(server, kind));
      assert.equal(afterDrop.result.text, 'The complete answer after the drop.');
      assert.equal(retries(afterDrop.events)[0].discardPartial, true);
      server.enqueue(...loadScenario('tool-edit'));
      const edit = await collect(request(server, kind));
      assert.equal(edit.result.toolCalls[0].name, 'edit');
      assert.equal(JSON.parse(edit.result.toolCalls[0].arguments).path, 'hello.txt');
      assert.equal((await collect(request(server, kind))).result.text, 'Done: hello.txt now says "hello, world".');
    });

    test('a JSON body on a 200 is a bad response, not retried', async () => {
      server.enqueue({ body: { error: { message: 'proxy says no' } } });
      const error = await rejection(collect(request(server, kind)));
      assert.equal(error.kind, 'bad_response');
      assert.match(error.message, /proxy says no/);
      assert.equal(server.requests.length, 1);
    });
  });
}

describe('streamChat request shapes', () => {
  let server: ScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const tools = [
    { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  ];

  test('openai: bearer key, provider headers, stream options, tools, reasoning_effort, no replayed reasoning', async () => {
    server.enqueue({ steps: [{ text: 'ok' }] });
    const req = request(server, 'openai', {
      tools,
      reasoningEffort: 'high',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', reasoning_content: 'private thoughts' },
        { role: 'user', content: 'again' },
      ],
    });
    req.provider.headers = { 'X-Title': 'catalyst' };
    await collect(req);
    const [recorded] = server.requests;
    assert.equal(recorded.path, '/v1/chat/completions');
    assert.equal(recorded.headers.authorization, `Bearer ${KEY}`);
    assert.equal(recorded.headers['x-title'], 'catalyst');
    const body = recorded.body as Record<string, any>;
    assert.equal(body.model, 'test-model');
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.reasoning_effort, 'high');
    assert.deepEqual(body.tools, [{ type: 'function', function: tools[0] }]);
    assert.deepEqual(body.messages[2], { role: 'assistant', content: 'hello' });
    assert.equal(body.messages.length, 4);
  });

  test('openai: no tools key when there are no tools, no auth header without a key', async () => {
    server.enqueue({ steps: [{ text: 'ok' }] });
    const req = request(server, 'openai');
    delete req.provider.apiKey;
    await collect(req);
    const body = server.requests[0].body as Record<string, unknown>;
    assert.equal('tools' in body, false);
    assert.equal('reasoning_effort' in body, false);
    assert.equal(server.requests[0].headers.authorization, undefined);
  });

  test('anthropic: x-api-key, version header, system, converted history, tools and thinking budget', async () => {
    server.enqueue({ steps: [{ text: 'ok' }] });
    const req = request(server, 'anthropic', {
      tools,
      reasoningEffort: 'medium',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'read a.ts' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'export {}' },
        { role: 'assistant', content: 'It is empty.' },
        { role: 'user', content: 'thanks' },
      ],
    });
    await collect(req);
    const [recorded] = server.requests;
    assert.equal(recorded.path, '/v1/messages');
    assert.equal(recorded.headers['x-api-key'], KEY);
    assert.equal(recorded.headers['anthropic-version'], '2023-06-01');
    assert.equal(recorded.headers.authorization, undefined);
    const body = recorded.body as Record<string, any>;
    assert.equal(body.system, 'be brief');
    assert.equal(body.stream, true);
    assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 8192 });
    assert.ok(body.max_tokens > 8192);
    assert.deepEqual(body.tools, [{ name: 'read_file', description: 'Read a file', input_schema: tools[0].parameters }]);
    assert.deepEqual(body.messages, [
      { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It is empty.' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
  });
});

describe('streamChat network failures', () => {
  test('a refused connection is retried, then reported as a network error', LIVENESS, async () => {
    const server = await startScriptedModelServer();
    await server.close();
    const events: StreamEvent[] = [];
    const error = await rejection(
      streamChat(request(server, 'openai', { retry: { ...FAST_RETRY, maxAttempts: 2 } }), (e) => events.push(e)),
    );
    assert.equal(error.kind, 'network');
    assert.match(error.message, /network error contacting scripted/);
    assert.deepEqual(
      retries(events).map((r) => [r.status, r.discardPartial]),
      [[undefined, false]],
    );
  });

  test('a server that never answers times out as idle, is retried, then reported', LIVENESS, async () => {
    const silent = createServer(() => undefined);
    const sockets = new Set<Socket>();
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const req: StreamRequest = {
        provider: { name: 'silent', kind: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, headers: {} },
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: new AbortController().signal,
        idleTimeoutMs: 200,
        retry: { ...FAST_RETRY, maxAttempts: 2 },
      };
      const events: StreamEvent[] = [];
      const error = await rejection(streamChat(req, (e) => events.push(e)));
      assert.equal(error.kind, 'idle_timeout');
      assert.equal(retries(events).length, 1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('an already aborted signal rejects without a request', async () => {
    const server = await startScriptedModelServer();
    try {
      const controller = new AbortController();
      controller.abort();
      const error = await rejection(collect(request(server, 'openai', { signal: controller.signal })));
      assert.equal(error.kind, 'cancelled');
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});

import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadRoutedScenario,
  loadScenario,
  NO_SCRIPT_LEFT_MESSAGE,
  startScriptedModelServer,
  type StartedScriptedModelServer,
} from './scriptedModelServer';

interface SseEvent {
  event?: string;
  data: string;
}

/** Minimal SSE split for checking the wire format the server writes (blank-line separated events). */
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return { event, data };
    });
}

async function post(server: StartedScriptedModelServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('scripted model server', () => {
  let server: StartedScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer({ models: ['m-1', 'm-2'] });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  test('OpenAI SSE: role chunk, split deltas, tool call fragments, finish, usage, [DONE]', async () => {
    server.enqueue({
      steps: [
        { reasoning: 'short' },
        { text: 'Hello from the scripted model' },
        { toolCall: { id: 'c1', name: 'bash', arguments: { command: 'ls -la' } } },
      ],
      usage: { prompt: 11, completion: 5, cached: 3 },
    });
    const res = await post(server, '/chat/completions', { model: 'm-1', messages: [] }, { authorization: 'Bearer the-key' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const events = parseSse(await res.text());
    assert.equal(events[events.length - 1].data, '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.equal(chunks[0].model, 'm-1');
    const contents = chunks.flatMap((c) => (c.choices[0]?.delta?.content ? [c.choices[0].delta.content] : []));
    assert.ok(contents.length > 1);
    assert.equal(contents.join(''), 'Hello from the scripted model');
    assert.equal(chunks.find((c) => c.choices[0]?.delta?.reasoning_content)?.choices[0].delta.reasoning_content, 'short');
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    assert.equal(toolDeltas[0].id, 'c1');
    assert.equal(toolDeltas[0].function.name, 'bash');
    assert.ok(toolDeltas.length > 2, 'arguments come in several fragments');
    assert.deepEqual(JSON.parse(toolDeltas.map((d: any) => d.function.arguments).join('')), { command: 'ls -la' });
    assert.equal(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls');
    assert.deepEqual(chunks[chunks.length - 1].usage, {
      prompt_tokens: 11,
      completion_tokens: 5,
      total_tokens: 16,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    assert.equal(server.requests[0].apiKey, 'the-key');
    assert.deepEqual(server.requests[0].body, { model: 'm-1', messages: [] });
  });

  test('Anthropic SSE: message_start, content blocks with deltas, message_delta, message_stop', async () => {
    server.enqueue({
      steps: [
        { reasoning: 'think' },
        { text: 'Answer text here' },
        { toolCall: { id: 'tu1', name: 'glob', arguments: '{"pattern":"*.md"}' } },
      ],
      usage: { prompt: 20, completion: 7, cached: 15 },
    });
    const res = await post(server, '/messages', { model: 'claude-x', messages: [] }, { 'x-api-key': 'ant-key' });
    const events = parseSse(await res.text());
    const types = events.map((e) => e.event);
    assert.equal(types[0], 'message_start');
    assert.deepEqual(types.slice(-2), ['message_delta', 'message_stop']);
    for (const e of events) assert.equal(JSON.parse(e.data).type, e.event);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => JSON.parse(e.data).content_block);
    assert.deepEqual(
      starts.map((b) => b.type),
      ['thinking', 'text', 'tool_use'],
    );
    assert.deepEqual([starts[2].id, starts[2].name], ['tu1', 'glob']);
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse(e.data).delta);
    assert.equal(
      deltas
        .filter((d) => d.type === 'text_delta')
        .map((d) => d.text)
        .join(''),
      'Answer text here',
    );
    assert.equal(
      deltas
        .filter((d) => d.type === 'input_json_delta')
        .map((d) => d.partial_json)
        .join(''),
      '{"pattern":"*.md"}',
    );
    const start = JSON.parse(events[0].data);
    assert.deepEqual(start.message.usage, { input_tokens: 5, cache_read_input_tokens: 15, output_tokens: 1 });
    const messageDelta = JSON.parse(events[events.length - 2].data);
    assert.deepEqual(messageDelta.delta.stop_reason, 'tool_use');
    assert.deepEqual(messageDelta.usage, { output_tokens: 7 });
    assert.equal(server.requests[0].apiKey, 'ant-key');
  });

  test('error responses carry the status, body and Retry-After', async () => {
    server.enqueue({ status: 429, retryAfter: 7 }, { status: 503, body: { error: { message: 'custom' } } });
    const first = await post(server, '/chat/completions', {});
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '7');
    assert.match(((await first.json()) as { error: { message: string } }).error.message, /429/);
    const second = await post(server, '/messages', {});
    assert.equal(second.status, 503);
    assert.deepEqual(await second.json(), { error: { message: 'custom' } });
  });

  test('an empty queue answers 500 with a clear message instead of hanging', async () => {
    const res = await post(server, '/chat/completions', {});
    assert.equal(res.status, 500);
    assert.match(await res.text(), new RegExp(NO_SCRIPT_LEFT_MESSAGE));
  });

  test('a cut step destroys the connection mid-stream', async () => {
    server.enqueue({ steps: [{ text: 'partial' }, { cut: true }] });
    const res = await post(server, '/chat/completions', {});
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
    assert.equal(await server.responseEnd(server.requests[0]), 'cut_by_script');
  });

  test('responseEnd tells a finished response from one the client abandoned mid-delay', async () => {
    server.enqueue({ steps: [{ text: 'all of it' }] }, { steps: [{ text: 'first ' }, { delayMs: 60_000 }, { text: 'never sent' }] });
    await (await post(server, '/chat/completions', {})).text();
    assert.equal(await server.responseEnd(server.requests[0]), 'completed');
    const client = new AbortController();
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}', signal: client.signal });
    const reader = res.body!.getReader();
    await reader.read();
    client.abort();
    assert.equal(await server.responseEnd(server.requests[1]), 'closed_by_client');
    assert.throws(() => server.responseEnd({ ...server.requests[1] }), /not one of its requests/);
  });

  test('responseStalled resolves once a hanging stream has sent all its steps', async () => {
    server.enqueue({ steps: [{ text: 'everything before the stall' }], hangAfterSteps: true });
    const client = new AbortController();
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}', signal: client.signal });
    await server.responseStalled(server.requests[0]);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const text = (sse: string) => [...sse.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
    let received = '';
    while (text(received) !== 'everything before the stall') {
      const chunk = await reader.read();
      assert.equal(chunk.done, false, `the stream ended early after ${JSON.stringify(received)}`);
      received += decoder.decode(chunk.value, { stream: true });
    }
    client.abort();
    assert.equal(await server.responseEnd(server.requests[0]), 'closed_by_client', 'it hung until the client left');
  });

  test('GET /models lists ids in OpenAI shape, or Anthropic shape when asked the Anthropic way', async () => {
    server.setModels(['x', 'y']);
    const openai = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    assert.deepEqual(
      openai.data.map((m: { id: string }) => m.id),
      ['x', 'y'],
    );
    const anthropic = (await (await fetch(`${server.url}/models`, { headers: { 'anthropic-version': '2023-06-01' } })).json()) as {
      data: unknown[];
      has_more: boolean;
    };
    assert.deepEqual(anthropic.data[0], { type: 'model', id: 'x', display_name: 'x', created_at: '2025-01-01T00:00:00Z' });
    assert.equal(anthropic.has_more, false);
    server.setModels(['m-1', 'm-2']);
  });

  test('GET /models/info answers the map it was given, and 404 without one', async () => {
    assert.equal((await fetch(`${server.url}/models/info`)).status, 404);
    const info = { 'm-1': { display_name: 'Model One', capabilities: { context_window: 1000 } } };
    server.setModelsInfo(info);
    assert.deepEqual(await (await fetch(`${server.url}/models/info`)).json(), info);
    server.setModelsInfo(undefined);
  });

  test('unknown routes answer 404', async () => {
    const res = await post(server, '/completions', {});
    assert.equal(res.status, 404);
  });
});

/** The text an OpenAI SSE answer streamed. */
const streamedText = (sse: string) =>
  parseSse(sse)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => JSON.parse(e.data).choices[0]?.delta?.content ?? '')
    .join('');

describe('scripted model server routing', { timeout: 10_000 }, () => {
  let server: StartedScriptedModelServer;
  before(async () => {
    server = await startScriptedModelServer({ routes: { '[child-B]': [{ steps: [{ text: 'from B' }] }] } });
  });
  after(() => server.close());

  const chat = async (messages: unknown[]) => (await post(server, '/chat/completions', { model: 'm', messages })).text();

  test('a request whose last user message holds the key takes from its route, the others from the default FIFO', async () => {
    server.enqueue({ steps: [{ text: 'default 1' }] }, { steps: [{ text: 'default 2' }] });
    server.route('[child-A]', { steps: [{ text: 'A 1' }] }, { steps: [{ text: 'A 2' }] });
    const toolRound = [
      { role: 'system', content: 'you are [child-A]' },
      { role: 'user', content: 'Task:\n[child-A] read it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'the file' },
    ];
    assert.equal(streamedText(await chat([{ role: 'user', content: 'parent prompt' }])), 'default 1');
    assert.equal(streamedText(await chat(toolRound.slice(0, 2))), 'A 1');
    assert.equal(streamedText(await chat(toolRound)), 'A 2', 'a tool result is not a user message');
    assert.equal(streamedText(await chat([{ role: 'user', content: [{ type: 'text', text: '[child-B] as parts' }] }])), 'from B');
    const keyEarlier = [...toolRound, { role: 'user', content: 'Orchestrator: steer' }];
    assert.equal(streamedText(await chat(keyEarlier)), 'default 2', 'only the LAST user message counts');
    assert.deepEqual(
      server.requestsFor('[child-A]').map((r) => r.body.messages.length),
      [2, 4],
    );
    assert.deepEqual(
      server.requests.map((r) => r.route),
      [undefined, '[child-A]', '[child-A]', '[child-B]', undefined],
    );
    assert.equal(server.pending, 0);
  });

  test('Anthropic requests route by the last user turn with text; a turn of only tool results is skipped', async () => {
    server.route('[child-C]', { steps: [{ text: 'C 1' }] }, { steps: [{ text: 'C 2' }] });
    const messages = [
      { role: 'user', content: [{ type: 'text', text: '[child-C] list it' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'list_dir', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'mentions [child-B] in output' }] },
    ];
    const answer = async (body: unknown) => {
      const events = parseSse(await (await post(server, '/messages', body)).text());
      return events
        .filter((e) => e.event === 'content_block_delta')
        .map((e) => JSON.parse(e.data).delta.text)
        .join('');
    };
    assert.equal(await answer({ model: 'claude', messages: messages.slice(0, 1) }), 'C 1');
    assert.equal(await answer({ model: 'claude', messages }), 'C 2');
    assert.equal(server.requestsFor('[child-C]').length, 2);
  });

  test('the longest matching key wins; an exhausted route answers 500 and leaves the default FIFO alone', async () => {
    server.route('[w]', { steps: [{ text: 'short key' }] });
    server.route('[w]-2', { steps: [{ text: 'long key' }] });
    server.enqueue({ steps: [{ text: 'still queued' }] });
    assert.equal(streamedText(await chat([{ role: 'user', content: 'task [w]-2' }])), 'long key');
    assert.equal(streamedText(await chat([{ role: 'user', content: 'task [w]' }])), 'short key');
    const exhausted = await post(server, '/chat/completions', { messages: [{ role: 'user', content: 'again [w]' }] });
    assert.equal(exhausted.status, 500);
    assert.match(await exhausted.text(), /no scripted response left for route \\"\[w\]\\"/);
    assert.equal(server.pending, 1);
    assert.equal(streamedText(await chat([{ role: 'user', content: 'plain' }])), 'still queued');
  });

  test('holdUntil keeps responses in flight until released; inFlight and peakInFlight count them per route', async () => {
    server.route('[p-1]', { holdUntil: 'fan', steps: [{ text: 'one' }] });
    server.route('[p-2]', { holdUntil: 'fan', steps: [{ text: 'two' }] });
    server.route('[p-3]', { steps: [{ text: 'three' }] });
    const first = chat([{ role: 'user', content: '[p-1]' }]);
    const second = chat([{ role: 'user', content: '[p-2]' }]);
    await server.held('fan', 2);
    assert.equal(server.inFlight('[p-1]', '[p-2]', '[p-3]'), 2);
    assert.equal(server.inFlight('[p-1]'), 1);
    assert.equal(streamedText(await chat([{ role: 'user', content: '[p-3]' }])), 'three', 'a request without a gate is not held');
    assert.equal(server.peakInFlight('[p-1]', '[p-2]', '[p-3]'), 3);
    server.release('fan');
    assert.deepEqual((await Promise.all([first, second])).map(streamedText), ['one', 'two']);
    await Promise.all(
      server
        .requestsFor('[p-1]')
        .concat(server.requestsFor('[p-2]'))
        .map((r) => server.responseEnd(r)),
    );
    assert.equal(server.inFlight('[p-1]', '[p-2]', '[p-3]'), 0);
    assert.equal(server.peakInFlight('[p-1]', '[p-2]'), 2);
    assert.equal(server.peakInFlight('[p-3]'), 1);
  });

  test('a held response the client abandons ends closed_by_client and leaves the flight count', async () => {
    server.route('[gone]', { holdUntil: 'never-opened', steps: [{ text: 'unsent' }] });
    const client = new AbortController();
    const pending = fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: '[gone]' }] }),
      signal: client.signal,
    }).catch((error: unknown) => error);
    await server.held('never-opened');
    assert.equal(server.inFlight('[gone]'), 1);
    client.abort();
    await pending;
    assert.equal(await server.responseEnd(server.requestsFor('[gone]')[0]), 'closed_by_client');
    assert.equal(server.inFlight('[gone]'), 0);
  });
});

describe('scripted model server lifecycle', () => {
  test('close() ends a hanging stream and pending delays', { timeout: 10_000 }, async () => {
    const server = await startScriptedModelServer({
      script: [{ steps: [{ text: 'hi' }], hangAfterSteps: true }, { steps: [{ delayMs: 60_000, text: 'late' }] }],
    });
    const hanging = await post(server, '/chat/completions', {});
    const delayed = await post(server, '/chat/completions', {});
    const bodies = Promise.allSettled([hanging.text(), delayed.text()]);
    await server.close();
    const settled = await bodies;
    assert.ok(settled.every((s) => s.status === 'rejected'));
    assert.deepEqual(await Promise.all(server.requests.map((r) => server.responseEnd(r))), ['closed_by_server', 'closed_by_server']);
  });
});

describe('loadScenario', () => {
  test('loads every bundled scenario as a list of scripted responses', () => {
    const plain = loadScenario('plain-answer');
    assert.equal(plain.length, 1);
    assert.ok(plain[0].steps?.some((s) => s.text));
    const toolEdit = loadScenario('tool-edit');
    assert.equal(toolEdit[0].steps?.find((s) => s.toolCall)?.toolCall?.name, 'edit');
    assert.deepEqual(
      loadScenario('retry-429-then-ok').map((r) => r.status ?? 200),
      [429, 200],
    );
    assert.ok(loadScenario('drop-mid-stream')[0].steps?.some((s) => s.cut));
  });

  test('a routed scenario file loads into the default FIFO and the routes', async () => {
    const script = loadRoutedScenario('subagent-single');
    assert.ok(script.default.length > 0);
    const [key] = Object.keys(script.routes);
    assert.ok(key);
    assert.deepEqual(loadRoutedScenario('plain-answer'), { default: loadScenario('plain-answer'), routes: {} });
    assert.throws(() => loadScenario('subagent-single'), /must be a JSON array/);
    const server = await startScriptedModelServer();
    server.load(script);
    assert.equal(server.pending, script.default.length + script.routes[key].length);
    await server.close();
  });

  test('rejects names that are not plain file names', () => {
    assert.throws(() => loadScenario('../secrets'), /invalid scenario name/);
  });
});

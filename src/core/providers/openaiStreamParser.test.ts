import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAiStreamParser } from './openaiStreamParser';
import { StreamAccumulator } from './streamAccumulator';
import { ProviderError, type StreamEvent } from './types';

function setup() {
  const events: StreamEvent[] = [];
  const accumulator = new StreamAccumulator(
    (e) => events.push(e),
    () => 0,
  );
  const parser = new OpenAiStreamParser({ accumulator, providerName: 'p', secrets: ['SECRET'] });
  const feed = (chunk: unknown) => parser.onMessage({ data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk) });
  return { events, accumulator, parser, feed };
}

const delta = (d: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

describe('OpenAiStreamParser', () => {
  test('reads DeepSeek reasoning_content and OpenRouter reasoning', () => {
    const { accumulator, feed } = setup();
    feed(delta({ reasoning_content: 'a' }));
    feed(delta({ reasoning: 'b' }));
    feed(delta({ content: 'c' }));
    assert.equal(accumulator.result().reasoning, 'ab');
    assert.equal(accumulator.result().text, 'c');
  });

  test('[DONE] completes; a finish_reason alone allows a clean close', () => {
    const { parser, feed } = setup();
    assert.equal(parser.completeWithoutMarker, false);
    feed(delta({}, 'stop'));
    assert.equal(parser.complete, false);
    assert.equal(parser.completeWithoutMarker, true);
    feed('[DONE]');
    assert.equal(parser.complete, true);
  });

  test('tool-call deltas without index or id continue the open call; a repeated name is not doubled', () => {
    const { accumulator, feed, events } = setup();
    feed(delta({ tool_calls: [{ id: 'x1', function: { name: 'grep', arguments: '{"pat' } }] }));
    feed(delta({ tool_calls: [{ function: { name: 'grep', arguments: 'tern":"a"}' } }] }));
    feed(delta({ tool_calls: [{ id: 'x2', function: { name: 'glob', arguments: { pattern: '*.ts' } } }] }));
    assert.deepEqual(accumulator.result().toolCalls, [
      { id: 'x1', name: 'grep', arguments: '{"pattern":"a"}' },
      { id: 'x2', name: 'glob', arguments: '{"pattern":"*.ts"}' },
    ]);
    assert.equal(events.filter((e) => e.type === 'tool_call_name').length, 2);
  });

  test('a call without an id gets a synthetic one; a call without arguments gets {}', () => {
    const { accumulator, feed } = setup();
    feed(delta({ tool_calls: [{ index: 0, function: { name: 'todo_read' } }] }));
    const [call] = accumulator.result().toolCalls;
    assert.match(call.id, /^call_0_/);
    assert.equal(call.arguments, '{}');
  });

  test('usage arrives in a chunk without choices; DeepSeek cache hits are read too', () => {
    const { accumulator, feed } = setup();
    feed({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 3, prompt_cache_hit_tokens: 8 } });
    assert.deepEqual(accumulator.result().usage, { promptTokens: 10, completionTokens: 3, cachedTokens: 8 });
  });

  test('an in-stream error with an HTTP code becomes that status, redacted', () => {
    const { feed } = setup();
    assert.throws(
      () => feed({ error: { code: 502, message: 'upstream died, key SECRET' } }),
      (e: unknown) => e instanceof ProviderError && e.status === 502 && e.retryable && !e.message.includes('SECRET'),
    );
  });

  test('an unparsable chunk is a bad response', () => {
    const { feed } = setup();
    assert.throws(
      () => feed('{"choices": ['),
      (e: unknown) => e instanceof ProviderError && e.kind === 'bad_response' && !e.retryable,
    );
  });
});

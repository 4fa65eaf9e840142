import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AnthropicStreamParser } from './anthropicStreamParser';
import { StreamAccumulator } from './streamAccumulator';
import { ProviderError } from './types';

function setup() {
  const accumulator = new StreamAccumulator(
    () => undefined,
    () => 0,
  );
  const parser = new AnthropicStreamParser({ accumulator, providerName: 'claude', secrets: [] });
  const feed = (event: Record<string, unknown>) => parser.onMessage({ event: String(event.type), data: JSON.stringify(event) });
  return { accumulator, parser, feed };
}

describe('AnthropicStreamParser', () => {
  test('maps tool_use blocks to tool indexes in order, skipping other blocks', () => {
    const { accumulator, feed } = setup();
    feed({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } });
    feed({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } });
    feed({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu_a', name: 'read_file', input: {} } });
    feed({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'tu_b', name: 'glob', input: {} } });
    feed({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"pattern":"*"}' } });
    feed({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' } });
    feed({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } });
    const result = accumulator.result();
    assert.equal(result.reasoning, 'hmm');
    assert.deepEqual(result.toolCalls, [
      { id: 'tu_a', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'tu_b', name: 'glob', arguments: '{"pattern":"*"}' },
    ]);
    assert.equal(result.finishReason, 'tool_calls');
  });

  test('a tool input given whole in content_block_start is used when no deltas follow', () => {
    const { accumulator, feed } = setup();
    feed({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'tu', name: 'bash', input: { command: 'ls' } } });
    feed({ type: 'content_block_stop', index: 0 });
    assert.equal(accumulator.result().toolCalls[0].arguments, '{"command":"ls"}');
  });

  test('prompt tokens add cache reads and writes to uncached input; the writes are counted apart (they cost more)', () => {
    const { accumulator, feed } = setup();
    feed({
      type: 'message_start',
      message: { usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 1 } },
    });
    feed({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } });
    assert.deepEqual(accumulator.result().usage, { promptTokens: 115, completionTokens: 42, cachedTokens: 100, cacheWriteTokens: 5 });
    assert.equal(accumulator.result().finishReason, 'stop');
  });

  test('only message_stop completes the stream', () => {
    const { parser, feed } = setup();
    feed({ type: 'message_delta', delta: { stop_reason: 'end_turn' } });
    assert.equal(parser.complete || parser.completeWithoutMarker, false);
    feed({ type: 'message_stop' });
    assert.equal(parser.complete, true);
  });

  test('error events map to statuses: overloaded is retryable, invalid request is not', () => {
    const { feed } = setup();
    assert.throws(
      () => feed({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      (e: unknown) => e instanceof ProviderError && e.status === 529 && e.retryable,
    );
    assert.throws(
      () => feed({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }),
      (e: unknown) => e instanceof ProviderError && e.status === 400 && !e.retryable,
    );
  });
});

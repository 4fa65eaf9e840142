import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, buildAnthropicRequest, thinkingBudget } from './anthropicRequest';
import type { StreamRequest } from './types';

function req(overrides: Partial<StreamRequest> = {}): StreamRequest {
  return {
    provider: { name: 'claude', kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1/', apiKey: 'k', headers: {} },
    model: 'claude-sonnet-4-5',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    idleTimeoutMs: 0,
    ...overrides,
  };
}

const body = (r: StreamRequest) => buildAnthropicRequest(r).body as Record<string, any>;

describe('buildAnthropicRequest', () => {
  test('posts to {baseUrl}/messages with the default max_tokens and no thinking', () => {
    const spec = buildAnthropicRequest(req());
    assert.equal(spec.url, 'https://api.anthropic.com/v1/messages');
    assert.equal((spec.body as any).max_tokens, ANTHROPIC_DEFAULT_MAX_TOKENS);
    assert.equal('thinking' in (spec.body as object), false);
  });

  test('thinking budgets per effort, and off for none', () => {
    assert.equal(thinkingBudget('low'), 2048);
    assert.equal(thinkingBudget('medium'), 8192);
    assert.equal(thinkingBudget('HIGH'), 16384);
    assert.equal(thinkingBudget('none'), undefined);
    assert.equal(thinkingBudget(undefined), undefined);
  });

  test('max_tokens is raised above the thinking budget', () => {
    const b = body(req({ reasoningEffort: 'high', maxTokens: 4096 }));
    assert.deepEqual(b.thinking, { type: 'enabled', budget_tokens: 16384 });
    assert.ok(b.max_tokens > 16384);
    assert.equal(body(req({ reasoningEffort: 'low', maxTokens: 32000 })).max_tokens, 32000);
  });

  test('thinking stays off while a tool loop is unfinished (no signed thinking block to replay)', () => {
    const midLoop = req({
      reasoningEffort: 'high',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 't1', content: 'ok' },
      ],
    });
    assert.equal('thinking' in body(midLoop), false);
    midLoop.messages.push({ role: 'assistant', content: 'done' }, { role: 'user', content: 'next' });
    assert.deepEqual(body(midLoop).thinking, { type: 'enabled', budget_tokens: 16384 });
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { findPreset, PROVIDER_PRESETS } from './presets';
import { isProviderParseError, parseProvider, providerFromPreset, providerToJson, type ProviderConfig } from './providers';

function ok(raw: unknown): ProviderConfig {
  const p = parseProvider(raw);
  if (isProviderParseError(p)) assert.fail(p.error);
  return p;
}

describe('parseProvider', () => {
  test('snake_case with every field', () => {
    const p = ok({
      name: 'lab',
      base_url: 'http://127.0.0.1:8080/v1/',
      kind: 'openai',
      api_key: 'sk-1',
      api_key_env: 'LAB_KEY',
      headers: { 'HTTP-Referer': 'x', Bad: 3 },
      context_window: 32768,
      models_endpoint: ' /api/models ',
      models_override: {
        'm-1': { context_window: 1000, max_tokens: 100, reasoning: true, thinking_levels: ['low', 'high'] },
        'm-empty': {},
      },
    });
    assert.deepEqual(p, {
      name: 'lab',
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: 'sk-1',
      apiKeyEnv: 'LAB_KEY',
      headers: { 'HTTP-Referer': 'x' },
      contextWindow: 32768,
      modelsEndpoint: '/api/models',
      modelsOverride: [{ id: 'm-1', context_window: 1000, max_tokens: 100, reasoning: true, thinking_levels: ['low', 'high'] }],
    });
  });

  test('camelCase keys, kind "claude", headers as [[k,v]], models_override as an array', () => {
    const p = ok({
      name: 'ant',
      baseUrl: 'https://api.anthropic.com/v1',
      kind: 'Claude',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      contextWindow: 200000,
      headers: [['anthropic-beta', 'x'], { name: 'X-Other', value: 'y' }, ['broken']],
      modelsOverride: [{ id: 'claude-x', maxTokens: 64000, thinkingLevels: [] }, { context_window: 5 }],
      modelsEndpoint: '/v1/models',
    });
    assert.equal(p.kind, 'anthropic');
    assert.equal(p.baseUrl, 'https://api.anthropic.com/v1');
    assert.equal(p.apiKeyEnv, 'ANTHROPIC_API_KEY');
    assert.equal(p.contextWindow, 200000);
    assert.deepEqual(p.headers, { 'anthropic-beta': 'x', 'X-Other': 'y' });
    assert.deepEqual(p.modelsOverride, [{ id: 'claude-x', max_tokens: 64000, thinking_levels: [] }]);
    assert.equal(p.modelsEndpoint, '/v1/models');
  });

  test('kind defaults to openai; anthropic is case-insensitive; unknown kinds are openai as upstream', () => {
    assert.equal(ok({ name: 'a', base_url: 'http://h' }).kind, 'openai');
    assert.equal(ok({ name: 'a', base_url: 'http://h', kind: 'ANTHROPIC' }).kind, 'anthropic');
    assert.equal(ok({ name: 'a', base_url: 'http://h', kind: 'gemini' }).kind, 'openai');
  });

  test('errors name what is wrong', () => {
    const err = (raw: unknown) => {
      const r = parseProvider(raw);
      assert.ok(isProviderParseError(r), `expected an error for ${JSON.stringify(raw)}`);
      return r.error;
    };
    assert.match(err(null), /JSON object/);
    assert.match(err([]), /JSON object/);
    assert.match(err({ base_url: 'http://h' }), /name/);
    assert.match(err({ name: '  ', base_url: 'http://h' }), /name/);
    assert.match(err({ name: 'x' }), /base_url/);
    assert.match(err({ name: 'x', base_url: 'ftp://h' }), /http\(s\)/);
    assert.match(err({ name: 'x', base_url: 'localhost:11434' }), /http\(s\)/);
  });

  test('does not let a header named __proto__ reach the prototype', () => {
    const p = ok(JSON.parse('{"name":"x","base_url":"http://h","headers":{"__proto__":"v","ok":"1"}}'));
    assert.deepEqual(Object.keys(p.headers), ['ok']);
    assert.equal(Object.getPrototypeOf(p.headers), Object.prototype);
  });
});

describe('presets', () => {
  test('the four upstream presets with their URLs and env vars', () => {
    assert.deepEqual(
      PROVIDER_PRESETS.map((p) => [p.id, p.baseUrl, p.envVar]),
      [
        ['umans', 'https://api.code.umans.ai/v1', 'UMANS_API_KEY'],
        ['opencode-go', 'https://opencode.ai/zen/go/v1', 'OPENCODE_GO_API_KEY'],
        ['openrouter', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'],
        ['deepseek', 'https://api.deepseek.com', 'DEEPSEEK_API_KEY'],
      ],
    );
    assert.equal(findPreset('nope'), undefined);
  });

  test('providerFromPreset stores a given key literally, else only the env var name', () => {
    const umans = findPreset('umans')!;
    assert.deepEqual(providerFromPreset(umans, 'sk-u'), [
      { name: 'umans', kind: 'openai', baseUrl: umans.baseUrl, apiKey: 'sk-u', headers: {} },
    ]);
    assert.deepEqual(providerFromPreset(umans), [
      { name: 'umans', kind: 'openai', baseUrl: umans.baseUrl, apiKeyEnv: 'UMANS_API_KEY', headers: {} },
    ]);
  });

  test('opencode-go expands to an openai and an anthropic provider sharing URL and key', () => {
    const list = providerFromPreset(findPreset('opencode-go')!, 'sk-o');
    assert.deepEqual(
      list.map((p) => [p.name, p.kind, p.baseUrl, p.apiKey]),
      [
        ['opencode-go', 'openai', 'https://opencode.ai/zen/go/v1', 'sk-o'],
        ['opencode-go-anthropic', 'anthropic', 'https://opencode.ai/zen/go/v1', 'sk-o'],
      ],
    );
  });
});

describe('providerToJson', () => {
  test('writes snake_case, omits unset fields, and parses back to the same provider', () => {
    const p = ok({
      name: 'lab',
      base_url: 'http://h/v1',
      api_key_env: 'K',
      headers: { a: 'b' },
      models_override: [{ id: 'm', reasoning: false }],
    });
    const json = providerToJson(p);
    assert.deepEqual(json, {
      name: 'lab',
      kind: 'openai',
      base_url: 'http://h/v1',
      api_key_env: 'K',
      headers: { a: 'b' },
      models_override: [{ id: 'm', reasoning: false }],
    });
    assert.deepEqual(ok(json), p);
  });
});

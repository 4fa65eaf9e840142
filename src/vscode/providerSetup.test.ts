import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { providersForPreset, secretKeyFor, validateBaseUrl, validateProviderName } from './providerSetup';

describe('providersForPreset', () => {
  test('one provider per preset, with its kind', () => {
    assert.deepEqual(providersForPreset({ id: 'openrouter', base_url: 'https://openrouter.ai/api/v1', kind: 'openai' }), [
      { name: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', kind: 'openai' },
    ]);
  });

  test('OpenCode Go also gets its Anthropic endpoint, the primary one last (it becomes active)', () => {
    const setups = providersForPreset({ id: 'opencode-go', base_url: 'https://opencode.ai/zen/go/v1', kind: 'openai' });
    assert.deepEqual(setups.map((s) => [s.name, s.kind]), [['opencode-go-anthropic', 'anthropic'], ['opencode-go', 'openai']]);
  });
});

describe('validateBaseUrl', () => {
  test('accepts http and https', () => {
    assert.equal(validateBaseUrl('http://127.0.0.1:11434/v1'), undefined);
    assert.equal(validateBaseUrl(' https://api.example.com/v1 '), undefined);
  });

  test('rejects empty, non-URLs, other schemes and credentials in the URL', () => {
    for (const bad of ['', 'localhost:11434', 'ftp://x', 'file:///etc', 'javascript:alert(1)', 'https://user:pw@host/v1']) {
      assert.equal(typeof validateBaseUrl(bad), 'string', bad);
    }
  });
});

describe('validateProviderName', () => {
  test('accepts short names; rejects empty, spaces, slashes and presets', () => {
    assert.equal(validateProviderName('ollama'), undefined);
    assert.equal(validateProviderName('lm-studio_2.0'), undefined);
    for (const bad of ['', ' ', 'my provider', '../x', '-x', 'x'.repeat(65)]) assert.equal(typeof validateProviderName(bad), 'string', bad);
    assert.match(validateProviderName('openrouter', ['openrouter']) ?? '', /preset/);
  });
});

describe('secretKeyFor', () => {
  test('namespaces the provider', () => {
    assert.equal(secretKeyFor('ollama'), 'catalystCode.apiKey.ollama');
  });
});

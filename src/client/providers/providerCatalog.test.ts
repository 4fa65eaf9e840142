import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderCatalog } from './providerCatalog';

const PRESET = {
  id: 'openrouter',
  label: 'OpenRouter',
  kind: 'openai',
  base_url: 'https://openrouter.ai/api/v1',
  envVar: 'OPENROUTER_API_KEY',
  description: '',
  hasKey: false,
  configured: false,
  loggedIn: false,
};

describe('ProviderCatalog', () => {
  test('ready sets the providers (the active one included) and the presets', () => {
    const c = new ProviderCatalog();
    c.observe({ type: 'ready', providers: ['local', 7], provider: 'scripted', providerPresets: [PRESET, { id: 3 }, null] });
    assert.deepEqual(c.providers.sort(), ['local', 'scripted']);
    assert.deepEqual(
      c.presets.map((p) => p.id),
      ['openrouter'],
    );
  });

  test('a later ready replaces what an earlier core said', () => {
    const c = new ProviderCatalog();
    c.observe({ type: 'ready', providers: ['old'] });
    c.observe({ type: 'ready', providers: ['new'] });
    assert.deepEqual(c.providers, ['new']);
  });

  test('provider_changed, models_refreshed and provider_presets add to it', () => {
    const c = new ProviderCatalog();
    c.observe({ type: 'ready' });
    c.observe({ type: 'provider_changed', provider: 'ollama' });
    c.observe({ type: 'models_refreshed', providers: { 'opencode-go': ['a'], 'opencode-go-anthropic': ['b'] } });
    c.observe({ type: 'provider_presets', presets: [PRESET] });
    c.observe({ type: 'delta', text: 'ignored' });
    assert.deepEqual(c.providers.sort(), ['ollama', 'opencode-go', 'opencode-go-anthropic']);
    assert.equal(c.presets.length, 1);
  });

  test('family: a provider and the ones its preset expanded into', () => {
    const c = new ProviderCatalog();
    c.observe({ type: 'ready', providers: ['opencode-go', 'opencode-go-anthropic', 'opencode', 'local'] });
    assert.deepEqual(c.family('opencode-go').sort(), ['opencode-go', 'opencode-go-anthropic']);
    assert.deepEqual(c.family('local'), ['local']);
  });

  test('bare upstream-style events do not throw', () => {
    const c = new ProviderCatalog();
    for (const type of ['ready', 'provider_presets', 'provider_changed', 'models_refreshed']) c.observe({ type });
    assert.deepEqual(c.providers, []);
  });
});

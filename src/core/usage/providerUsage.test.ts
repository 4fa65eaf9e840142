import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedProvider } from '../providers/types';
import { fetchProviderUsage } from './providerUsage';

const provider = (name: string, baseUrl: string, extra: Partial<ResolvedProvider> = {}): ResolvedProvider => ({
  name,
  kind: 'openai',
  baseUrl,
  headers: {},
  ...extra,
});

test('providers without a usage endpoint answer upstream’s messages without a request', async () => {
  const cases: [ResolvedProvider, string][] = [
    [provider('umans', 'https://api.code.umans.ai/v1'), 'Umans is not authenticated — run /login.'],
    [provider('gem', 'https://generativelanguage.googleapis.com/v1beta', { apiKey: 'k' }), 'Google Gemini does not expose'],
    [provider('opencode-go', 'https://opencode.ai/zen/go/v1', { apiKey: 'k' }), 'OpenCode Go does not expose'],
    [provider('claude', 'https://api.anthropic.com', { kind: 'anthropic', apiKey: 'k' }), 'Anthropic API-key mode'],
    [provider('local', 'http://127.0.0.1:9/v1'), 'Provider `local` does not publish usage stats for /usage.'],
  ];
  for (const [p, message] of cases) {
    const usage = await fetchProviderUsage(p);
    assert.equal(usage.available, false, p.name);
    assert.ok(usage.message?.startsWith(message), `${p.name}: ${usage.message}`);
    assert.deepEqual(usage.windows, []);
  }
});

test('an unreachable gateway with a key is probed and reported as publishing no usage, without the key', async () => {
  const usage = await fetchProviderUsage(provider('gw', 'http://127.0.0.1:9/v1', { apiKey: 'sk-SECRET-1' }), 2000);
  assert.equal(usage.available, false);
  assert.equal(usage.message, 'Provider `gw` does not publish usage stats for /usage.');
  assert.ok(!JSON.stringify(usage).includes('SECRET'));
});

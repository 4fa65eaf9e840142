import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedProvider } from '../providers/types';
import { startUsageEndpointStandIn } from '../../../test/support/usageEndpointStandIn';
import {
  ANTHROPIC_USAGE_URL_ENV,
  USAGE_TIMEOUT_ENV,
  USAGE_TIMEOUT_MS,
  XAI_BILLING_URL_ENV,
  codexBackendApi,
  fetchProviderUsage,
  usageTimeoutFrom,
} from './providerUsage';

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
  const usage = await fetchProviderUsage(provider('gw', 'http://127.0.0.1:9/v1', { apiKey: 'sk-SECRET-1' }), { timeoutMs: 2000 });
  assert.equal(usage.available, false);
  assert.equal(usage.message, 'Provider `gw` does not publish usage stats for /usage.');
  assert.ok(!JSON.stringify(usage).includes('SECRET'));
});

test('the base of a ChatGPT Codex provider gives its backend-api; other bases give none', () => {
  assert.equal(codexBackendApi('https://chatgpt.com/backend-api/codex'), 'https://chatgpt.com/backend-api');
  assert.equal(codexBackendApi('https://chatgpt.com/backend-api/codex/'), 'https://chatgpt.com/backend-api');
  assert.equal(codexBackendApi('https://chat.openai.com/backend-api'), 'https://chat.openai.com/backend-api');
  assert.equal(codexBackendApi('http://127.0.0.1:8080/backend-api/codex'), 'http://127.0.0.1:8080/backend-api');
  assert.equal(codexBackendApi('https://api.openai.com/v1'), undefined);
  assert.equal(codexBackendApi('http://127.0.0.1:8080/backend-api/other'), undefined);
  assert.equal(codexBackendApi('not a url'), undefined);
});

test('Codex: wham/usage with the OAuth bearer and the provider’s headers', async () => {
  const standIn = await startUsageEndpointStandIn();
  try {
    standIn.answer({ json: { plan_type: 'pro', rate_limit: { primary_window: { used_percent: 5, limit_window_seconds: 18000 } } } });
    const p = provider('codex', `${standIn.origin}/backend-api/codex`, {
      headers: { 'chatgpt-account-id': 'acct-1' },
      authorize: async () => [['Authorization', 'Bearer tok-SECRET-2']],
    });
    const usage = await fetchProviderUsage(p);
    assert.deepEqual(usage, { available: true, plan: 'pro', windows: [{ id: 'five_hour', label: '5-hour', unit: 'percent', used: 5 }] });
    assert.equal(standIn.requests.length, 1);
    assert.equal(standIn.requests[0].path, '/backend-api/wham/usage');
    assert.equal(standIn.requests[0].headers.authorization, 'Bearer tok-SECRET-2');
    assert.equal(standIn.requests[0].headers['chatgpt-account-id'], 'acct-1');
  } finally {
    await standIn.close();
  }
});

test('Anthropic OAuth: oauth/usage with the token and the OAuth beta header, at the overridable host', async () => {
  const standIn = await startUsageEndpointStandIn();
  try {
    standIn.answer({ json: { five_hour: { utilization: 20, resets_at: '2030-01-01T00:00:00Z' } } });
    const p = provider('claude-max', standIn.origin, {
      kind: 'anthropic',
      authorize: async () => [['authorization', 'Bearer oat-SECRET-3']],
    });
    const env = { [ANTHROPIC_USAGE_URL_ENV]: `${standIn.origin}/api/oauth/usage` };
    const usage = await fetchProviderUsage(p, { env });
    assert.deepEqual(usage.windows, [{ id: 'five_hour', label: '5-hour', unit: 'percent', used: 20, resets_at: 1893456000 }]);
    assert.equal(standIn.requests[0].path, '/api/oauth/usage');
    assert.equal(standIn.requests[0].headers.authorization, 'Bearer oat-SECRET-3');
    assert.equal(standIn.requests[0].headers['anthropic-beta'], 'oauth-2025-04-20');
  } finally {
    await standIn.close();
  }
});

test('the token is never sent to a usage host that does not serve the provider', async () => {
  const standIn = await startUsageEndpointStandIn();
  try {
    let asked = 0;
    const authorize = async (): Promise<Array<[string, string]>> => {
      asked++;
      return [['authorization', 'Bearer oat-SECRET-4']];
    };
    const claude = provider('claude-proxy', 'https://claude-proxy.example', { kind: 'anthropic', authorize });
    const usage = await fetchProviderUsage(claude, { env: { [ANTHROPIC_USAGE_URL_ENV]: `${standIn.origin}/api/oauth/usage` } });
    assert.equal(usage.available, false);
    assert.match(usage.message ?? '', /only asked of the provider's own host/);
    const xai = provider('xai', 'https://xai-proxy.example/v1', { apiKey: 'xai-SECRET-5' });
    const x = await fetchProviderUsage(xai, { env: { [XAI_BILLING_URL_ENV]: `${standIn.origin}/v1/billing?format=credits` } });
    assert.equal(x.available, false);
    assert.match(x.message ?? '', /only asked of xAI's own hosts/);
    assert.equal(standIn.requests.length, 0);
    assert.equal(asked, 0);
    assert.ok(!JSON.stringify([usage, x]).includes('SECRET'));
  } finally {
    await standIn.close();
  }
});

test('xAI: billing with the key as bearer; a hanging endpoint times out into available:false', async () => {
  const standIn = await startUsageEndpointStandIn();
  try {
    const p = provider('xai', standIn.url, { apiKey: 'xai-SECRET-6' });
    const env = { [XAI_BILLING_URL_ENV]: `${standIn.origin}/v1/billing?format=credits` };
    standIn.answer({ json: { creditUsagePercent: 10, currentPeriod: { end: 1893456000 } } });
    const usage = await fetchProviderUsage(p, { env });
    assert.deepEqual(usage.windows, [{ id: 'weekly', label: 'Weekly usage', unit: 'percent', used: 10, resets_at: 1893456000 }]);
    assert.equal(standIn.requests[0].path, '/v1/billing?format=credits');
    assert.equal(standIn.requests[0].headers.authorization, 'Bearer xai-SECRET-6');
    standIn.answer('hang');
    const late = await fetchProviderUsage(p, { env, timeoutMs: 300 });
    assert.deepEqual(late, { available: false, message: 'Could not reach xAI billing — check your network and API key.', windows: [] });
  } finally {
    await standIn.close();
  }
});

test('$CATALYST_CODE_USAGE_TIMEOUT_MS sets the limit when it is a positive integer; anything else keeps 10 s', () => {
  assert.equal(usageTimeoutFrom({ [USAGE_TIMEOUT_ENV]: '750' }), 750);
  for (const raw of [undefined, '', '0', '-5', '1.5', '10s', 'abc']) {
    assert.equal(usageTimeoutFrom({ [USAGE_TIMEOUT_ENV]: raw }), USAGE_TIMEOUT_MS, `${raw}`);
  }
});

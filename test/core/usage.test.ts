import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, TEST_KEY, type Scenario } from '../support/coreScenario';
import { script, tempDir, writePlugin } from '../support/pluginFixtures';
import { GATEWAY_MODEL, startUsageEndpointStandIn, type UsageEndpointStandIn } from '../support/usageEndpointStandIn';

const UMANS_SHAPED = {
  plan: { display_name: 'Pro', slug: 'pro' },
  message: 'fair use applies',
  usage: { concurrent_sessions: 2, requests_in_window: 120, tokens_in: 15000, tokens_out: 2500 },
  limits: { concurrency: { limit: 4 }, requests: { limit: 1000 } },
  window: { resets_at: 1893456000, remaining_minutes: 125 },
};

/** A core whose active provider is the usage stand-in (its only model is GATEWAY_MODEL). */
async function withGateway(
  run: (s: Scenario, gateway: UsageEndpointStandIn) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const gateway = await startUsageEndpointStandIn();
  const s = await startScenario({
    env,
    providers: (modelUrl) => [
      { name: 'gateway', kind: 'openai', base_url: gateway.url, api_key: TEST_KEY },
      { name: 'scripted', kind: 'openai', base_url: modelUrl, api_key: 'sk-other' },
    ],
  });
  try {
    await s.core.untilModelListed(GATEWAY_MODEL); // usage without a model names the active provider's first model
    await run(s, gateway);
  } finally {
    await s.close();
    await gateway.close();
  }
}

async function usageOf(s: Scenario, command: Record<string, unknown> = {}): Promise<any> {
  const from = s.core.events.length;
  s.core.send({ type: 'usage', ...command });
  return s.core.waitForType('usage', { from, timeoutMs: 20000 });
}

test('usage reads a gateway’s Umans-shaped /usage into plan and windows, with the key as bearer', async () => {
  await withGateway(async (s, gateway) => {
    gateway.answer({ json: UMANS_SHAPED });
    const usage = await usageOf(s);
    assert.equal(usage.provider, 'gateway');
    assert.equal(usage.provider_kind, 'openai');
    assert.equal(usage.model, GATEWAY_MODEL);
    assert.equal(usage.base_url, gateway.url);
    assert.equal(usage.available, true);
    assert.equal(usage.plan, 'Pro');
    assert.equal(usage.message, 'fair use applies');
    assert.deepEqual(usage.windows, [
      { id: 'concurrency', label: 'Concurrency', unit: 'sessions', used: 2, limit: 4 },
      {
        id: 'requests',
        label: 'Requests (window)',
        unit: 'requests',
        used: 120,
        limit: 1000,
        resets_at: 1893456000,
        detail: 'resets in 2h 5m',
      },
      { id: 'tokens', label: 'Tokens (session window)', unit: 'tokens', used: 17500, detail: 'in 15.0k / out 2.5k' },
    ]);
    const asked = gateway.requests.filter((r) => r.path === '/v1/usage');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].headers.authorization, `Bearer ${TEST_KEY}`);
    assert.ok(!s.core.rawStdout.join('\n').includes('SECRETMARKER'), 'the key never comes back');
  });
});

test('usage{model} asks the provider that serves that model', async () => {
  await withGateway(async (s, gateway) => {
    gateway.answer({ json: UMANS_SHAPED });
    const usage = await usageOf(s, { model: 'test-model' });
    assert.equal(usage.provider, 'scripted');
    assert.equal(usage.model, 'test-model');
    assert.equal(usage.available, false);
    assert.equal(usage.message, 'Provider `scripted` does not publish usage stats for /usage.');
    assert.deepEqual(usage.windows, []);
    assert.equal(gateway.requests.filter((r) => r.path === '/v1/usage').length, 0, 'the gateway was not asked');
  });
});

test('a provider without a usage endpoint answers available:false with upstream’s message', async () => {
  await withGateway(async (s, gateway) => {
    gateway.answer({ status: 404 });
    const usage = await usageOf(s);
    assert.equal(usage.available, false);
    assert.equal(usage.message, 'Provider `gateway` does not publish usage stats for /usage.');
    assert.deepEqual(usage.windows, []);
  });
});

test('an Anthropic-kind provider with an API key has no usage endpoint: the console message, no request', async () => {
  const s = await startScenario({ kind: 'anthropic' });
  try {
    const usage = await usageOf(s);
    assert.equal(usage.provider_kind, 'anthropic');
    assert.equal(usage.available, false);
    assert.match(usage.message, /Anthropic API-key mode has no account usage endpoint\..*console\.anthropic\.com/);
    assert.equal(s.model.requests.filter((r) => r.path.endsWith('/usage')).length, 0);
  } finally {
    await s.close();
  }
});

/** The core's usage limit in the hanging-endpoint case, set low so the test does not wait out upstream's 10 s. */
const HANG_LIMIT_MS = 1000;

test('a usage endpoint that fails or never answers gives available:false, and other commands do not wait for it', async () => {
  await withGateway(
    async (s, gateway) => {
      gateway.answer({ status: 500 });
      const failed = await usageOf(s);
      assert.equal(failed.available, false);
      assert.match(failed.message, /does not publish usage stats/);

      gateway.answer('hang');
      const probes = gateway.requests.length;
      const from = s.core.events.length;
      const sentAt = Date.now();
      s.core.send({ type: 'usage' });
      s.core.send({ type: 'stats' });
      const stats = await s.core.waitForType('stats', { from });
      const timedOut = await s.core.waitForType('usage', { from });
      assert.ok(s.core.events.indexOf(stats) < s.core.events.indexOf(timedOut), 'stats answered while usage waited');
      assert.deepEqual(
        gateway.requests.slice(probes).map((r) => r.path),
        ['/v1/usage'],
        'the usage request reached the hanging endpoint',
      );
      assert.ok(Date.now() - sentAt >= HANG_LIMIT_MS, 'the answer came only once the limit had passed');
      assert.equal(timedOut.available, false);
      assert.match(timedOut.message, /does not publish usage stats/);
      assert.deepEqual(timedOut.windows, []);
    },
    { CATALYST_CODE_USAGE_TIMEOUT_MS: String(HANG_LIMIT_MS) },
  );
});

test('a 429 with a long Retry-After ends the turn at once with "rate limited until" and its time', async () => {
  const s = await startScenario({ script: [{ status: 429, retryAfter: 600 }] });
  try {
    const sentAt = Date.now();
    const events = await s.turn('hi');
    const error = events.find((e) => e.type === 'error');
    assert.equal(error.code, 'provider_error');
    assert.match(error.message, /^HTTP 429 from scripted.* — rate limited until \d\d:\d\d \(in 10m\)$/);
    const until = error.rate_limited_until * 1000;
    assert.ok(until >= sentAt + 599_000 && until <= Date.now() + 601_000, `until ${until}, sent ${sentAt}`);
    const clock = new Date(until);
    const hhmm = `${String(clock.getHours()).padStart(2, '0')}:${String(clock.getMinutes()).padStart(2, '0')}`;
    assert.ok(error.message.includes(`until ${hhmm} `), `${error.message} names ${hhmm}`);
    assert.equal(events.filter((e) => e.type === 'http_retry').length, 0, 'no retry can succeed before then');
    assert.equal(s.model.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1);
    assert.equal(events.at(-1).type, 'done');
  } finally {
    await s.close();
  }
});

test('a 429 without Retry-After says until when from the x-ratelimit-reset headers', async () => {
  const s = await startScenario({
    script: [{ status: 429, headers: { 'x-ratelimit-reset-requests': '1m30s', 'x-ratelimit-reset-tokens': '20m0s' } }],
  });
  try {
    const sentAt = Date.now();
    const events = await s.turn('hi');
    const error = events.find((e) => e.type === 'error');
    assert.match(error.message, / — rate limited until \d\d:\d\d \(in 20m\)$/);
    assert.ok(error.rate_limited_until * 1000 >= sentAt + 1_199_000, 'the later of the two resets');
    assert.equal(s.model.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1);
  } finally {
    await s.close();
  }
});

test('usage of a ChatGPT Codex provider reads wham/usage into plan, named percent windows and credits', async () => {
  const standIn = await startUsageEndpointStandIn();
  const s = await startScenario({
    providers: () => [
      {
        name: 'codex',
        kind: 'openai',
        base_url: `${standIn.origin}/backend-api/codex`,
        api_key: TEST_KEY,
        headers: { 'chatgpt-account-id': 'acct-7' },
      },
    ],
  });
  try {
    standIn.answer({
      json: {
        plan_type: 'plus',
        rate_limit: {
          primary_window: { used_percent: 12.5, limit_window_seconds: 18000, reset_at: 1893456000 },
          secondary_window: { used_percent: 40, limit_window_seconds: 604800, reset_at: 1893900000 },
        },
        credits: { has_credits: true, unlimited: false, balance: '17.25' },
      },
    });
    const usage = await usageOf(s);
    assert.equal(usage.provider, 'codex');
    assert.equal(usage.available, true);
    assert.equal(usage.plan, 'plus');
    assert.deepEqual(usage.windows, [
      { id: 'five_hour', label: '5-hour', unit: 'percent', used: 12.5, resets_at: 1893456000 },
      { id: 'weekly', label: 'Weekly', unit: 'percent', used: 40, resets_at: 1893900000 },
      { id: 'credits', label: 'Credits remaining', unit: 'credits', used: 17.25 },
    ]);
    const asked = standIn.requests.filter((r) => r.path === '/backend-api/wham/usage');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].headers.authorization, `Bearer ${TEST_KEY}`);
    assert.equal(asked[0].headers['chatgpt-account-id'], 'acct-7');
    assert.ok(!s.core.rawStdout.join('\n').includes('SECRETMARKER'), 'the key never comes back');
  } finally {
    await s.close();
    await standIn.close();
  }
});

test('usage of an xAI provider reads the billing endpoint named by CATALYST_CODE_XAI_BILLING_URL', async () => {
  const standIn = await startUsageEndpointStandIn();
  const s = await startScenario({
    env: { CATALYST_CODE_XAI_BILLING_URL: `${standIn.origin}/v1/billing?format=credits` },
    providers: () => [{ name: 'xai', kind: 'openai', base_url: standIn.url, api_key: TEST_KEY }],
  });
  try {
    standIn.answer({
      json: {
        creditUsagePercent: 37.5,
        currentPeriod: { end: '2030-01-05T00:00:00Z' },
        productUsage: [{ product: 'Grok Build', creditUsagePercent: 30 }],
      },
    });
    const usage = await usageOf(s);
    assert.equal(usage.provider, 'xai');
    assert.equal(usage.available, true);
    assert.deepEqual(usage.windows, [
      { id: 'weekly', label: 'Weekly usage', unit: 'percent', used: 37.5, resets_at: 1893801600 },
      { id: 'product_grok_build', label: 'Grok Build', unit: 'percent', used: 30 },
    ]);
    const asked = standIn.requests.filter((r) => r.path === '/v1/billing?format=credits');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].headers.authorization, `Bearer ${TEST_KEY}`);
  } finally {
    await s.close();
    await standIn.close();
  }
});

test('usage of an Anthropic provider logged in by a plugin’s OAuth reads oauth/usage with the token', async () => {
  const standIn = await startUsageEndpointStandIn();
  const s = await startScenario({
    env: { CATALYST_CODE_ANTHROPIC_USAGE_URL: `${standIn.origin}/api/oauth/usage` },
    providers: () => [{ name: 'claude-sub', kind: 'anthropic', base_url: standIn.origin }],
  });
  try {
    const folder = writePlugin(tempDir('usage-oauth-'), 'claude-sub-oauth', {
      manifest: {
        name: 'claude-sub-oauth',
        version: '1.0.0',
        oauth: { provider_id: 'claude-sub', kind: 'anthropic', base_url: standIn.origin, script: 'oauth.js' },
      },
      files: { 'oauth.js': script("answer({ access_token: 'oat-SECRET-usage', expires_at: Math.floor(Date.now() / 1000) + 3600 });") },
    });
    const from = s.core.events.length;
    s.core.send({ type: 'install_plugin', path: folder });
    await s.core.waitForType('plugin_installed', { from });
    standIn.answer({
      json: {
        five_hour: { utilization: 15.0, resets_at: '2030-01-01T05:00:00.570750+00:00' },
        seven_day: { utilization: 48.0, resets_at: '2030-01-05T00:00:00Z' },
        seven_day_opus: null,
        extra_usage: { is_enabled: false },
      },
    });
    const usage = await usageOf(s);
    assert.equal(usage.provider, 'claude-sub');
    assert.equal(usage.provider_kind, 'anthropic');
    assert.equal(usage.available, true);
    assert.deepEqual(usage.windows, [
      { id: 'five_hour', label: '5-hour', unit: 'percent', used: 15, resets_at: 1893474000 },
      { id: 'seven_day', label: 'Weekly', unit: 'percent', used: 48, resets_at: 1893801600 },
    ]);
    const asked = standIn.requests.filter((r) => r.path === '/api/oauth/usage');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].headers.authorization, 'Bearer oat-SECRET-usage');
    assert.equal(asked[0].headers['anthropic-beta'], 'oauth-2025-04-20');
    assert.ok(!s.core.rawStdout.join('\n').includes('oat-SECRET-usage'), 'the token never comes back');
  } finally {
    await s.close();
    await standIn.close();
  }
});

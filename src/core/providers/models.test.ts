import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer, type StartedScriptedModelServer } from '../../../test/support/scriptedModelServer';
import { builtInModels } from './builtInModels';
import { parseModelList } from './modelList';
import { parseModelsInfo } from './modelsInfo';
import { discoverModels } from './models';
import { MODELS_CACHE_VERSION, modelsCacheKey } from './modelsCache';
import { ProviderError, type ProviderKind, type ResolvedProvider } from './types';

const KEY = 'sk-models-key-123456';

describe('discoverModels', () => {
  let server: StartedScriptedModelServer;
  let dir: string;
  let cacheFile: string;
  const provider = (kind: ProviderKind = 'openai'): ResolvedProvider => ({
    name: 'scripted',
    kind,
    baseUrl: server.url,
    apiKey: KEY,
    headers: {},
  });
  const listings = () => server.requests.filter((r) => r.path.startsWith('/v1/models') && !r.path.startsWith('/v1/models/info'));

  beforeEach(async () => {
    server = await startScriptedModelServer({ models: ['alpha', 'beta'] });
    dir = mkdtempSync(join(tmpdir(), 'models-cache-'));
    cacheFile = join(dir, 'sub', 'models-cache.json');
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('asks /models/info first, then lists an OpenAI-shaped /models with the bearer key when that is a 404', async () => {
    const models = await discoverModels(provider());
    assert.deepEqual(models, [
      { id: 'alpha', name: 'alpha', provider: 'scripted' },
      { id: 'beta', name: 'beta', provider: 'scripted' },
    ]);
    assert.deepEqual(
      server.requests.map((r) => [r.path, r.apiKey]),
      [
        ['/v1/models/info', KEY],
        ['/v1/models', KEY],
      ],
    );
  });

  test('a /models/info map answers with its capabilities, and /models is not asked', async () => {
    server.setModelsInfo({
      'umans-glm-5.2': {
        display_name: 'GLM 5.2',
        capabilities: {
          context_window: 413696,
          recommended_max_tokens: 131072,
          supports_vision: 'via-handoff',
          reasoning: { supported: true, levels: ['none', 'high', 'max'] },
        },
      },
      'umans-kimi': {
        display_name: 'Kimi',
        capabilities: { context_window: 262144, supports_vision: true, reasoning: { supported: false, levels: [] } },
      },
    });
    const models = await discoverModels(provider(), { cacheFile });
    assert.deepEqual(models, [
      {
        id: 'umans-glm-5.2',
        name: 'GLM 5.2',
        provider: 'scripted',
        context_window: 413696,
        max_tokens: 131072,
        reasoning: true,
        thinking_levels: ['none', 'high', 'max'],
        vision: false,
      },
      {
        id: 'umans-kimi',
        name: 'Kimi',
        provider: 'scripted',
        context_window: 262144,
        max_tokens: 65000,
        reasoning: false,
        thinking_levels: [],
        vision: true,
      },
    ]);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/v1/models/info'],
    );
    const cached = await discoverModels(provider(), { cacheFile });
    assert.deepEqual(cached, models, 'the cache keeps vision and the thinking levels');
    assert.equal(server.requests.length, 1);
  });

  test('an empty /models/info map falls through to /models; a modelsEndpoint or the Anthropic kind never asks it', async () => {
    server.setModelsInfo({});
    assert.deepEqual(
      (await discoverModels(provider())).map((m) => m.id),
      ['alpha', 'beta'],
    );
    await discoverModels({ ...provider(), modelsEndpoint: '/models?type=chat' });
    await discoverModels(provider('anthropic'));
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/v1/models/info', '/v1/models', '/v1/models?type=chat', '/v1/models?limit=1000'],
    );
  });

  test('lists an Anthropic-shaped /models with x-api-key, version and a large page', async () => {
    const models = await discoverModels(provider('anthropic'));
    assert.deepEqual(
      models.map((m) => m.id),
      ['alpha', 'beta'],
    );
    const [request] = server.requests;
    assert.equal(server.requests.length, 1);
    assert.equal(request.path, '/v1/models?limit=1000');
    assert.equal(request.headers['x-api-key'], KEY);
    assert.equal(request.headers['anthropic-version'], '2023-06-01');
  });

  test('uses modelsEndpoint when set', async () => {
    await discoverModels({ ...provider(), modelsEndpoint: '/models?type=chat' });
    assert.equal(server.requests[0].path, '/v1/models?type=chat');
  });

  test('caches in upstream layout, answers from a fresh cache, refetches when forced', async () => {
    await discoverModels(provider(), { cacheFile });
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    assert.equal(cache.version, MODELS_CACHE_VERSION);
    const entry = cache.entries[modelsCacheKey(provider())];
    assert.deepEqual(
      entry.models.map((m: { id: string }) => m.id),
      ['alpha', 'beta'],
    );
    assert.ok(Math.abs(entry.updated_at - Date.now() / 1000) < 60);

    server.setModels(['gamma']);
    const cached = await discoverModels({ ...provider(), name: 'renamed' }, { cacheFile });
    assert.deepEqual(
      cached.map((m) => [m.id, m.provider]),
      [
        ['alpha', 'renamed'],
        ['beta', 'renamed'],
      ],
    );
    assert.equal(listings().length, 1, 'a fresh cache answers without a request');

    const forced = await discoverModels(provider(), { cacheFile, force: true });
    assert.deepEqual(
      forced.map((m) => m.id),
      ['gamma'],
    );
    assert.equal(listings().length, 2);
  });

  test('an entry older than the TTL is refetched; other providers’ entries are kept', async () => {
    const otherKey = 'https://other.example/v1|openai|/models';
    const old = Math.floor(Date.now() / 1000) - 9 * 3600;
    const file = join(dir, 'old.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: MODELS_CACHE_VERSION,
        entries: {
          [modelsCacheKey(provider())]: { updated_at: old, models: [{ id: 'stale', name: 'Stale' }] },
          [otherKey]: { updated_at: old, models: [{ id: 'other', name: 'Other', context_window: 1000, max_tokens: 100 }] },
        },
      }),
    );
    const models = await discoverModels(provider(), { cacheFile: file });
    assert.deepEqual(
      models.map((m) => m.id),
      ['alpha', 'beta'],
    );
    const cache = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(cache.entries).sort(), [modelsCacheKey(provider()), otherKey].sort());
  });

  test('falls back to a stale cache when the server is unreachable', async () => {
    const old = Math.floor(Date.now() / 1000) - 24 * 3600;
    const file = join(dir, 'stale.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: MODELS_CACHE_VERSION,
        entries: {
          [modelsCacheKey(provider())]: {
            updated_at: old,
            models: [{ id: 'stale', name: 'Stale One', context_window: 128000, max_tokens: 8192, reasoning: true }],
          },
        },
      }),
    );
    await server.close();
    const models = await discoverModels(provider(), { cacheFile: file });
    assert.deepEqual(models, [
      { id: 'stale', name: 'Stale One', provider: 'scripted', context_window: 128000, max_tokens: 8192, reasoning: true },
    ]);
  });

  test('without a cache, an unreachable server throws a network ProviderError', async () => {
    await server.close();
    await assert.rejects(discoverModels(provider(), { cacheFile }), (e: unknown) => e instanceof ProviderError && e.kind === 'network');
  });

  test('without a cache, an unreachable server answers the built-in fallback when there is one; a stale cache wins over it', async () => {
    const fallback = builtInModels({ ...provider(), name: 'default' }, { isDefaultProvider: true });
    const file = join(dir, 'fallback.json');
    await server.close();
    assert.deepEqual(await discoverModels(provider(), { cacheFile: file, fallback }), fallback);
    const old = Math.floor(Date.now() / 1000) - 24 * 3600;
    writeFileSync(
      file,
      JSON.stringify({
        version: MODELS_CACHE_VERSION,
        entries: { [modelsCacheKey(provider())]: { updated_at: old, models: [{ id: 'stale' }] } },
      }),
    );
    assert.deepEqual(
      (await discoverModels(provider(), { cacheFile: file, fallback })).map((m) => m.id),
      ['stale'],
    );
  });

  test('an empty list answers the built-in fallback', async () => {
    server.setModels([]);
    const fallback = builtInModels({ ...provider(), name: 'default' }, { isDefaultProvider: true });
    assert.deepEqual(await discoverModels(provider(), { fallback }), fallback);
  });

  test('a 401 throws an auth error that does not contain the key', async () => {
    const denied = await startDenyingServer(KEY);
    try {
      await assert.rejects(discoverModels({ ...provider(), baseUrl: denied.url }), (e: unknown) => {
        assert.ok(e instanceof ProviderError);
        assert.equal(e.kind, 'auth');
        assert.ok(!e.message.includes(KEY), e.message);
        return true;
      });
    } finally {
      await denied.close();
    }
  });
});

describe('parseModelsInfo', () => {
  test('defaults what an entry leaves out as upstream does, and lists nothing for anything but a map of objects', () => {
    assert.deepEqual(parseModelsInfo({ bare: {} }, 'p'), [
      {
        id: 'bare',
        name: 'bare',
        provider: 'p',
        context_window: 200000,
        max_tokens: 65000,
        reasoning: true,
        thinking_levels: [],
        vision: false,
      },
    ]);
    assert.deepEqual(parseModelsInfo({ flat: { capabilities: { reasoning_efforts: ['low', '', 3, 'high'] } } }, 'p')[0].thinking_levels, [
      'low',
      'high',
    ]);
    assert.deepEqual(parseModelsInfo({ data: [{ id: 'x' }] }, 'p'), []);
    assert.deepEqual(parseModelsInfo(['x'], 'p'), []);
    assert.deepEqual(parseModelsInfo(null, 'p'), []);
  });
});

describe('builtInModels', () => {
  const at = (baseUrl: string, kind: ProviderKind = 'openai'): ResolvedProvider => ({ name: 'p', kind, baseUrl, headers: {} });
  const ids = (p: ResolvedProvider, isDefaultProvider = false) => builtInModels(p, { isDefaultProvider }).map((m) => m.id);

  test("the default provider gets Umans' list whatever its URL; a custom endpoint gets none", () => {
    const umans = builtInModels(at('http://127.0.0.1:9/v1'), { isDefaultProvider: true });
    assert.deepEqual(
      umans.map((m) => m.id),
      ['umans-coder', 'umans-kimi-k2.5', 'umans-kimi-k2.6', 'umans-glm-5.1', 'umans-glm-5.2', 'umans-minimax-m2.5'],
    );
    assert.deepEqual(umans[4], {
      id: 'umans-glm-5.2',
      name: 'Umans GLM 5.2',
      provider: 'p',
      context_window: 413696,
      max_tokens: 131072,
      reasoning: true,
      thinking_levels: ['high'],
      vision: false,
    });
    assert.deepEqual(ids(at('http://127.0.0.1:9/v1')), []);
    assert.deepEqual(ids(at('https://api.example.com/v1', 'anthropic'), true), []);
  });

  test('a vendor is recognised by its host and kind', () => {
    assert.equal(ids(at('https://api.code.umans.ai/v1'))[0], 'umans-coder');
    assert.deepEqual(ids(at('https://api.deepseek.com')), ['deepseek-v4-flash', 'deepseek-v4-pro']);
    assert.deepEqual(ids(at('https://api.kimi.com/coding/v1')), ['kimi-for-coding']);
    assert.equal(ids(at('https://opencode.ai/zen/go/v1'))[0], 'glm-5.2');
    assert.equal(ids(at('https://opencode.ai/zen/go/v1', 'anthropic'))[0], 'minimax-m3');
    assert.equal(ids(at('https://api.anthropic.com/v1', 'anthropic'))[0], 'claude-opus-4-1');
    assert.deepEqual(ids(at('https://api.deepseek.com.evil.example')), []);
  });
});

describe('parseModelList', () => {
  test('reads OpenRouter-style extras and skips duplicates and junk', () => {
    const models = parseModelList(
      {
        data: [
          {
            id: 'deepseek/deepseek-r1',
            name: 'DeepSeek R1',
            context_length: 163840,
            top_provider: { max_completion_tokens: 32768 },
            supported_parameters: ['reasoning', 'tools'],
          },
          { id: 'deepseek/deepseek-r1', name: 'duplicate' },
          { id: 'plain', supported_parameters: ['tools'] },
          { no_id: true },
        ],
      },
      'openrouter',
    );
    assert.deepEqual(models, [
      {
        id: 'deepseek/deepseek-r1',
        name: 'DeepSeek R1',
        provider: 'openrouter',
        context_window: 163840,
        max_tokens: 32768,
        reasoning: true,
      },
      { id: 'plain', name: 'plain', provider: 'openrouter', reasoning: false },
    ]);
  });

  test('reads Anthropic display_name and other list shapes', () => {
    assert.deepEqual(parseModelList({ data: [{ id: 'claude-x', display_name: 'Claude X' }] }, 'a'), [
      { id: 'claude-x', name: 'Claude X', provider: 'a' },
    ]);
    assert.deepEqual(
      parseModelList(['m1'], 'b').map((m) => m.id),
      ['m1'],
    );
    assert.deepEqual(
      parseModelList({ models: [{ name: 'llama3' }] }, 'c').map((m) => m.id),
      ['llama3'],
    );
    assert.deepEqual(parseModelList({ unexpected: true }, 'd'), []);
  });
});

/** A bare server that answers every request 401 and echoes the key it was sent, like careless gateways do. */
async function startDenyingServer(key: string) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `invalid key ${key} (${req.headers.authorization})` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

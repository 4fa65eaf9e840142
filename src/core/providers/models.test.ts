import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer, type ScriptedModelServer } from '../../../test/support/scriptedModelServer';
import { parseModelList } from './modelList';
import { discoverModels } from './models';
import { MODELS_CACHE_VERSION, modelsCacheKey } from './modelsCache';
import { ProviderError, type ProviderKind, type ResolvedProvider } from './types';

const KEY = 'sk-models-key-123456';

describe('discoverModels', () => {
  let server: ScriptedModelServer;
  let dir: string;
  let cacheFile: string;
  const provider = (kind: ProviderKind = 'openai'): ResolvedProvider => ({ name: 'scripted', kind, baseUrl: server.url, apiKey: KEY, headers: {} });

  beforeEach(async () => {
    server = await startScriptedModelServer({ models: ['alpha', 'beta'] });
    dir = mkdtempSync(join(tmpdir(), 'models-cache-'));
    cacheFile = join(dir, 'sub', 'models-cache.json');
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('lists an OpenAI-shaped /models with the bearer key', async () => {
    const models = await discoverModels(provider());
    assert.deepEqual(models, [
      { id: 'alpha', name: 'alpha', provider: 'scripted' },
      { id: 'beta', name: 'beta', provider: 'scripted' },
    ]);
    assert.equal(server.requests[0].path, '/v1/models');
    assert.equal(server.requests[0].apiKey, KEY);
  });

  test('lists an Anthropic-shaped /models with x-api-key, version and a large page', async () => {
    const models = await discoverModels(provider('anthropic'));
    assert.deepEqual(
      models.map((m) => m.id),
      ['alpha', 'beta'],
    );
    const [request] = server.requests;
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
    assert.equal(server.requests.length, 1, 'a fresh cache answers without a request');

    const forced = await discoverModels(provider(), { cacheFile, force: true });
    assert.deepEqual(
      forced.map((m) => m.id),
      ['gamma'],
    );
    assert.equal(server.requests.length, 2);
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
        entries: { [modelsCacheKey(provider())]: { updated_at: old, models: [{ id: 'stale', name: 'Stale One', context_window: 128000, max_tokens: 8192, reasoning: true }] } },
      }),
    );
    await server.close();
    const models = await discoverModels(provider(), { cacheFile: file });
    assert.deepEqual(models, [{ id: 'stale', name: 'Stale One', provider: 'scripted', context_window: 128000, max_tokens: 8192, reasoning: true }]);
  });

  test('without a cache, an unreachable server throws a network ProviderError', async () => {
    await server.close();
    await assert.rejects(discoverModels(provider(), { cacheFile }), (e: unknown) => e instanceof ProviderError && e.kind === 'network');
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

describe('parseModelList', () => {
  test('reads OpenRouter-style extras and skips duplicates and junk', () => {
    const models = parseModelList(
      {
        data: [
          { id: 'deepseek/deepseek-r1', name: 'DeepSeek R1', context_length: 163840, top_provider: { max_completion_tokens: 32768 }, supported_parameters: ['reasoning', 'tools'] },
          { id: 'deepseek/deepseek-r1', name: 'duplicate' },
          { id: 'plain', supported_parameters: ['tools'] },
          { no_id: true },
        ],
      },
      'openrouter',
    );
    assert.deepEqual(models, [
      { id: 'deepseek/deepseek-r1', name: 'DeepSeek R1', provider: 'openrouter', context_window: 163840, max_tokens: 32768, reasoning: true },
      { id: 'plain', name: 'plain', provider: 'openrouter', reasoning: false },
    ]);
  });

  test('reads Anthropic display_name and other list shapes', () => {
    assert.deepEqual(parseModelList({ data: [{ id: 'claude-x', display_name: 'Claude X' }] }, 'a'), [{ id: 'claude-x', name: 'Claude X', provider: 'a' }]);
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

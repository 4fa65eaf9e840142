// Issue #13 item 1: model discovery as upstream's core does it — `GET /models/info` (Umans' capabilities map), then
// `GET /models`, and with neither a server nor a cache the built-in list of the default provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreProcess, type CoreEvent } from '../support/coreProcess';
import { startScenario, TEST_MODEL, unusedLocalUrl } from '../support/coreScenario';

/** Handshakes and returns init's model listing: in `ready` when discovery settled in time, else the `models` after it. */
async function initListing(core: CoreProcess): Promise<{ ready: CoreEvent; models: any[] }> {
  const { ready } = await core.handshake();
  if (ready.models.length > 0) return { ready, models: ready.models };
  const later = await core.waitForType('models', { from: core.events.indexOf(ready), timeoutMs: 30000 });
  return { ready, models: later.models };
}

test('a /models/info map is what the models carry: display names, context window, max tokens, vision, reasoning levels', async () => {
  const s = await startScenario({ handshake: false });
  try {
    s.model.setModelsInfo({
      'umans-glm-5.2': {
        display_name: 'Umans GLM 5.2',
        capabilities: {
          context_window: 413696,
          recommended_max_tokens: 131072,
          supports_vision: 'via-handoff',
          reasoning: { supported: true, levels: ['none', 'high', 'max'] },
        },
      },
      'umans-kimi-k2.6': {
        display_name: 'Umans Kimi K2.6',
        capabilities: { context_window: 262144, recommended_max_tokens: 32768, supports_vision: true, reasoning: { supported: false } },
      },
    });
    const { models } = await initListing(s.core);
    assert.deepEqual(models, [
      {
        id: 'umans-glm-5.2',
        name: 'Umans GLM 5.2',
        provider: 'scripted',
        context_window: 413696,
        max_tokens: 131072,
        reasoning: true,
        thinking_levels: ['none', 'high', 'max'],
        vision: false,
      },
      {
        id: 'umans-kimi-k2.6',
        name: 'Umans Kimi K2.6',
        provider: 'scripted',
        context_window: 262144,
        max_tokens: 32768,
        reasoning: false,
        thinking_levels: [],
        vision: true,
      },
    ]);
    const listings = s.model.requests.filter((r) => r.method === 'GET').map((r) => r.path);
    assert.deepEqual(listings, ['/v1/models/info'], 'the map answered, so the plain list was not asked');
  } finally {
    await s.close();
  }
});

test('a server without /models/info (a 404) is listed from /models, asked after it', async () => {
  const s = await startScenario({ handshake: false });
  try {
    const { models } = await initListing(s.core);
    assert.deepEqual(
      models.map((m) => [m.id, m.provider]),
      [[TEST_MODEL, 'scripted']],
    );
    const listings = s.model.requests.filter((r) => r.method === 'GET').map((r) => r.path);
    assert.deepEqual(listings, ['/v1/models/info', '/v1/models']);
  } finally {
    await s.close();
  }
});

test("with an empty HOME and no server, the default provider lists upstream's built-in Umans models", async () => {
  const core = CoreProcess.start({ args: ['--base-url', await unusedLocalUrl()] });
  try {
    const { ready, models } = await initListing(core);
    assert.equal(ready.provider, 'default');
    assert.equal(ready.authed, false, 'nothing is configured, so nothing is logged in');
    assert.deepEqual(
      models.map((m) => [m.id, m.provider]),
      ['umans-coder', 'umans-kimi-k2.5', 'umans-kimi-k2.6', 'umans-glm-5.1', 'umans-glm-5.2', 'umans-minimax-m2.5'].map((id) => [
        id,
        'default',
      ]),
    );
    assert.deepEqual(
      models.find((m) => m.id === 'umans-glm-5.2'),
      {
        id: 'umans-glm-5.2',
        name: 'Umans GLM 5.2',
        provider: 'default',
        context_window: 413696,
        max_tokens: 131072,
        reasoning: true,
        thinking_levels: ['high'],
        vision: false,
      },
    );
    assert.deepEqual(core.ofType('error'), []);
  } finally {
    await core.close();
    core.cleanup();
  }
});

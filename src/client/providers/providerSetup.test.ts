import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCoreBuilt, realCoreEnv, type RealCoreEnv } from '../../../test/support/realCoreHarness';
import { SessionController } from '../intents/sessionController';
import type { WireEvent } from '../state/eventFields';
import { startScriptedModelServer, type ScriptedModelServer } from '../../../test/support/scriptedModelServer';
import {
  configureProviders,
  providersForPreset,
  secretKeyFor,
  validateBaseUrl,
  validateProviderName,
  type ProviderTarget,
} from './providerSetup';

describe('providersForPreset', () => {
  test('one provider per preset, with its kind', () => {
    assert.deepEqual(providersForPreset({ id: 'openrouter', base_url: 'https://openrouter.ai/api/v1', kind: 'openai' }), [
      { name: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', kind: 'openai' },
    ]);
  });

  test('OpenCode Go also gets its Anthropic endpoint, the primary one last (it becomes active)', () => {
    const setups = providersForPreset({ id: 'opencode-go', base_url: 'https://opencode.ai/zen/go/v1', kind: 'openai' });
    assert.deepEqual(
      setups.map((s) => [s.name, s.kind]),
      [
        ['opencode-go-anthropic', 'anthropic'],
        ['opencode-go', 'openai'],
      ],
    );
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

/** Records what the flow asks of a session, in order. */
function recordingTarget(): ProviderTarget & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    addCustomProvider: (p) => calls.push(['addCustomProvider', p]),
    setKey: (provider, key) => calls.push(['setKey', provider, key]),
  };
}

describe('configureProviders', () => {
  test('with a key: each endpoint says its key follows, then the key goes with setKey', async () => {
    const target = recordingTarget();
    await configureProviders(
      target,
      providersForPreset({ id: 'opencode-go', base_url: 'https://opencode.ai/zen/go/v1', kind: 'openai' }),
      'sk-entered',
    );
    assert.deepEqual(target.calls, [
      [
        'addCustomProvider',
        { name: 'opencode-go-anthropic', baseUrl: 'https://opencode.ai/zen/go/v1', kind: 'anthropic', keyFollows: true },
      ],
      ['setKey', 'opencode-go-anthropic', 'sk-entered'],
      ['addCustomProvider', { name: 'opencode-go', baseUrl: 'https://opencode.ai/zen/go/v1', kind: 'openai', keyFollows: true }],
      ['setKey', 'opencode-go', 'sk-entered'],
    ]);
  });

  test('with the key left empty: the endpoint alone, no flag, no setKey', async () => {
    const target = recordingTarget();
    await configureProviders(target, [{ name: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', kind: 'openai' }], '');
    assert.deepEqual(target.calls, [['addCustomProvider', { name: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', kind: 'openai' }]]);
  });
});

describe('configureProviders through the SessionController and the real core', () => {
  const VLLM_KEY = 'sk-vllm-LOGINFLOW-5a1f';
  let env: RealCoreEnv;
  let vllm: ScriptedModelServer;
  let controller: SessionController;

  before(async () => {
    await ensureCoreBuilt();
    env = await realCoreEnv();
    vllm = await startScriptedModelServer({ models: ['vllm-model'], requiredKey: VLLM_KEY });
    controller = new SessionController({
      launch: env.launch(),
      sessionsDir: env.sessionsDir,
      clientVersion: '0.1.0-login',
      handshakeTimeoutMs: 20_000,
    });
  });

  /** The next core event that satisfies `pred` (registered before its cause; the test's timeout bounds the wait). */
  const nextEvent = (pred: (e: WireEvent) => boolean): Promise<WireEvent> =>
    new Promise((resolve) => {
      const sub = controller.onEvent((e) => {
        if (!pred(e)) return;
        sub.dispose();
        resolve(e);
      });
    });

  after(async () => {
    await controller?.dispose();
    await vllm?.close();
    await env?.cleanup();
  });

  test(
    'logging in to a loopback endpoint that needs a key shows no discovery failure and lists its models',
    { timeout: 60_000 },
    async () => {
      assert.equal(await controller.start(), true);
      const listed = nextEvent((e) => e.type === 'models' && JSON.stringify(e.models).includes('vllm-model'));
      await configureProviders(controller, [{ name: 'vllm', baseUrl: vllm.url, kind: 'openai' }], VLLM_KEY);
      await listed;
      // The core answers in order: the answer to this stats comes after everything the log-in made it say.
      const probe = nextEvent((e) => e.type === 'stats');
      assert.equal(controller.stats(false), true);
      await probe;
      const s = controller.state;
      assert.deepEqual(
        s.items.filter((i) => i.kind === 'notice').map((i) => (i.kind === 'notice' ? i.text : '')),
        [],
      );
      assert.deepEqual(
        s.models.filter((m) => m.provider === 'vllm').map((m) => m.id),
        ['vllm-model'],
      );
      assert.equal(s.provider, 'vllm');
      assert.equal(s.authed, true);
      assert.ok(!readFileSync(join(env.configDir, 'config.json'), 'utf8').includes(VLLM_KEY), 'the key reached config.json');
    },
  );
});

// Issue #11: a keyless local endpoint (the README's Ollama example) counts as logged in, as upstream decides it: a
// loopback base URL and no api_key_env. No key is configured anywhere in these scenarios: no api_key, no
// provider_keys, no key variable in the core's environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, TEST_KEY, TEST_MODEL, type Scenario } from '../support/coreScenario';
import type { CoreEvent } from '../support/coreProcess';
import { startScriptedModelServer } from '../support/scriptedModelServer';

const keyless = (name: string) => (url: string) => [{ name, kind: 'openai', base_url: url }];

/** Handshakes and waits for init's model discovery: in `ready` when it settled in time, else the `models` after it. */
async function initListing(s: Scenario): Promise<any[]> {
  const { ready } = await s.core.handshake();
  if (ready.models.length > 0) return ready.models;
  return (await s.core.waitForType('models', { from: s.core.events.indexOf(ready), timeoutMs: 30000 })).models;
}

test('a keyless provider on 127.0.0.1 is logged in: ready says so, its models are listed and a prompt streams a turn', async () => {
  const s = await startScenario({
    providers: keyless('ollama'),
    handshake: false,
    script: [{ steps: [{ text: 'hello from ' }, { text: 'a local model' }] }],
  });
  try {
    const { ready } = await s.core.handshake();
    assert.equal(ready.provider, 'ollama');
    assert.equal(ready.anyLoggedIn, true);
    assert.equal(ready.authed, true);
    assert.equal(ready.has_key, false, 'it has no key; it is logged in without one');

    const from = s.core.events.length;
    s.core.send({ type: 'refresh_models' });
    const refreshed = await s.core.waitForType('models_refreshed', { from, timeoutMs: 30000 });
    assert.deepEqual(refreshed.providers, { ollama: [TEST_MODEL] });
    const models = s.core.ofType('models', from).at(-1)!;
    assert.deepEqual(
      models.models.map((m: any) => [m.id, m.provider]),
      [[TEST_MODEL, 'ollama']],
    );

    const events = await s.turn('hi');
    const deltas = events.filter((e) => e.type === 'delta');
    assert.ok(deltas.length > 0 && events.indexOf(deltas[0]) < events.findIndex((e) => e.type === 'done'), 'delta … done');
    assert.equal(deltas.map((e) => e.text).join(''), 'hello from a local model');
    assert.deepEqual(
      events.filter((e) => e.type === 'error'),
      [],
    );
    assert.equal(events.at(-1)!.type, 'done');

    const discovery = s.model.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/models'));
    const chat = s.model.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
    assert.ok(discovery.length > 0 && chat.length === 1);
    for (const r of [...discovery, ...chat])
      assert.equal(r.headers.authorization, undefined, `${r.method} ${r.path} sent an Authorization header`);
  } finally {
    await s.close();
  }
});

test('a keyless provider that is not on loopback is not logged in; with none logged in it is listed without a key, as upstream does', async () => {
  const lan = await startScriptedModelServer({ models: ['lan-model'] });
  // 0.0.0.0 reaches this machine (so a request would land in lan.requests) but is not a loopback address by the rule.
  const lanUrl = lan.url.replace('127.0.0.1', '0.0.0.0');
  const probe = await fetch(`${lanUrl}/models`);
  assert.equal(probe.status, 200, 'the 0.0.0.0 address does not reach the server, so this test would prove nothing');
  await probe.text();
  assert.equal(lan.requests.length, 1);
  const s = await startScenario({ providers: () => [{ name: 'lan', kind: 'openai', base_url: lanUrl }], handshake: false });
  try {
    const { ready } = await s.core.handshake();
    assert.equal(ready.provider, 'lan');
    assert.equal(ready.anyLoggedIn, false);
    assert.equal(ready.authed, false);

    // Upstream lists the active provider unauthenticated while no provider is logged in (Umans' list is public).
    const from = s.core.events.length;
    s.core.send({ type: 'refresh_models' });
    const refreshed = await s.core.waitForType('models_refreshed', { from, timeoutMs: 30000 });
    assert.deepEqual(refreshed.providers, { lan: ['lan-model'] });
    const listings = lan.requests.slice(1);
    assert.ok(
      listings.length > 0 && listings.every((r) => r.method === 'GET' && r.apiKey === undefined),
      JSON.stringify(listings.map((r) => `${r.method} ${r.path}`)),
    );
  } finally {
    await s.close();
    await lan.close();
  }
});

test('add_custom_provider with a loopback URL and no key logs in and lists its models; logout removes it', async () => {
  const s = await startScenario({ providers: () => [] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'add_custom_provider', name: 'local', kind: 'openai', base_url: s.model.url });
    // Its answer's models, not a late list from init's discovery of the default provider (unsolicited).
    const listsLocal = (e: CoreEvent): boolean => e.models.some((m: any) => m.provider === 'local');
    const models = await s.core.waitFor((e) => e.type === 'models' && listsLocal(e), { from, timeoutMs: 30000 });
    const upToModels = s.core.answerSince(from, models);
    assert.deepEqual(
      upToModels.filter((e) => e.type === 'authed').map((e) => [e.ok, e.provider]),
      [[true, 'local']],
    );
    assert.deepEqual(
      models.models.map((m: any) => m.id),
      [TEST_MODEL],
    );
    assert.deepEqual(
      upToModels.filter((e) => e.type === 'error'),
      [],
    );

    const atLogout = s.core.events.length;
    s.core.send({ type: 'logout', provider: 'local' });
    const after = await s.core.waitFor((e) => (e.type === 'models' && !listsLocal(e)) || e.type === 'error', { from: atLogout });
    assert.equal(after.type, 'models', `logout answered ${JSON.stringify(after)}`);
    assert.deepEqual(
      after.models.filter((m: any) => m.provider !== 'default'),
      [],
      'only the default provider, logged out, is left',
    );
    assert.ok(s.core.ofType('info', atLogout).some((e) => e.message === 'logged out of local.'));
    assert.deepEqual(
      s.core.ofType('authed', atLogout).map((e) => e.ok),
      [false],
    );
  } finally {
    await s.close();
  }
});

test('a keyless local endpoint that answers 401 gets an error that says no key was sent and how to add one', async () => {
  const s = await startScenario({
    providers: keyless('ollama'),
    script: [{ status: 401, body: { error: { message: 'missing bearer token' } } }],
  });
  try {
    const events = await s.turn('hi');
    const err = events.find((e) => e.type === 'error');
    assert.equal(err.code, 'auth_error');
    assert.match(err.message, /HTTP 401 from ollama/);
    assert.match(
      err.message,
      /no API key was sent, because 'ollama' has none; if this endpoint needs one, log in to 'ollama' again with its key/,
    );
    assert.equal(events.at(-1)!.type, 'done');
  } finally {
    await s.close();
  }
});

test('a key given later (set_key) to a loopback provider that was listed without one lists its models again with the key', async () => {
  // The extension's flow: the endpoint is in config.json without a key, the key arrives with set_key after ready.
  const s = await startScenario({ providers: keyless('vllm'), handshake: false });
  try {
    await initListing(s);
    const listedWithoutKey = s.model.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/models'));
    assert.ok(listedWithoutKey.length > 0 && listedWithoutKey.every((r) => r.apiKey === undefined), 'init lists the models without a key');
    const sentBefore = s.model.requests.length;
    const from = s.core.events.length;
    s.core.send({ type: 'set_key', provider: 'vllm', api_key: TEST_KEY });
    await s.core.waitForType('models', { from, timeoutMs: 30000 });
    const withKey = s.model.requests.slice(sentBefore).filter((r) => r.method === 'GET' && r.path.endsWith('/models'));
    assert.deepEqual(
      withKey.map((r) => r.apiKey),
      [TEST_KEY],
      'the list made without the key (and cached) stood in for the keyed one',
    );
  } finally {
    await s.close();
  }
});

test('add_custom_provider saying a key follows, then set_key, to a loopback server that needs one: no discovery failure, listed with the key', async () => {
  // The extension's log-in to a local vLLM started with --api-key: the endpoint first (without its key, which never
  // goes to config.json), then the key. Listing between the two would get a 401 and show it in the chat.
  const vllm = await startScriptedModelServer({ models: ['vllm-model'], requiredKey: TEST_KEY });
  const s = await startScenario({ providers: () => [] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'add_custom_provider', name: 'vllm', kind: 'openai', base_url: vllm.url, key_follows: true });
    s.core.send({ type: 'set_key', provider: 'vllm', api_key: TEST_KEY });
    // The core answers commands in order: once the stats probe is answered, both commands' events are all out.
    s.core.send({ type: 'stats' });
    const probe = await s.core.waitForType('stats', { from, timeoutMs: 30000 });
    const events = s.core.events.slice(from, s.core.events.indexOf(probe));
    assert.deepEqual(
      events.filter((e) => e.type === 'error' || (e.type === 'info' && /discovery failed|401/.test(e.message))),
      [],
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'authed').map((e) => [e.ok, e.provider]),
      [[true, 'vllm']],
    );
    const models = events.filter((e) => e.type === 'models');
    assert.deepEqual(
      models.at(-1)?.models.map((m: any) => [m.id, m.provider]),
      [['vllm-model', 'vllm']],
    );
    const listings = vllm.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/models'));
    assert.deepEqual(
      listings.map((r) => r.apiKey),
      [TEST_KEY],
      'the models were listed without the key',
    );

    const turnFrom = s.core.events.length;
    vllm.enqueue({ steps: [{ text: 'served with the key' }] });
    s.core.send({ type: 'send', prompt: 'hi', model: 'vllm-model' });
    const done = await s.core.waitForType('done', { from: turnFrom, timeoutMs: 30000 });
    const turn = s.core.events.slice(turnFrom, s.core.events.indexOf(done));
    assert.equal(
      turn
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'served with the key',
    );
  } finally {
    await s.close();
    await vllm.close();
  }
});

test('control: the same sequence without key_follows lists without the key first and reports the 401 (what the flag prevents)', async () => {
  // The failure key_follows prevents, shown on the same server: this is what the chat showed before.
  const vllm = await startScriptedModelServer({ models: ['vllm-model'], requiredKey: TEST_KEY });
  const s = await startScenario({ providers: () => [] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'add_custom_provider', name: 'vllm', kind: 'openai', base_url: vllm.url });
    s.core.send({ type: 'set_key', provider: 'vllm', api_key: TEST_KEY });
    s.core.send({ type: 'stats' });
    const probe = await s.core.waitForType('stats', { from, timeoutMs: 30000 });
    const failures = s.core.events
      .slice(from, s.core.events.indexOf(probe))
      .filter((e) => e.type === 'info' && /model discovery failed for vllm: .*401/.test(e.message));
    assert.equal(failures.length, 1);
    assert.deepEqual(
      vllm.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/models')).map((r) => r.apiKey),
      [undefined, TEST_KEY],
    );
  } finally {
    await s.close();
    await vllm.close();
  }
});

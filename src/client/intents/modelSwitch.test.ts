import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initialSessionState } from '../../shared/sessionState';
import { selectModelChoice, type ModelSwitchDeps } from './modelSwitch';

/** A session that logs what is sent, and a `models` wait that the test resolves (as the core's next `models` event). */
function recording(opts: { provider?: string; refuseProvider?: boolean } = {}) {
  const log: string[] = [];
  let listModels: () => void = () => assert.fail('nothing waits for models');
  const state = initialSessionState();
  state.provider = opts.provider;
  const deps: ModelSwitchDeps = {
    session: {
      state,
      setProvider: (name) => (log.push(`set_provider ${name}`), !opts.refuseProvider),
      setModel: (model) => (log.push(`set_model ${model}`), true),
    },
    modelsListed: () => {
      log.push('wait for models');
      return new Promise<void>((resolve) => (listModels = () => (log.push('models'), resolve())));
    },
    remember: (model) => log.push(`remember ${model}`),
  };
  return { deps, log, listModels: () => listModels() };
}

test("a model of the active provider's group is selected without a switch", async () => {
  const r = recording({ provider: 'openrouter' });
  assert.equal(await selectModelChoice(r.deps, { model: 'a', provider: 'openrouter' }), true);
  assert.equal(await selectModelChoice(r.deps, { model: 'b' }), true);
  assert.deepEqual(r.log, ['remember a', 'set_model a', 'remember b', 'set_model b']);
});

test("another provider's model: set_provider, then its models, then the model is selected", async () => {
  const r = recording({ provider: 'openrouter' });
  const selected = selectModelChoice(r.deps, { model: 'qwen3-coder', provider: 'ollama' });
  // Every microtask has run by setImmediate (deterministic, no timer): the model waits for the core's `models`.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.log, ['wait for models', 'set_provider ollama']);
  r.listModels();
  assert.equal(await selected, true);
  assert.deepEqual(r.log, ['wait for models', 'set_provider ollama', 'models', 'remember qwen3-coder', 'set_model qwen3-coder']);
});

test('a refused set_provider selects nothing', async () => {
  const r = recording({ provider: 'openrouter', refuseProvider: true });
  assert.equal(await selectModelChoice(r.deps, { model: 'qwen3-coder', provider: 'ollama' }), false);
  assert.deepEqual(r.log, ['wait for models', 'set_provider ollama']);
});

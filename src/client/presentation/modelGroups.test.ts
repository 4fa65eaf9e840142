import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeModel,
  groupModelsByProvider,
  isCurrentChoice,
  modelsRefreshedText,
  noModelsMessage,
  providerSwitchFor,
} from './modelGroups';

describe('groupModelsByProvider', () => {
  test('groups by provider with the active provider first', () => {
    const groups = groupModelsByProvider(
      [
        { id: 'a1', provider: 'anthropic' },
        { id: 'o1', provider: 'openrouter' },
        { id: 'l1', provider: 'local' },
        { id: 'o2', provider: 'openrouter' },
        { id: 'x' },
      ],
      'openrouter',
    );
    assert.deepEqual(
      groups.map((g) => [g.provider, g.models.map((m) => m.id)]),
      [
        ['openrouter', ['o1', 'o2', 'x']],
        ['anthropic', ['a1']],
        ['local', ['l1']],
      ],
    );
  });

  test('legacy models without a provider and no active provider share one group', () => {
    assert.deepEqual(
      groupModelsByProvider([{ id: 'a' }, { id: 'b' }]).map((g) => g.provider),
      ['models'],
    );
  });
});

describe('describeModel', () => {
  test('context, reasoning and images', () => {
    assert.equal(
      describeModel({ id: 'm', contextWindow: 128000, thinkingLevels: ['low'], vision: true }),
      '128k context · reasoning · images',
    );
    assert.equal(describeModel({ id: 'm' }), '');
  });
});

describe('noModelsMessage', () => {
  test('asks to log in when no provider is logged in', () => {
    assert.equal(noModelsMessage({ anyLoggedIn: false, provider: 'ollama' }), 'Catalyst Code: no models yet — log in to a provider first.');
  });

  test('a logged-in provider without models (a keyless local server that is down) is not asked to log in', () => {
    const message = noModelsMessage({ anyLoggedIn: true, provider: 'ollama' });
    assert.match(message, /ollama lists no models yet — is its server running\?/);
    assert.doesNotMatch(message, /log in to a provider first/);
  });
});

describe('picking a model of another provider', () => {
  const models = [
    { id: 'shared', provider: 'alpha' },
    { id: 'only-beta', provider: 'beta' },
    { id: 'shared', provider: 'beta' },
  ];

  test('switches provider only when the group is not the active provider', () => {
    assert.equal(providerSwitchFor({ model: 'only-beta', provider: 'beta' }, 'alpha'), 'beta');
    assert.equal(providerSwitchFor({ model: 'shared', provider: 'alpha' }, 'alpha'), undefined);
    assert.equal(providerSwitchFor({ model: 'legacy' }, 'alpha'), undefined);
  });

  test('the check mark is on the provider that serves the selected model, not on every provider listing its id', () => {
    assert.equal(isCurrentChoice({ model: 'shared', provider: 'alpha' }, models, 'shared'), true);
    assert.equal(isCurrentChoice({ model: 'shared', provider: 'beta' }, models, 'shared'), false);
    assert.equal(isCurrentChoice({ model: 'only-beta', provider: 'beta' }, models, 'shared'), false);
    assert.equal(isCurrentChoice({ model: 'x' }, [{ id: 'x' }], 'x'), true);
  });

  test('the refresh notice counts the models', () => {
    assert.equal(modelsRefreshedText(3), 'Models refreshed: 3 models');
    assert.equal(modelsRefreshedText(1), 'Models refreshed: 1 model');
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeModel, groupModelsByProvider, noModelsMessage } from './modelGroups';

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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../src/shared/sessionState';
import { isFirstRun } from './welcome';

test("first run lasts until a provider is logged in, even while the default provider's models are listed", () => {
  const s = initialSessionState();
  assert.equal(isFirstRun(s), true);
  s.models = [{ id: 'umans-glm-5.2', name: 'Umans GLM 5.2', provider: 'default' }];
  assert.equal(isFirstRun(s), true, "a core lists the default provider's models with nothing logged in");
  s.anyLoggedIn = true;
  assert.equal(isFirstRun(s), false);
});

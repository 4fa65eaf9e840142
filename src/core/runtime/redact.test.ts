import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, containsSecretKey, redactSecrets, scrubText } from './redact';

test('redactSecrets replaces secret-named keys at any depth and leaves the input untouched', () => {
  const input = { type: 'x', api_key: 'sk-1', nested: { Authorization: 'Bearer abc', list: [{ password: 'p', keep: 'v' }], access_token: 't' }, client_secret: 's', refresh_token: 'r', id_token: 'i', text: 'api_key' };
  const out = redactSecrets(input);
  assert.deepEqual(out, { type: 'x', api_key: REDACTED, nested: { Authorization: REDACTED, list: [{ password: REDACTED, keep: 'v' }], access_token: REDACTED }, client_secret: REDACTED, refresh_token: REDACTED, id_token: REDACTED, text: 'api_key' });
  assert.equal(input.api_key, 'sk-1', 'the original is not mutated');
});

test('empty or null secret values stay as they are (nothing to hide, and clients can tell "no key")', () => {
  assert.deepEqual(redactSecrets({ api_key: '', password: null }), { api_key: '', password: null });
});

test('containsSecretKey finds secret keys anywhere, and only keys', () => {
  assert.equal(containsSecretKey({ a: [{ b: { password: 'x' } }] }), true);
  assert.equal(containsSecretKey({ text: 'password api_key' }), false);
  assert.equal(containsSecretKey('api_key'), false);
});

test('scrubText removes known secrets, bearer tokens and sk- keys from free text', () => {
  const text = 'HTTP 401: Incorrect API key provided: my-own-secret-123. Header was Bearer abcdefgh12345678; also sk-proj-ABCDEFGH1234';
  const out = scrubText(text, ['my-own-secret-123']);
  assert.ok(!out.includes('my-own-secret-123'));
  assert.ok(!out.includes('abcdefgh12345678'));
  assert.ok(!out.includes('sk-proj-ABCDEFGH1234'));
  assert.match(out, /^HTTP 401: Incorrect API key provided: \[REDACTED\]\./);
  assert.equal(scrubText('short key abc', ['abc']), 'short key abc', 'secrets under 4 chars are not scrubbed (would mangle text)');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderPreset } from '../../protocol';
import { loginMethods, oauthOutcome, pendingRestored, readOauthPrompt } from './oauthLogin';

test('an oauth_prompt is read with its defaults; a missing needs_code means a code is needed', () => {
  assert.deepEqual(readOauthPrompt({ url: 'https://auth.example/device', code: 'AB-12', message: 'Enter the code' }), {
    prompt: { url: 'https://auth.example/device', code: 'AB-12', message: 'Enter the code', needsCode: true },
  });
  assert.deepEqual(readOauthPrompt({ url: 'http://127.0.0.1:5/authorize', code: null, message: '', needs_code: false }), {
    prompt: { url: 'http://127.0.0.1:5/authorize', message: 'Open the URL to log in.', needsCode: false },
  });
});

test('an oauth_prompt whose URL is not http(s) is refused: it never reaches openExternal', () => {
  for (const url of ['command:workbench.action.terminal.new', 'file:///etc/passwd', 'javascript:alert(1)', '', 42]) {
    const read = readOauthPrompt({ url, message: 'x' });
    assert.ok('refused' in read, String(url));
  }
});

test("the login's outcome is read from upstream's texts; other infos and errors are not about it", () => {
  assert.deepEqual(oauthOutcome({ type: 'info', message: 'OAuth ready: 2 Lab model(s) available (3 total across providers).' }), {
    ok: true,
    message: 'OAuth ready: 2 Lab model(s) available (3 total across providers).',
  });
  const wrong = oauthOutcome({
    type: 'error',
    message:
      'OAuth code exchange failed: OAuth complete failed: bad (pending login restored — try /oauth-code again with the correct code)',
  });
  assert.equal(wrong?.ok, false);
  assert.equal(pendingRestored(wrong!), true);
  const failed = oauthOutcome({ type: 'error', message: 'OAuth login failed: OAuth login failed: denied' });
  assert.equal(failed?.ok, false);
  assert.equal(pendingRestored(failed!), false);
  assert.equal(oauthOutcome({ type: 'error', message: "'x' has no plugin OAuth login — install a plugin…" })?.ok, false);
  assert.equal(oauthOutcome({ type: 'info', message: 'starting OAuth login for Lab…' }), undefined);
  assert.equal(oauthOutcome({ type: 'error', message: 'unknown model: m' }), undefined);
});

test('OAuth-only presets log in by OAuth; a built-in preset a plugin also serves offers both', () => {
  const preset = (p: Partial<ProviderPreset>): ProviderPreset => ({
    id: 'x',
    label: 'X',
    kind: 'openai',
    base_url: 'https://x',
    envVar: 'X_API_KEY',
    description: '',
    hasKey: false,
    configured: false,
    loggedIn: false,
    ...p,
  });
  assert.deepEqual(loginMethods(preset({})), ['key']);
  assert.deepEqual(loginMethods(preset({ supportsOauth: false })), ['key']);
  // A plugin OAuth provider's preset has envVar null (as upstream's): read off the wire, so typed from JSON here.
  const pluginOnly = JSON.parse('{"supportsOauth": true, "envVar": null}') as Partial<ProviderPreset>;
  assert.deepEqual(loginMethods(preset(pluginOnly)), ['oauth']);
  assert.deepEqual(loginMethods(preset({ supportsOauth: true })), ['oauth', 'key']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';
import { startOauthServerStandIn, type OauthServerStandIn } from '../support/oauthServerStandIn';
import { oauthPlugin, tempDir, writePlugin } from '../support/pluginFixtures';

const TRUE_BIN = '/bin/true';
const NO_PENDING =
  'No pending OAuth login. Run /login first — the no-browser flow prints a URL; paste its code here with /oauth-code <code>.';

/** A core with no provider configured, the lab-oauth plugin installed from a folder, and the stand-in's URL passed on. */
async function startWithLabPlugin(
  auth: OauthServerStandIn,
  env: Record<string, string>,
  replies: number,
  plugin: { device?: boolean } = {},
): Promise<Scenario> {
  const s = await startScenario({
    providers: () => [],
    env: { OAUTH_STANDIN_URL: auth.url, ...env },
    script: Array.from({ length: replies }, (_, i) => ({ steps: [{ text: `reply ${i + 1}` }] })),
  });
  const folder = writePlugin(tempDir('oauth-plugin-'), 'lab-oauth', oauthPlugin(s.model.url, plugin));
  const from = s.core.events.length;
  s.core.send({ type: 'install_plugin', path: folder });
  await s.core.waitForType('plugin_installed', { from });
  // The plugin brought a new OAuth provider: Log In… hears of it without a restart.
  const presets = await s.core.waitForType('provider_presets', { from });
  assert.ok(presets.presets.some((p: any) => p.id === 'lab' && p.supportsOauth === true));
  return s;
}

const tokenFile = (s: Scenario) => join(s.core.home, '.config', 'catalyst-code', 'oauth', 'lab.json');
const jsonLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const scriptInputs = (s: Scenario) => jsonLines(join(s.core.home, 'oauth-inputs.jsonl'));
/** What the plugin's `login` runs answered, as the plugin recorded it. */
const loginAnswers = (s: Scenario) => jsonLines(join(s.core.home, 'oauth-login-answers.jsonl'));
const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');

/** The events from `from` up to the "OAuth ready" info that ends a successful login. */
async function loginSucceeded(s: Scenario, from: number): Promise<any[]> {
  const ready = await s.core.waitFor((e) => e.type === 'info' && /^OAuth ready: /.test(e.message), { from });
  return s.core.events.slice(from, s.core.events.indexOf(ready) + 1);
}

function assertSuccessSequence(events: any[]): void {
  const tail = events.filter((e) => ['info', 'authed', 'provider_changed', 'models'].includes(e.type)).slice(-5);
  assert.deepEqual(
    tail.map((e) => e.type),
    ['info', 'authed', 'provider_changed', 'models', 'info'],
  );
  assert.equal(tail[0].message, "logged into Lab Cloud via OAuth — you're signed in. Pick a model with /models if needed.");
  assert.equal(tail[1].ok, true);
  assert.ok(!('provider' in tail[1]), 'authed carries no provider field after OAuth (upstream)');
  assert.deepEqual(
    { provider: tail[2].provider, has_key: tail[2].has_key, base_url: tail[2].base_url },
    { provider: 'lab', has_key: true, base_url: events.find((e) => e.type === 'provider_changed').base_url },
  );
  assert.ok(tail[3].models.some((m: any) => m.id === TEST_MODEL && m.provider === 'lab'));
  assert.equal(tail[4].message, 'OAuth ready: 1 Lab Cloud model(s) available (1 total across providers).');
}

function assertNoTokenLeaked(s: Scenario, auth: OauthServerStandIn): void {
  const events = JSON.stringify(s.core.events);
  const stderr = s.core.stderr.join('');
  for (const token of auth.accessTokens) {
    assert.ok(!events.includes(token), `access token ${token} reached an event`);
    assert.ok(!stderr.includes(token), `access token ${token} reached the log`);
  }
}

test('web flow: the loopback redirect stores a token; requests carry it; a token near expiry is refreshed; logout clears', async () => {
  const auth = await startOauthServerStandIn();
  auth.expiresIn = 30; // inside the 60 s margin: every request until a longer-lived token arrives runs `token` again
  const s = await startWithLabPlugin(auth, { CATALYST_CODE_NO_BROWSER: '0', BROWSER: TRUE_BIN }, 2);
  try {
    const hello = s.core.events.find((e) => e.type === 'protocol_hello')!;
    assert.ok(hello.capabilities.includes('oauth'));

    let from = s.core.events.length;
    s.core.send({ type: 'list_provider_presets' });
    const presets = await s.core.waitForType('provider_presets', { from });
    assert.deepEqual(
      presets.presets.find((p: any) => p.id === 'lab'),
      {
        id: 'lab',
        label: 'Lab Cloud',
        kind: 'openai',
        base_url: s.model.url,
        envVar: null,
        altEnvs: [],
        description: 'Lab Cloud subscription (OAuth)',
        hasKey: false,
        configured: false,
        loggedIn: false,
        supportsOauth: true,
      },
    );

    from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    const prompt = await s.core.waitForType('oauth_prompt', { from });
    assert.equal(s.core.answerSince(from, prompt)[0]?.message, 'starting OAuth login for Lab Cloud…');
    assert.deepEqual(
      { ...prompt, url: undefined },
      { ...prompt, url: undefined, code: null, message: 'Open the URL to log in.', needs_code: false },
    );
    const [login] = scriptInputs(s);
    assert.equal(login.action, 'login');
    assert.equal(login.headless, false);
    assert.match(login.redirect_uri, /^http:\/\/localhost:\d+\/callback$/);

    // The test is the browser: the authorize endpoint redirects to the core's loopback with code and state.
    const authorize = await fetch(prompt.url, { redirect: 'manual' });
    assert.equal(authorize.status, 302);
    const callback = await fetch(authorize.headers.get('location')!);
    assert.equal(callback.status, 200);
    assertSuccessSequence(await loginSucceeded(s, from));
    assert.ok(existsSync(tokenFile(s)), 'the plugin wrote its token file');
    const config = JSON.parse(readFileSync(join(s.core.home, '.config', 'catalyst-code', 'config.json'), 'utf8'));
    assert.equal(config.activeProvider, 'lab');
    assert.deepEqual(config.providers, [{ name: 'lab', kind: 'openai', base_url: s.model.url, headers: { 'X-Lab-Client': 'catalyst' } }]);
    assert.deepEqual(auth.grants, ['authorization_code', 'refresh_token'], 'model discovery refreshed the short-lived token');

    auth.expiresIn = 3600;
    await s.turn('first');
    assert.deepEqual(auth.grants, ['authorization_code', 'refresh_token', 'refresh_token'], 'the turn refreshed the token again');
    const first = chatRequests(s).at(-1)!;
    assert.equal(first.apiKey, auth.accessTokens.at(-1), 'the request carries the refreshed access token');
    assert.equal(first.headers['x-lab-org'], 'org-7', "the token action's headers are merged in");
    assert.equal(first.headers['x-lab-client'], 'catalyst', "the manifest's headers are sent");

    await s.turn('second');
    assert.equal(auth.grants.length, 3, 'a token valid for longer than 60 s is served from the cache');
    assert.equal(chatRequests(s).at(-1)!.apiKey, auth.accessTokens.at(-1));
    assert.equal(
      scriptInputs(s).filter((i) => i.action === 'token').length,
      2,
      'discovery and the first turn ran token; the cached token runs none',
    );

    from = s.core.events.length;
    s.core.send({ type: 'logout', provider: 'lab' });
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'logged out of lab.', { from });
    assert.ok(!existsSync(tokenFile(s)), 'logout deleted the token file');
    assert.deepEqual(auth.revoked, ['lab'], 'logout ran the clear action');
    from = s.core.events.length;
    s.core.send({ type: 'list_provider_presets' });
    const after = await s.core.waitForType('provider_presets', { from });
    assert.equal(after.presets.find((p: any) => p.id === 'lab').hasKey, false);
    assertNoTokenLeaked(s, auth);
  } finally {
    await s.close();
    await auth.close();
  }
});

test('manual flow: oauth_code completes the pending login; a wrong code restores it; bad commands get errors and the core goes on', async () => {
  const auth = await startOauthServerStandIn();
  const s = await startWithLabPlugin(auth, { CATALYST_CODE_NO_BROWSER: '1' }, 1);
  try {
    let from = s.core.events.length;
    s.core.send({ type: 'oauth_code', code: 'early' });
    assert.equal((await s.core.waitForType('error', { from })).message, NO_PENDING);

    from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'nope' });
    assert.equal(
      (await s.core.waitForType('error', { from })).message,
      `'nope' has no plugin OAuth login — install a plugin that declares oauth.provider_id="nope", or paste an API key via /login`,
    );

    from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    const prompt = await s.core.waitForType('oauth_prompt', { from });
    assert.equal(prompt.needs_code, true);
    assert.equal(prompt.message, 'Open the URL, copy the code, paste it here.');
    await s.core.waitFor((e) => e.type === 'info' && e.message.startsWith('OAuth login awaiting a code.'), { from });
    const [login] = scriptInputs(s);
    assert.equal(login.headless, true);
    assert.ok(!('redirect_uri' in login), 'no loopback when headless');

    const page = await (await fetch(prompt.url)).text();
    const code = /Your code: (\S+)/.exec(page)![1];

    from = s.core.events.length;
    s.core.send({ type: 'oauth_code', code: 'wrong-code' });
    assert.equal(
      (await s.core.waitForType('error', { from })).message,
      'OAuth code exchange failed: OAuth complete failed: the authorization server refused the code: invalid_grant (pending login restored — try /oauth-code again with the correct code)',
    );

    from = s.core.events.length;
    s.core.send({ type: 'oauth_code', code });
    assertSuccessSequence(await loginSucceeded(s, from));
    const complete = scriptInputs(s).filter((i) => i.action === 'complete');
    const [loginAnswer] = loginAnswers(s);
    assert.ok(loginAnswer.pending.state.startsWith('st-'));
    assert.deepEqual(
      complete.map((i) => [i.code, i.pending]),
      [
        ['wrong-code', loginAnswer.pending],
        [code, loginAnswer.pending],
      ],
      'complete gets the pasted code and the pending blob, also after a failed attempt',
    );

    await s.turn('hello');
    assert.equal(chatRequests(s).at(-1)!.apiKey, auth.accessTokens.at(-1));

    from = s.core.events.length;
    s.core.send({ type: 'oauth_code', code });
    assert.equal((await s.core.waitForType('error', { from })).message, NO_PENDING, 'a finished login leaves nothing pending');

    from = s.core.events.length;
    s.core.send({ type: 'disable_plugin', name: 'lab-oauth' });
    const presets = await s.core.waitForType('provider_presets', { from });
    assert.ok(!presets.presets.some((p: any) => p.id === 'lab'), 'a disabled plugin serves no OAuth provider');
    from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    assert.match((await s.core.waitForType('error', { from })).message, /^'lab' has no plugin OAuth login/);
    assertNoTokenLeaked(s, auth);
  } finally {
    await s.close();
    await auth.close();
  }
});

test('a newer login supersedes one still waiting for its redirect', async () => {
  const auth = await startOauthServerStandIn();
  const s = await startWithLabPlugin(auth, { CATALYST_CODE_NO_BROWSER: '0', BROWSER: TRUE_BIN }, 0);
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    await s.core.waitForType('oauth_prompt', { from });
    const second = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'Ignoring a superseded OAuth attempt (a newer /login is in progress).', {
      from,
    });
    const prompt = await s.core.waitForType('oauth_prompt', { from: second });
    const authorize = await fetch(prompt.url, { redirect: 'manual' });
    await fetch(authorize.headers.get('location')!);
    assertSuccessSequence(await loginSucceeded(s, second));
    assert.equal(auth.grants.filter((g) => g === 'authorization_code').length, 1);
  } finally {
    await s.close();
    await auth.close();
  }
});

test('device-code flow: the prompt carries the user code, complete runs at once and polls until the user approves', async () => {
  const auth = await startOauthServerStandIn();
  const s = await startWithLabPlugin(auth, { CATALYST_CODE_NO_BROWSER: '1' }, 1, { device: true });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    const prompt = await s.core.waitForType('oauth_prompt', { from });
    assert.match(prompt.code, /^UC-\d+$/);
    assert.equal(prompt.needs_code, false, 'nothing to paste: the core completes by itself');
    assert.equal(prompt.message, 'Open the URL, approve, then paste the code via /oauth-code.', "upstream's headless default");
    // The user enters the code on the verification page.
    const page = await fetch(`${prompt.url}?user_code=${encodeURIComponent(prompt.code)}`);
    assert.equal(page.status, 200);
    assertSuccessSequence(await loginSucceeded(s, from));
    assert.ok(!s.core.events.slice(from).some((e) => e.type === 'info' && e.message.startsWith('OAuth login awaiting a code')));
    assert.deepEqual(auth.grants, ['device_code']);
    await s.turn('hello');
    assert.equal(chatRequests(s).at(-1)!.apiKey, auth.accessTokens.at(-1));
    assertNoTokenLeaked(s, auth);
  } finally {
    await s.close();
    await auth.close();
  }
});

test('a redirect with another state fails the login (CSRF) and completes nothing', async () => {
  const auth = await startOauthServerStandIn();
  const s = await startWithLabPlugin(auth, { CATALYST_CODE_NO_BROWSER: '0', BROWSER: TRUE_BIN }, 0);
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'login_oauth', preset: 'lab' });
    await s.core.waitForType('oauth_prompt', { from });
    const [login] = scriptInputs(s);
    const forged = await fetch(`${login.redirect_uri}?code=stolen&state=forged`);
    assert.equal(forged.status, 400, 'the loopback page says the login failed');
    const error = await s.core.waitForType('error', { from });
    assert.equal(error.message, 'OAuth login failed: the OAuth redirect carried a different state (possible CSRF); try /login again');
    assert.ok(!scriptInputs(s).some((i) => i.action === 'complete'), 'the forged code never reached complete');
    assert.ok(!existsSync(tokenFile(s)));
  } finally {
    await s.close();
    await auth.close();
  }
});

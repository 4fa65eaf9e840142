import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  REDACTED,
  SecretScrubber,
  containsSecretKey,
  jsonEscaped,
  redactSecrets,
  replaceNeedles,
  scrubDeep,
  scrubText,
  secretNeedles,
} from './redact';

test('redactSecrets replaces secret-named keys at any depth and leaves the input untouched', () => {
  const input = {
    type: 'x',
    api_key: 'sk-1',
    nested: { Authorization: 'Bearer abc', list: [{ password: 'p', keep: 'v' }], access_token: 't' },
    client_secret: 's',
    refresh_token: 'r',
    id_token: 'i',
    text: 'api_key',
  };
  const out = redactSecrets(input);
  assert.deepEqual(out, {
    type: 'x',
    api_key: REDACTED,
    nested: { Authorization: REDACTED, list: [{ password: REDACTED, keep: 'v' }], access_token: REDACTED },
    client_secret: REDACTED,
    refresh_token: REDACTED,
    id_token: REDACTED,
    text: 'api_key',
  });
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

const KEY = 'sk-live-MARKER-0123456789';

test('secretNeedles: secrets of 4+ chars and their JSON-escaped forms, deduplicated, longest first', () => {
  assert.deepEqual(secretNeedles(['abcd', 'abc', '', 'abcd', 'longer-one']), ['longer-one', 'abcd']);
  assert.deepEqual(secretNeedles(['a"b\\c']), ['a\\"b\\\\c', 'a"b\\c']);
  assert.deepEqual(secretNeedles([undefined as unknown as string, 42 as unknown as string]), []);
  assert.equal(jsonEscaped('a"b\n'), 'a\\"b\\n');
});

test('replaceNeedles replaces every occurrence, a secret containing another whole', () => {
  assert.equal(replaceNeedles('x abcd-long y abcd', secretNeedles(['abcd', 'abcd-long'])), `x ${REDACTED} y ${REDACTED}`);
  assert.equal(replaceNeedles('nothing here', secretNeedles([KEY])), 'nothing here');
});

test('scrubDeep replaces secrets in every string at any depth, keys included, copying only what changes', () => {
  const needles = secretNeedles([KEY]);
  const untouched = { keep: ['x', { y: 'z' }] };
  const input = {
    type: 'history',
    messages: [
      { role: 'assistant', content: `your key is ${KEY}` },
      { role: 'user', content: 'hi' },
    ],
    args: JSON.stringify({ content: `key=${KEY}\n` }),
    [`file-${KEY}`]: 1,
    untouched,
    n: 3,
    flag: true,
    nothing: null,
  };
  const out = scrubDeep(input, needles);
  assert.ok(!JSON.stringify(out).includes(KEY));
  assert.equal(out.messages[0].content, `your key is ${REDACTED}`);
  assert.equal(out.messages[1], input.messages[1], 'unchanged branches are shared, not copied');
  assert.equal(out.untouched, untouched);
  assert.equal(JSON.parse(out.args).content, `key=${REDACTED}\n`);
  assert.equal((out as Record<string, unknown>)[`file-${REDACTED}`], 1);
  assert.equal(input.messages[0].content, `your key is ${KEY}`, 'the input is not mutated');
  assert.equal(scrubDeep(untouched, needles), untouched, 'no match: the same reference');
  assert.equal(scrubDeep(input, []), input, 'no secret: the same reference');
  assert.equal(scrubDeep(`a ${KEY}`, needles), `a ${REDACTED}`);
});

test('scrubDeep finds a secret with JSON-special characters inside a JSON-in-string value (tool-call args)', () => {
  const secret = 'pa"ss\\w0rd';
  const args = JSON.stringify({ command: `echo '${secret}'` });
  const out = scrubDeep({ args }, secretNeedles([secret]));
  assert.equal(JSON.parse(out.args).command, `echo '${REDACTED}'`);
});

test('SecretScrubber.serialize: no secret or no hit returns the same value and one JSON text; a hit is scrubbed', () => {
  let secrets: string[] = [];
  const scrubber = new SecretScrubber(() => secrets);
  const event = { type: 'delta', text: `key ${KEY}` };
  assert.equal(scrubber.active, false);
  const plain = scrubber.serialize(event);
  assert.equal(plain.value, event);
  assert.equal(plain.json, JSON.stringify(event));
  secrets = [KEY];
  assert.equal(scrubber.active, true);
  const hit = scrubber.serialize(event);
  assert.deepEqual(hit.value, { type: 'delta', text: `key ${REDACTED}` });
  assert.equal(hit.json, JSON.stringify(hit.value));
  const miss = { type: 'info', message: 'fine' };
  assert.equal(scrubber.serialize(miss).value, miss);
  assert.equal(scrubber.text(`a${KEY}b`), `a${REDACTED}b`);
  assert.deepEqual(scrubber.value([KEY]), [REDACTED]);
  secrets = [];
  assert.equal(scrubber.serialize(event).value, event, 'a removed key is no longer looked for');
});

test('SecretScrubber: a secret with a surrogate half is still found (the JSON pre-check is bypassed)', () => {
  const secret = '\ud83d\ude00-emoji-key'.slice(1); // starts with a lone low surrogate
  const scrubber = new SecretScrubber(() => [secret]);
  const out = scrubber.serialize({ text: `x\ud83d${secret}` });
  assert.ok(!(out.value.text as string).includes(secret));
});

test('scrubText also removes the JSON-escaped form of a known secret', () => {
  const secret = 'my"secret"value';
  assert.equal(scrubText(JSON.stringify({ k: secret }), [secret]), `{"k":"${REDACTED}"}`);
});

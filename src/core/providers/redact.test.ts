import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EXCERPT_MAX_CHARS, errorBodyExcerpt, providerSecrets, redactSecrets } from './redact';

describe('redaction', () => {
  test('replaces the key, sk- tokens and Bearer credentials', () => {
    const out = redactSecrets('key=my-secret-key auth: Bearer abc.def-123 other sk-proj-AbCdEf123456', ['my-secret-key']);
    assert.equal(out, 'key=[REDACTED] auth: [REDACTED] other [REDACTED]');
  });

  test('secrets include the key and secret-looking header values, not others', () => {
    const secrets = providerSecrets({
      name: 'p',
      kind: 'openai',
      baseUrl: 'http://x',
      apiKey: 'KEY1',
      headers: { 'X-Api-Key': 'HDR2', 'X-Title': 'visible' },
    });
    assert.deepEqual(secrets.sort(), ['HDR2', 'KEY1']);
  });

  test('the excerpt prefers the JSON error message, is one line, redacted and at most 300 chars', () => {
    assert.equal(errorBodyExcerpt('{"error":{"type":"auth","message":"bad key KEY1"}}', ['KEY1']), 'auth: bad key [REDACTED]');
    const long = errorBodyExcerpt(`${'x'.repeat(290)} KEY1\n${'y'.repeat(500)}`, ['KEY1']);
    assert.ok(long.length <= EXCERPT_MAX_CHARS);
    assert.ok(!long.includes('KEY1') && !long.includes('\n'));
  });

  test('a key cut by the excerpt limit is still not leaked', () => {
    const key = 'zz-very-long-secret-key-value';
    const out = errorBodyExcerpt(`${'a'.repeat(EXCERPT_MAX_CHARS - 10)}${key}`, [key]);
    assert.ok(!out.includes(key.slice(0, 8)), out);
  });
});

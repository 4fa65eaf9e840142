import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isKeylessLocal, isLoopbackUrl } from './keylessLocal';

describe('isLoopbackUrl', () => {
  test('localhost, 127.0.0.0/8 and ::1 are loopback, with any port, path or letter case', () => {
    for (const url of [
      'http://localhost:11434/v1',
      'http://LocalHost/v1',
      'https://localhost',
      'http://127.0.0.1:11434/v1',
      'http://127.0.0.1',
      'http://127.255.255.254:8080/v1',
      'http://127.1:1234/v1',
      'http://0x7f000001/v1',
      'http://[::1]:8000/v1',
      'http://[0:0:0:0:0:0:0:1]/v1',
    ]) {
      assert.equal(isLoopbackUrl(url), true, url);
    }
  });

  test('other hosts are not: 0.0.0.0, LAN and public addresses, names that only contain "localhost" or 127', () => {
    for (const url of [
      'http://0.0.0.0:11434/v1',
      'http://192.168.1.20:11434/v1',
      'http://10.0.0.5/v1',
      'http://128.0.0.1/v1',
      'http://[::2]/v1',
      'http://[::]/v1',
      'https://api.openai.com/v1',
      'http://localhost.example.com/v1',
      'http://mylocalhost/v1',
      'http://127.0.0.1.nip.io/v1',
      'http://ollama.local:11434/v1',
      'http://user:pw@example.com/?localhost',
    ]) {
      assert.equal(isLoopbackUrl(url), false, url);
    }
  });

  test('a string that is not a URL is not loopback', () => {
    assert.equal(isLoopbackUrl('localhost:11434'), false);
    assert.equal(isLoopbackUrl(''), false);
  });
});

describe('isKeylessLocal', () => {
  test('a loopback base URL without api_key_env is keyless local', () => {
    assert.equal(isKeylessLocal({ baseUrl: 'http://127.0.0.1:11434/v1' }), true);
  });

  test('a provider that names a key variable requires it, even on loopback', () => {
    assert.equal(isKeylessLocal({ baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'LOCAL_LLM_KEY' }), false);
  });

  test('a remote base URL is never keyless local', () => {
    assert.equal(isKeylessLocal({ baseUrl: 'https://openrouter.ai/api/v1' }), false);
    assert.equal(isKeylessLocal({ baseUrl: 'http://0.0.0.0:11434/v1' }), false);
  });
});

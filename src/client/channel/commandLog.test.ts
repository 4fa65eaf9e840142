import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeCommand } from './commandLog';

test('secret-bearing commands are logged by type only', () => {
  const secret = 'sk-SECRET-123';
  for (const line of [
    describeCommand({ type: 'set_key', api_key: secret, provider: 'p' }),
    describeCommand({ type: 'login', preset: 'openrouter', api_key: secret }),
    describeCommand({ type: 'sudo_reply', request_id: 'sudo-1', approved: true, password: secret }),
    describeCommand({ type: 'add_custom_provider', name: 'x', base_url: 'http://h', api_key: secret }),
    describeCommand({ type: 'set_search_key', provider: 'exa', api_key: secret }),
  ]) {
    assert.ok(!line.includes(secret), line);
    assert.match(line, /^→ [a-z_]+$/);
  }
});

test('other commands are logged with a bounded preview', () => {
  assert.equal(describeCommand({ type: 'abort' }), '→ {"type":"abort"}');
  const long = describeCommand({ type: 'send', prompt: 'x'.repeat(1000), model: 'm' });
  assert.ok(long.length < 400);
  assert.match(long, /chars\)$/);
});

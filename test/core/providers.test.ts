import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_KEY } from '../support/coreScenario';

test('429 and 504 are retried with http_retry events, then the answer streams', async () => {
  const s = await startScenario({ script: [{ status: 429, retryAfter: 0 }, { status: 504 }, { steps: [{ text: 'finally' }] }] });
  try {
    const events = await s.turn('hi', { timeoutMs: 30000 });
    const retries = events.filter((e) => e.type === 'http_retry');
    assert.deepEqual(
      retries.map((r) => r.status),
      [429, 504],
    );
    assert.deepEqual(
      retries.map((r) => r.attempt),
      [1, 2],
    );
    assert.ok(retries.every((r) => typeof r.backoff_ms === 'number' && r.run_id));
    assert.equal(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'finally',
    );
    assert.equal(events.filter((e) => e.type === 'error').length, 0);
  } finally {
    await s.close();
  }
});

test('a stream dropped mid-way is retried with discard_partial and the final text is whole', async () => {
  const s = await startScenario({
    script: [{ steps: [{ text: 'partial answer ' }, { cut: true }] }, { steps: [{ text: 'complete answer' }] }],
  });
  try {
    const events = await s.turn('hi', { timeoutMs: 30000 });
    const retry = events.find((e) => e.type === 'http_retry');
    assert.equal(retry.discard_partial, true);
    assert.equal('status' in retry, false, `a dropped stream has no HTTP status, and upstream sends none: ${JSON.stringify(retry)}`);
    assert.equal(retry.reason, 'retryable stream error after partial output', "upstream's words, which its clients match");
    assert.match(retry.detail, /scripted/, 'ours say what happened, naming the provider');
    assert.ok(events.indexOf(retry) > events.findIndex((e) => e.type === 'delta'), 'the partial output came first');
    assert.equal(events.filter((e) => e.type === 'error').length, 0, 'the turn recovered');
    const afterRetry = events
      .slice(events.indexOf(retry))
      .filter((e) => e.type === 'delta')
      .map((e) => e.text)
      .join('');
    assert.equal(afterRetry, 'complete answer');
    assert.equal(s.model.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 2);
  } finally {
    await s.close();
  }
});

test('an auth error ends the turn with error then done, and its message contains no key', async () => {
  const s = await startScenario({
    script: [{ status: 401, body: { error: { message: `Incorrect API key provided: ${TEST_KEY}` } } }],
    args: ['--debug-log', 'DEBUGLOG'],
  });
  try {
    const events = await s.turn('hi');
    const err = events.find((e) => e.type === 'error');
    assert.equal(err.code, 'auth_error');
    assert.match(err.message, /401/);
    assert.ok(!err.message.includes(TEST_KEY) && !err.message.includes('SECRETMARKER'), err.message);
    assert.equal(events.at(-1).type, 'done');
    assert.ok(!s.core.rawStdout.join('\n').includes('SECRETMARKER'));
    assert.ok(!s.core.stderr.join('').includes('SECRETMARKER'));
    const debugLog = readFileSync(join(s.core.workspace, 'DEBUGLOG'), 'utf8');
    assert.ok(debugLog.length > 0 && !debugLog.includes('SECRETMARKER'));
    assert.equal(s.model.requests.at(-1)!.headers.authorization, `Bearer ${TEST_KEY}`, 'the key did reach the provider');
  } finally {
    await s.close();
  }
});

test('a secret sent by the client (set_key, login) never comes back on stdout, and login persists with mode 0600', async () => {
  const s = await startScenario({ args: ['--debug-log', 'DEBUGLOG'] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'set_key', provider: 'scripted', api_key: 'sk-runtime-SECRETMARKER-2' });
    await s.core.waitForType('authed', { from });
    s.core.send({ type: 'login', preset: 'openrouter', api_key: 'sk-or-SECRETMARKER-3' });
    const info = await s.core.waitFor((e) => e.type === 'info' && /logged into/.test(e.message), { from });
    await s.core.waitForType('models', { from: s.core.events.indexOf(info), timeoutMs: 30000 });
    assert.ok(!s.core.rawStdout.join('\n').includes('SECRETMARKER'));
    assert.ok(!readFileSync(join(s.core.workspace, 'DEBUGLOG'), 'utf8').includes('SECRETMARKER'));
    const cfgDir = join(s.core.home, '.config', 'catalyst-code');
    assert.ok(readdirSync(cfgDir).includes('config.json'));
    const { statSync } = await import('node:fs');
    assert.equal(statSync(join(cfgDir, 'config.json')).mode & 0o777, 0o600);
    assert.ok(readFileSync(join(cfgDir, 'config.json'), 'utf8').includes('openrouter'));
  } finally {
    await s.close();
  }
});

test('the Anthropic Messages dialect streams text, thinking and a tool call', async () => {
  const s = await startScenario({
    kind: 'anthropic',
    approval: 'never',
    files: { 'x.txt': 'content of x\n' },
    script: [
      { steps: [{ reasoning: 'I should read x.' }, { toolCall: { id: 'toolu_1', name: 'read_file', arguments: { path: 'x.txt' } } }] },
      { steps: [{ text: 'x says: content of x' }] },
    ],
  });
  try {
    const events = await s.turn('what is in x?');
    assert.equal(
      events
        .filter((e) => e.type === 'thinking')
        .map((e) => e.text)
        .join(''),
      'I should read x.',
    );
    assert.equal(events.find((e) => e.type === 'tool_result').status, 'success');
    assert.equal(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'x says: content of x',
    );
    const second = s.model.requests.filter((r) => r.path.endsWith('/messages'))[1];
    assert.equal(second.headers['x-api-key'], TEST_KEY);
    const toolResult = second.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    assert.equal(toolResult.tool_use_id, 'toolu_1');
  } finally {
    await s.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CORE_JS } from '../support/coreProcess';
import { startScenario } from '../support/coreScenario';

test('v2 init: ready, then protocol_hello with our capabilities; every event is stamped', async () => {
  const s = await startScenario();
  try {
    const { ready, hello } = await s.core.handshake();
    assert.equal(hello.protocol_version, 2);
    assert.equal(hello.version, '0.2.0');
    assert.equal(hello.min_client, '0.2.0');
    assert.equal(hello.client_protocol_version, 2);
    assert.deepEqual(hello.client, {
      name: 'test',
      version: '0.0.0',
      capabilities: [
        'run_ids',
        'session_ids',
        'event_sequence',
        'checkpoint_files',
        'subagent_stream',
        'project_rules',
        'approval_escalations',
      ],
    });
    for (const cap of [
      'protocol_v2',
      'run_ids',
      'session_ids',
      'event_sequence',
      'stale_event_rejection',
      'checkpoint',
      'file_change',
      'allow_pattern',
      'approval_edited_content',
      'worktree',
      'worktree_review',
      'intercom',
      'project_rules',
      'cost_update',
    ]) {
      assert.ok(hello.capabilities.includes(cap), `capability ${cap}`);
    }
    assert.ok(!hello.capabilities.includes('audit'), "upstream's audit is not implemented, so not claimed");
    assert.ok(s.core.events.indexOf(ready) < s.core.events.indexOf(hello), 'ready precedes protocol_hello');
    assert.equal(ready.provider, 'scripted');
    assert.deepEqual(ready.providers, ['scripted'], 'the configured providers by name, as upstream sends them');
    assert.equal(ready.authed, true);
    assert.equal(ready.approval, 'destructive');
    assert.deepEqual(
      ready.models.map((m: any) => m.id),
      ['test-model'],
    );
    for (const e of s.core.events) {
      assert.equal(e.protocol_version, 2);
      assert.match(e.session_id, /^session-[0-9a-f]{16}-[0-9a-f]{16}$/);
    }
    assert.ok(!s.core.rawStdout.join('\n').includes('SECRETMARKER'), 'the API key never reaches stdout');
  } finally {
    await s.close();
  }
});

test('legacy bare init still gets ready and protocol_hello', async () => {
  const s = await startScenario({ handshake: false });
  try {
    s.core.send({ type: 'init' });
    const ready = await s.core.waitForType('ready');
    const hello = await s.core.waitForType('protocol_hello');
    assert.equal(hello.client_protocol_version, 1);
    assert.ok(Array.isArray(ready.models));
  } finally {
    await s.close();
  }
});

test('malformed, oversized, non-UTF-8, unknown and unimplemented commands are answered and the core keeps running', async () => {
  const s = await startScenario();
  try {
    const from = s.core.events.length;
    s.core.sendRaw('this is not json\n');
    s.core.sendRaw('[1,2,3]\n');
    s.core.sendRaw('{"no_type": true}\n');
    s.core.sendRaw(Buffer.concat([Buffer.from('{"type":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
    s.core.sendRaw('{"type":"x","pad":"' + 'a'.repeat(9 * 1024 * 1024) + '"}\n');
    s.core.send({ type: 'definitely_not_a_command', extra: 1 });
    s.core.send({ type: 'login_oauth', preset: 'nowhere' });
    s.core.send({ type: 'approve', request_id: 'apv-99-nope', decision: 'yes' });
    s.core.send({ type: 'set_provider', name: 'no-such-provider' });
    s.core.send({ type: 'login', preset: 'no-such-preset', api_key: 'k' });
    s.core.send({ type: 'logout', provider: 'nobody' });
    s.core.send({ type: 'stats' });
    await s.core.waitForType('stats', { from });
    const errors = s.core.ofType('error', from);
    const codes = errors.map((e) => e.code);
    assert.equal(codes.filter((c) => c === 'invalid_command').length, 5, JSON.stringify(errors));
    assert.ok(errors.some((e) => /^bad command:/.test(e.message)));
    assert.ok(errors.some((e) => /exceeds/.test(e.message)));
    assert.equal(codes.filter((c) => c === 'unsupported').length, 1);
    // upstream's core exits after this one (research A §8.3); ours answers and goes on.
    assert.ok(errors.some((e) => /^'nowhere' has no plugin OAuth login/.test(e.message)));
    assert.ok(errors.some((e) => /unknown, expired, or already resolved approval request: apv-99-nope/.test(e.message)));
    assert.ok(errors.some((e) => /unknown provider 'no-such-provider'; not switching/.test(e.message)));
    assert.ok(errors.some((e) => /unknown provider preset 'no-such-preset'/.test(e.message)));
    assert.ok(errors.some((e) => /not logged into 'nobody'/.test(e.message)));
    assert.equal(s.core.exitCode, undefined, 'still running');
  } finally {
    await s.close();
  }
});

test('--help documents the flags and --version prints the version', () => {
  const help = execFileSync(process.execPath, [CORE_JS, '--help'], { encoding: 'utf8' });
  for (const flag of [
    '--workspace',
    '--approval',
    '--session',
    '--base-url',
    '--provider',
    '--model',
    '--config',
    '--bash-timeout',
    '--idle-timeout',
    '--debug-log',
    '--version',
  ]) {
    assert.ok(help.includes(flag), `help mentions ${flag}`);
  }
  assert.equal(execFileSync(process.execPath, [CORE_JS, '--version'], { encoding: 'utf8' }).trim(), 'catalyst-code-core 0.2.0');
});

test('stdin EOF shuts the core down cleanly', async () => {
  const s = await startScenario();
  await s.core.close();
  assert.equal(s.core.exitCode, 0);
  await s.model.close();
  s.core.cleanup();
});

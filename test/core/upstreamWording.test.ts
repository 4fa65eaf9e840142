import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, TEST_MODEL } from '../support/coreScenario';

/** Upstream's clients show these texts and may match on them: each is upstream's wording (core/src/commands/dispatcher.rs). */
test("error and info messages use upstream's wording", async () => {
  const s = await startScenario({ args: ['--session', 's.jsonl'], script: [{ steps: [{ text: 'hi' }] }] });
  try {
    await s.turn('hello');
    const answer = async (cmd: object, type: 'error' | 'info') => {
      const from = s.core.events.length;
      s.core.send(cmd);
      return (await s.core.waitForType(type, { from })).message;
    };
    assert.equal(await answer({ type: 'ask_reply', request_id: 'ask-9', answers: {} }, 'error'), 'no pending ask for id ask-9');
    assert.equal(
      await answer({ type: 'sudo_reply', request_id: 'sudo-9', approved: false }, 'error'),
      'no pending sudo request for id sudo-9',
    );
    assert.equal(
      await answer({ type: 'approve', request_id: 'apv-9-x', decision: 'yes' }, 'error'),
      'unknown, expired, or already resolved approval request: apv-9-x',
    );
    assert.equal(await answer({ type: 'set_config', key: 'no_such_key', value: 1 }, 'error'), 'unknown config key: no_such_key');
    assert.equal(await answer({ type: 'save_memory', text: '  ' }, 'error'), "save_memory: 'text' must not be empty");
    assert.equal(
      await answer({ type: 'delete_session', path: 's.jsonl' }, 'error'),
      'cannot delete the active session; start or load another first',
    );
    assert.equal(await answer({ type: 'send', prompt: 'x', model: 'no-such-model' }, 'error'), 'unknown model: no-such-model');
    const from = s.core.events.length;
    const started = await answer({ type: 'new_session' }, 'info');
    assert.equal(started, `started new session: ${s.core.ofType('session_changed', from)[0].path}`);
  } finally {
    await s.close();
  }
});

/** Upstream decodes each command into a typed struct: a field of the wrong type fails the line with serde's words. */
test('a send or steer whose fields have the wrong type, or lack one, is "bad command: …" and starts nothing', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'still here' }] }] });
  try {
    const refusal = async (cmd: object) => {
      const from = s.core.events.length;
      s.core.send(cmd);
      const error = await s.core.waitForType('error', { from });
      assert.ok(error.protocol_version === 2 && error.session_id, 'stamped like every event');
      return [error.code, error.message];
    };
    const bad = (message: string) => ['invalid_command', `bad command: ${message}`];
    assert.deepEqual(await refusal({ type: 'send', prompt: 17, model: TEST_MODEL }), bad('invalid type: integer `17`, expected a string'));
    assert.deepEqual(await refusal({ type: 'send', prompt: 'hi' }), bad('missing field `model`'));
    assert.deepEqual(
      await refusal({ type: 'send', prompt: 'hi', model: TEST_MODEL, images: ['a.png', false] }),
      bad('invalid type: boolean `false`, expected a string'),
    );
    assert.deepEqual(await refusal({ type: 'steer', prompt: ['hi'], model: TEST_MODEL }), bad('invalid type: sequence, expected a string'));
    assert.deepEqual(
      await refusal({ type: 'send', prompt: 'hi', model: TEST_MODEL, reasoning_effort: { level: 'high' } }),
      bad('invalid type: map, expected a string'),
    );
    const from = s.core.events.length;
    s.core.send({ type: 'runtime_status' });
    const status = await s.core.waitForType('runtime_status', { from });
    assert.equal(status.run_id, null, 'no refused command started a run');
    assert.equal(s.model.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0, 'nor asked the model');
    const turn = await s.turn('hello');
    const text = turn
      .filter((e) => e.type === 'delta')
      .map((e) => e.text)
      .join('');
    assert.equal(text, 'still here', 'the core goes on');
  } finally {
    await s.close();
  }
});

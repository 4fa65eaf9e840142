import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario } from '../support/coreScenario';

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

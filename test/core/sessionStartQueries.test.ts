import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';

/** What upstream's web UI sends after `ready` on every session, and what the TUI adds. */
const WEB_SESSION_START = ['list_sessions', 'stats', 'list_memory', 'list_plugins', 'get_vision_config', 'list_skills', 'list_checkpoints'];
const TUI_SESSION_START = ['list_plugin_commands'];

test("the queries upstream's clients send on every session answer without an error", async () => {
  const s = await startScenario({ args: ['--session', 's.jsonl'] });
  try {
    const from = s.core.events.length;
    for (const type of [...WEB_SESSION_START, ...TUI_SESSION_START, 'goal_status']) s.core.send({ type });
    // Commands are answered in order, so this reply comes after every answer above.
    s.core.send({ type: 'runtime_status' });
    await s.core.waitForType('runtime_status', { from });
    assert.deepEqual(s.core.ofType('error', from), []);
  } finally {
    await s.close();
  }
});

/** The handshake resolves on protocol_hello; init then still lists skills and agents, and a slow discovery sends `models` later. */
async function initSettled(core: Scenario['core']): Promise<void> {
  if (core.ofType('ready')[0].models.length === 0) await core.waitForType('models');
  const from = core.events.length;
  core.send({ type: 'runtime_status' }); // answered after init's handler has finished
  await core.waitForType('runtime_status', { from });
}

test("list_plugins, get_vision_config and goal_status answer with upstream's default shapes", async () => {
  const s = await startScenario();
  try {
    await initSettled(s.core);
    let from = s.core.events.length;
    s.core.send({ type: 'list_plugins' });
    await s.core.waitForType('plugin_commands', { from });
    assert.deepEqual(
      s.core.answerSince(from).map((e) => [e.type, e.plugins ?? e.commands]),
      [
        ['plugins_list', []],
        ['plugin_commands', []],
      ],
    );

    from = s.core.events.length;
    s.core.send({ type: 'get_vision_config' });
    const vision = await s.core.waitForType('vision_config', { from });
    assert.deepEqual([vision.enabled, vision.vision_model, vision.vision_models], [true, null, []], 'no vision.json: the defaults');
    assert.deepEqual(
      vision.models.map((m: any) => [m.id, m.vision, m.provider, m.cost_rank]),
      [[TEST_MODEL, false, 'scripted', 60]],
    );

    from = s.core.events.length;
    s.core.send({ type: 'goal_status' });
    s.core.send({ type: 'runtime_status' });
    await s.core.waitForType('runtime_status', { from });
    const answers = s.core.answerSince(from);
    assert.deepEqual(
      answers.map((e) => e.type),
      ['goal_state', 'runtime_status'],
      'no goal_plan: there is no plan',
    );
    const goal = answers[0];
    assert.deepEqual([goal.id, goal.goal, goal.phase, goal.prompts, goal.active_run_ids, goal.error], ['', '', 'idle', [], [], null]);
  } finally {
    await s.close();
  }
});

test('commands that act on features this core lacks still answer unsupported', async () => {
  const s = await startScenario();
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'reset_sandbox' });
    const error = await s.core.waitForType('error', { from });
    assert.equal(error.code, 'unsupported');
  } finally {
    await s.close();
  }
});

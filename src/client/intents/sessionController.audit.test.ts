// What the core did and the UI could not reach (issue #18), against the real core: !cmd / !!cmd, the memory list and
// the live settings (set_config).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedResponse } from '../../../test/support/scriptedModelServer';
import type { SessionState } from '../../shared/sessionState';
import { realCoreEnv, untilState as until, useRealCoreControllers, type RealCoreEnv } from '../../../test/support/realCoreHarness';
import type { SessionController } from './sessionController';

const startController = useRealCoreControllers();

async function start(script: ScriptedResponse[] = []): Promise<{ env: RealCoreEnv; controller: SessionController }> {
  const env = await realCoreEnv(script);
  return { env, controller: await startController(env) };
}

const bashItems = (s: SessionState) => s.items.filter((i) => i.kind === 'bash');
const notices = (s: SessionState) => s.items.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));

test('!cmd and !!cmd show their output card; the !! one is marked as kept out of the context', { timeout: 30_000 }, async () => {
  const { env, controller } = await start();
  writeFileSync(join(env.workspace, 'marker.txt'), 'marker-42\n');
  assert.equal(controller.userBash('cat marker.txt'), true);
  await until(controller, (s) => bashItems(s).length === 1);
  assert.equal(controller.userBash('cat missing.txt', true), true);
  const s = await until(controller, (st) => bashItems(st).length === 2);
  const [kept, excluded] = bashItems(s);
  assert.deepEqual(kept.kind === 'bash' && [kept.command, kept.ok, kept.output.trim(), kept.excludedFromContext], [
    'cat marker.txt',
    true,
    'marker-42',
    undefined,
  ]);
  assert.ok(excluded.kind === 'bash' && !excluded.ok && excluded.excludedFromContext === true, JSON.stringify(excluded));
  assert.match(excluded.kind === 'bash' ? excluded.output : '', /No such file[\s\S]*\[exit code 1\]/);
});

test('a shell command during a turn is refused with a notice and never reaches the core', { timeout: 30_000 }, async () => {
  const { env, controller } = await start([{ holdUntil: 'turn', steps: [{ text: 'Done.' }] }]);
  assert.equal(controller.sendPrompt('hello', []), true);
  await env.model.held('turn');
  assert.equal(controller.userBash('echo during-the-turn'), false);
  assert.ok(
    notices(controller.state).some((t) => /turn is running/.test(t)),
    JSON.stringify(notices(controller.state)),
  );
  env.model.release('turn');
  await until(controller, (s) => s.run.status === 'idle' && s.items.some((i) => i.kind === 'assistant'));
  // The next command is the first the core runs: the refused one never ran.
  assert.equal(controller.userBash('echo after-the-turn'), true);
  const s = await until(controller, (st) => bashItems(st).length > 0);
  assert.deepEqual(
    bashItems(s).map((i) => i.kind === 'bash' && i.command),
    ['echo after-the-turn'],
  );
  // The core's own refusal (its wording) would have come before that card.
  assert.ok(!notices(s).some((t) => /a turn is running; run the command/.test(t)), JSON.stringify(notices(s)));
});

test("the memory list comes from the core; forget removes the entry from the core's next answer", { timeout: 30_000 }, async () => {
  const { controller } = await start();
  assert.deepEqual(await controller.fetchMemory(), []);
  assert.equal(controller.saveMemory('remember the e2e marker'), true);
  await until(controller, (s) => notices(s).includes('Saved to memory: remember the e2e marker'));
  const listed = await controller.fetchMemory();
  assert.deepEqual(
    listed?.map((e) => [e.text, e.scope]),
    [['remember the e2e marker', 'workspace']],
  );
  assert.equal(await controller.forgetMemory(listed![0].id), 'memory forgotten');
  assert.deepEqual(await controller.fetchMemory(), []);
  assert.equal(await controller.forgetMemory(listed![0].id), 'no memory with that id');
});

test('a live setting goes to the running core as set_config, and again to the core after a restart', { timeout: 30_000 }, async () => {
  const { controller } = await start();
  assert.equal(controller.setRuntimeConfig({ key: 'bash_timeout_secs', value: 7 }), true);
  await until(controller, (s) => notices(s).includes('Shell commands now time out after 7 s.'));
  assert.equal(controller.setRuntimeConfig({ key: 'auto_compact', value: false }), true);
  await until(controller, (s) => notices(s).includes('Auto-compact is off.'));
  const count = (s: SessionState, text: string) => notices(s).filter((t) => t === text).length;
  await controller.restart();
  // The restarted core was launched with the old flags: both settings are sent to it again.
  const s = await until(controller, (st) => count(st, 'Auto-compact is off.') === 2);
  assert.equal(count(s, 'Shell commands now time out after 7 s.'), 2);
});

// The skills intents against the real core: the state's list, /skills, /skill (apply_skill) and a marketplace answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realCoreEnv, untilState, useRealCoreControllers, type RealCoreEnv } from '../../../test/support/realCoreHarness';
import { SessionController } from './sessionController';

const startController = useRealCoreControllers();

async function startWithSkill(): Promise<{ env: RealCoreEnv; controller: SessionController }> {
  const env = await realCoreEnv([{ steps: [{ text: 'Linted.' }] }]);
  mkdirSync(join(env.workspace, '.catalyst-code', 'skills', 'lint'), { recursive: true });
  writeFileSync(
    join(env.workspace, '.catalyst-code', 'skills', 'lint', 'SKILL.md'),
    '---\ndescription: Lint the house way\n---\nRun eslint --max-warnings 0.\n',
  );
  const controller = await startController(env);
  return { env, controller };
}

test('the skills of init are in the state with their scope; /skills lists them in the chat', { timeout: 30_000 }, async () => {
  const { controller } = await startWithSkill();
  const s = await untilState(controller, (st) => !!st.skills?.length);
  assert.deepEqual(
    s.skills?.map((k) => [k.name, k.scope, k.description]),
    [['lint', 'project', 'Lint the house way']],
  );
  assert.equal(controller.runSlash('skills', ''), true);
  const listed = await untilState(controller, (st) => st.items.some((i) => i.kind === 'notice' && i.text.startsWith('Skills:')));
  const notice = listed.items.find((i) => i.kind === 'notice' && i.text.startsWith('Skills:'));
  assert.equal(notice?.kind === 'notice' && notice.text, 'Skills:\nlint (project) — Lint the house way');
  assert.deepEqual(
    (await controller.fetchSkills())?.map((k) => k.name),
    ['lint'],
  );
  const state = await controller.skillMarketplace({ type: 'list_marketplace_skills' }, [
    'skill_marketplace_state',
    'skill_marketplace_error',
  ]);
  assert.deepEqual(
    [state?.type, (state as { disclaimer_accepted?: unknown } | undefined)?.disclaimer_accepted],
    ['skill_marketplace_state', false],
  );
});

test('/skill:<name> runs apply_skill: the chat shows the command, the model gets the skill', { timeout: 30_000 }, async () => {
  const { env, controller } = await startWithSkill();
  assert.equal(controller.runSlash('skill', 'lint only src/'), true);
  const s = await untilState(
    controller,
    (st) => st.run.status === 'idle' && st.items.some((i) => i.kind === 'assistant' && i.text.includes('Linted.')),
  );
  assert.deepEqual(
    s.items.flatMap((i) => (i.kind === 'user' ? [i.text] : [])),
    ['/skill:lint only src/'],
  );
  const chat = env.model.requests.find((r) => r.body?.messages);
  const user = chat?.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content;
  assert.ok(user.includes('<skill name="lint">\nRun eslint --max-warnings 0.\n</skill>') && user.endsWith('Task: only src/'), user);
});

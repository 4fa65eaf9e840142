// Skills over stdio (issue #15): discovery in both scopes, `skills` on init and list_skills, apply_skill's turn, the
// manifest in the main system prompt, and a subagent's `skills:` block — the real core against the scripted model server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';

const SCENARIO = { timeout: 60_000 };

const PROJECT_LINT =
  '---\nname: lint\ndescription: Lint the project the house way\n---\n\nRun the linter with --strict and fix every warning.\n';
const PROJECT_OLD = '---\nname: old\ndescription: replaced\ndeprecated: TRUE\n---\nDo not use.\n';
const USER_LINT = '---\nname: LINT\ndescription: the user copy, shadowed\n---\nUser body.\n';
const USER_DEPLOY = '---\ndescription: Ship it\n---\nTag, build, publish.\n';

/** A home holding user-scope skills: `lint` (shadowed by the project's) and `deploy` (named by its folder). */
function homeWithSkills(): string {
  const home = mkdtempSync(join(tmpdir(), 'core-home-'));
  for (const [folder, content] of [
    ['lint', USER_LINT],
    ['deploy', USER_DEPLOY],
  ]) {
    mkdirSync(join(home, '.catalyst-code', 'skills', folder), { recursive: true });
    writeFileSync(join(home, '.catalyst-code', 'skills', folder, 'SKILL.md'), content);
  }
  return home;
}

const PROJECT_FILES = {
  '.catalyst-code/skills/lint/SKILL.md': PROJECT_LINT,
  '.catalyst-code/skills/old/SKILL.md': PROJECT_OLD,
  '.catalyst-code/skills/notes/README.md': 'a folder without SKILL.md is no skill',
};

async function skillsScenario(opts: Parameters<typeof startScenario>[0] = {}): Promise<Scenario> {
  return startScenario({ files: PROJECT_FILES, home: homeWithSkills(), handshake: false, ...opts });
}

test(
  'skills in both scopes: project first, deduplicated by lowercased name, deprecated ones hidden; on init before agents',
  SCENARIO,
  async () => {
    const s = await skillsScenario();
    try {
      await s.core.handshake();
      const atInit = await s.core.waitForType('skills');
      await s.core.waitForType('agents');
      const order = s.core.events.map((e) => e.type).filter((t) => t === 'skills' || t === 'agents');
      assert.deepEqual(order.slice(0, 2), ['skills', 'agents']);
      const ws = realpathSync(s.core.workspace);
      assert.deepEqual(atInit.skills, [
        {
          name: 'lint',
          description: 'Lint the project the house way',
          location: join(ws, '.catalyst-code', 'skills', 'lint', 'SKILL.md'),
          content: 'Run the linter with --strict and fix every warning.',
        },
        {
          name: 'deploy',
          description: 'Ship it',
          location: join(s.core.home, '.catalyst-code', 'skills', 'deploy', 'SKILL.md'),
          content: 'Tag, build, publish.',
        },
      ]);
      const from = s.core.events.length;
      s.core.send({ type: 'list_skills' });
      assert.deepEqual((await s.core.waitForType('skills', { from })).skills, atInit.skills);
    } finally {
      await s.close();
    }
  },
);

test('apply_skill runs a turn whose first request carries the skill inline, the task, and the manifest', SCENARIO, async () => {
  const s = await skillsScenario({ script: [{ steps: [{ text: 'Linted.' }] }] });
  try {
    await s.core.handshake();
    const from = s.core.events.length;
    s.core.send({ type: 'apply_skill', name: 'LINT', task: 'only src/', model: TEST_MODEL });
    await s.core.waitForType('done', { from });
    const chats = s.model.requests.filter((r) => r.body?.messages);
    assert.equal(chats.length, 1);
    const messages = chats[0].body.messages as Array<{ role: string; content: string }>;
    const user = messages.filter((m) => m.role === 'user').at(-1)!.content;
    assert.match(user, /^Apply the skill "lint"/);
    assert.ok(user.includes('<skill name="lint">\nRun the linter with --strict and fix every warning.\n</skill>'), user);
    assert.ok(user.endsWith('\n\nTask: only src/'), user);
    const system = messages[0].content;
    assert.ok(system.includes('Available opt-in skills — apply with `/skill:<name>`'), system);
    assert.ok(system.includes('\n- lint: Lint the project the house way'), system);
    assert.ok(system.includes('\n- deploy: Ship it'), system);
    assert.ok(!system.includes('- old'), 'a deprecated skill is not offered');
  } finally {
    await s.close();
  }
});

test("apply_skill's refusals: an unknown model, then an unknown skill — each an error and done, no request", SCENARIO, async () => {
  const s = await skillsScenario();
  try {
    await s.core.handshake();
    await s.core.untilModelListed(TEST_MODEL); // else no model is known yet, and none is unknown
    let from = s.core.events.length;
    s.core.send({ type: 'apply_skill', name: 'lint', model: 'no-such-model' });
    await s.core.waitForType('done', { from });
    assert.deepEqual(
      s.core.events
        .slice(from)
        .filter((e) => e.type === 'error')
        .map((e) => e.message),
      ['unknown model: no-such-model'],
    );
    from = s.core.events.length;
    s.core.send({ type: 'apply_skill', name: 'old', model: TEST_MODEL });
    await s.core.waitForType('done', { from });
    assert.deepEqual(
      s.core.events
        .slice(from)
        .filter((e) => e.type === 'error')
        .map((e) => e.message),
      ["unknown skill 'old' — use /skill:<name> with a name from the autocomplete"],
    );
    assert.equal(s.model.requests.filter((r) => r.body?.messages).length, 0);
  } finally {
    await s.close();
  }
});

test(
  "a subagent's `skills:` frontmatter gives its child an <available_skills> block; the main manifest stays the parent's",
  SCENARIO,
  async () => {
    const agent = '---\nname: linter\ndescription: lints\ntools: read_file\nskills: lint, missing\n---\nYou lint.\n';
    const s = await skillsScenario({
      approval: 'never',
      files: { ...PROJECT_FILES, '.catalyst-code/agents/linter.md': agent },
      script: [
        { steps: [{ toolCall: { id: 'call_sub', name: 'subagent', arguments: { agent: 'linter', task: '[lint-child] lint it' } } }] },
        { steps: [{ text: 'Done.' }] },
      ],
      routes: { '[lint-child]': [{ steps: [{ text: 'linted' }] }] },
    });
    try {
      await s.core.handshake();
      const from = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'delegate the lint', model: TEST_MODEL });
      await s.core.waitForType('done', { from, timeoutMs: 30_000 });
      const child = s.model.requestsFor('[lint-child]')[0];
      assert.ok(child, 'the child made a request');
      const system = child.body.messages[0].content as string;
      const ws = realpathSync(s.core.workspace);
      assert.ok(
        system.includes(
          `<available_skills>\n  <skill>\n    <name>lint</name>\n    <description>Lint the project the house way</description>\n    <location>${join(ws, '.catalyst-code', 'skills', 'lint', 'SKILL.md')}</location>\n  </skill>\n</available_skills>`,
        ),
        system,
      );
      assert.ok(!system.includes('missing'), 'a name that is no skill is left out');
      assert.ok(!system.includes('Available opt-in skills'), "the child's prompt has no manifest");
    } finally {
      await s.close();
    }
  },
);

test('apply_skill during a turn is queued like send, and runs once that turn is done', SCENARIO, async () => {
  const s = await skillsScenario({ script: [{ holdUntil: 'first', steps: [{ text: 'First.' }] }, { steps: [{ text: 'Linted.' }] }] });
  try {
    await s.core.handshake();
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'something else first', model: TEST_MODEL });
    await s.model.held('first');
    s.core.send({ type: 'apply_skill', name: 'lint', model: TEST_MODEL });
    await s.core.waitFor((e) => e.type === 'info' && e.message === 'prompt queued; will run after the current turn', { from });
    s.model.release('first');
    const firstDone = await s.core.waitForType('done', { from });
    await s.core.waitForType('done', { from: s.core.events.indexOf(firstDone) + 1 });
    const chats = s.model.requests.filter((r) => r.body?.messages);
    assert.equal(chats.length, 2);
    const lastUser = (r: (typeof chats)[number]) =>
      r.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content as string;
    assert.equal(lastUser(chats[0]), 'something else first');
    assert.match(lastUser(chats[1]), /^Apply the skill "lint"/);
    assert.ok(!lastUser(chats[1]).includes('Task:'), 'no task given, no Task line');
  } finally {
    await s.close();
  }
});

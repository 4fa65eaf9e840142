import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Skill } from './discovery';
import { parseSkill } from './discovery';
import { applySkillPrompt, MANIFEST_MAX_ENTRIES, skillManifest, subagentSkillsBlock } from './skillPrompts';

const skill = (folder: string, description = '', name = folder): Skill => ({
  name,
  description,
  location: `/ws/.catalyst-code/skills/${folder}/SKILL.md`,
  body: `${folder} body`,
  folder,
  scope: 'project',
});

test('the manifest: folder names, descriptions cut at 80 characters, at most 12 entries then a count', () => {
  const many = Array.from({ length: 15 }, (_, i) => skill(`s${String(i).padStart(2, '0')}`, i === 0 ? 'x'.repeat(81) : `does ${i}`));
  const lines = skillManifest(many).split('\n');
  assert.match(lines[0], /^Available opt-in skills — apply with `\/skill:<name>`/);
  assert.equal(lines[1], `- s00: ${'x'.repeat(80)}…`);
  assert.equal(lines.length, 1 + MANIFEST_MAX_ENTRIES + 1);
  assert.equal(lines.at(-1), '- …and 3 more (list_dir .catalyst-code/skills/ or /skill:<name>)');
});

test('the manifest leaves out pi-subagents, a repeated folder and a missing description; nothing without skills', () => {
  assert.equal(skillManifest([]), '');
  assert.equal(skillManifest([skill('pi-subagents', 'orchestrate')]), '');
  const text = skillManifest([skill('a', 'first'), skill('a', 'user copy'), skill('b')]);
  assert.deepEqual(text.split('\n').slice(1), ['- a: first', '- b']);
  assert.ok(skillManifest([skill('dir', 'x', 'other-name')]).includes('- dir: x'), 'the folder, not the frontmatter name');
});

test("apply_skill's prompt: the instruction, the body in a <skill> element, and the task only when given", () => {
  assert.equal(
    applySkillPrompt({ name: 'lint', body: 'Run it.' }, '  src/ '),
    'Apply the skill "lint": follow the procedure in the skill file below.\n\n<skill name="lint">\nRun it.\n</skill>\n\nTask: src/',
  );
  assert.ok(!applySkillPrompt({ name: 'lint', body: 'Run it.' }, '   ').includes('Task:'));
});

test("a subagent's skills block matches exact frontmatter names and skips `false`", () => {
  const skills = [skill('lint', 'lints'), skill('Deploy', 'ships')];
  assert.equal(subagentSkillsBlock(skills, ['false', 'deploy']), undefined, 'case matters; false is no name');
  const block = subagentSkillsBlock(skills, ['lint'])!;
  assert.ok(block.includes('<name>lint</name>') && block.includes('<location>/ws/.catalyst-code/skills/lint/SKILL.md</location>'));
});

test('a SKILL.md: name defaults to the folder; deprecated (any case) hides it', () => {
  assert.equal(parseSkill('---\ndescription: d\n---\nbody', '/h/skills/fold/SKILL.md', 'user')?.name, 'fold');
  assert.equal(parseSkill('---\ndeprecated: True\n---\nbody', '/h/skills/fold/SKILL.md', 'user'), undefined);
  assert.equal(parseSkill('no frontmatter', '/h/skills/fold/SKILL.md', 'user')?.body, 'no frontmatter');
});

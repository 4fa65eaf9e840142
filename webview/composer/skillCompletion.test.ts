import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionContextAt } from './completionContext';
import { parseSkillInput, skillCommands } from './skillCompletion';
import { matchSlashCommands } from './slashCommands';

const host = [
  { name: 'skills', description: 'List the skills' },
  { name: 'skill', description: 'Apply a skill', args: '<name> [task]' },
];
const skills = [
  { name: 'lint', description: 'Lint it', location: '/ws/.catalyst-code/skills/lint/SKILL.md', scope: 'project' as const },
  { name: 'deploy', description: '', location: '/h/.catalyst-code/skills/deploy/SKILL.md', scope: 'user' as const },
  { name: 'two words', description: 'x', location: '/h/x/SKILL.md', scope: 'user' as const },
];

test('the skills section: skill:<name> entries with their scope, completed as the caret types /skill:…', () => {
  const entries = skillCommands({ skills });
  assert.deepEqual(entries, [
    { name: 'skill:lint', description: 'Lint it (project)', args: '[task]' },
    { name: 'skill:deploy', description: 'Apply this skill (user)', args: '[task]' },
  ]);
  assert.deepEqual(completionContextAt('/skill:li', 9), { kind: 'slash', query: 'skill:li', start: 0, end: 9 });
  assert.deepEqual(
    matchSlashCommands('skill:', [...host, ...entries]).map((c) => c.name),
    ['skill:lint', 'skill:deploy'],
  );
  assert.deepEqual(skillCommands({}), []);
});

test("/skill:<name> [task] becomes the host's skill command; without it, or without a name, it is no skill input", () => {
  assert.deepEqual(parseSkillInput(' /skill:lint  only src/\nand tests ', host), { name: 'skill', args: 'lint only src/\nand tests' });
  assert.deepEqual(parseSkillInput('/skill:lint', host), { name: 'skill', args: 'lint' });
  assert.equal(parseSkillInput('/skill:', host), undefined);
  assert.equal(parseSkillInput('/skill:lint', [{ name: 'skills', description: '' }]), undefined);
  assert.equal(parseSkillInput('apply /skill:lint', host), undefined);
});

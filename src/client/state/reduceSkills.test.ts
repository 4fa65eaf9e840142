import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import { reduceSkills, scopeOf } from './reduceSkills';

test('skills: the scope from the location, no body kept, nameless entries dropped, an equal list keeps the state', () => {
  const s0 = { ...initialSessionState(), workspace: '/ws' };
  const e = {
    type: 'skills' as const,
    skills: [
      { name: 'lint', description: 'Lints', location: '/ws/.catalyst-code/skills/lint/SKILL.md', content: 'BODY' },
      { name: 'deploy', description: 'Ships', location: '/home/u/.catalyst-code/skills/deploy/SKILL.md' },
      { name: '', description: 'nameless', location: '/x' },
      'garbage',
    ],
  };
  const s1 = reduceSkills(s0, e as never);
  assert.deepEqual(s1.skills, [
    { name: 'lint', description: 'Lints', location: '/ws/.catalyst-code/skills/lint/SKILL.md', scope: 'project' },
    { name: 'deploy', description: 'Ships', location: '/home/u/.catalyst-code/skills/deploy/SKILL.md', scope: 'user' },
  ]);
  assert.equal(reduceSkills(s1, e as never), s1);
});

test('scopeOf: inside the workspace (either separator) is the project; a sibling folder with the same prefix is not', () => {
  assert.equal(scopeOf('C:\\ws\\.catalyst-code\\skills\\a\\SKILL.md', 'C:\\ws'), 'project');
  assert.equal(scopeOf('/ws-other/.catalyst-code/skills/a/SKILL.md', '/ws'), 'user');
  assert.equal(scopeOf('/ws/.catalyst-code/skills/a/SKILL.md', undefined), 'user');
});

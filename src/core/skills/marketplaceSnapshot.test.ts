import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeRelativePath, searchResults, validName, validSource } from './marketplaceSnapshot';

test('a source is a GitHub owner/repo whose parts are no dot segments; a name is a plain folder name', () => {
  assert.equal(validSource('anthropics/skills'), true);
  assert.equal(validSource('my.org/my_repo-2'), true);
  for (const bad of ['https://evil.test/x', 'a/b/c', 'a', '../skills', 'a/..', './b', 'a/', 'a b/c'])
    assert.equal(validSource(bad), false, bad);
  assert.equal(validName('frontend-design_2'), true);
  for (const bad of ['', '../escape', 'a.b', 'x'.repeat(129), 'a/b']) assert.equal(validName(bad), false, bad);
});

test('safe paths: plain relative segments only', () => {
  assert.equal(safeRelativePath('rules/good.md'), 'rules/good.md');
  for (const bad of ['../SKILL.md', '/tmp/SKILL.md', 'a\\b.md', 'C:/x.md', 'a//b.md', './a.md', 'a/./b.md', 'a/', '', 'a\0b'])
    assert.throws(() => safeRelativePath(bad), /unsafe skill path/, JSON.stringify(bad));
});

test('search results: invalid entries dropped, installs defaulted, most installs first then by name', () => {
  const skills = searchResults({
    skills: [
      { id: '1', name: 'b', installs: 5, source: 'o/r' },
      { id: '2', name: 'a', installs: 5, source: 'o/r' },
      { id: '3', name: 'c', source: 'o/r' },
      { id: '4', name: 'd', installs: 9, source: 'not a source' },
      'junk',
    ],
  });
  assert.deepEqual(
    skills.map((s) => [s.name, s.installs]),
    [
      ['a', 5],
      ['b', 5],
      ['c', 0],
    ],
  );
  assert.throws(() => searchResults({}), /invalid skills.sh search response/);
});

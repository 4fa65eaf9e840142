import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../src/shared/sessionState';
import { availableSlashCommands, matchSlashCommands, parseSlashInput } from './slashCommands';
import { applyCompletion, completionContextAt } from './completionContext';

const commands = [
  { name: 'compact', description: 'Summarize older turns' },
  { name: 'clear', description: 'Clear the transcript' },
  { name: 'model', description: 'Pick a model', args: '<id>' },
  { name: 'undo', description: 'Undo the last turn' },
];

test('a known /command with arguments parses; unknown names and paths are prompts', () => {
  assert.deepEqual(parseSlashInput('/compact', commands), { name: 'compact', args: '' });
  assert.deepEqual(parseSlashInput('  /model   gpt-5 mini \n', commands), { name: 'model', args: 'gpt-5 mini' });
  assert.deepEqual(parseSlashInput('/model a\nb', commands), { name: 'model', args: 'a\nb' });
  assert.equal(parseSlashInput('/usr/bin/env node', commands), undefined);
  assert.equal(parseSlashInput('/nope', commands), undefined);
  assert.equal(parseSlashInput('/Compact', commands), undefined);
  assert.equal(parseSlashInput('please /compact', commands), undefined);
  assert.equal(parseSlashInput('/', commands), undefined);
});

test('matching lists prefix matches before substring matches', () => {
  assert.deepEqual(
    matchSlashCommands('c', commands).map((c) => c.name),
    ['compact', 'clear'],
  );
  assert.deepEqual(
    matchSlashCommands('o', commands).map((c) => c.name),
    ['compact', 'model', 'undo'],
  );
  assert.deepEqual(matchSlashCommands('', commands).length, 4);
  assert.deepEqual(matchSlashCommands('zz', commands), []);
});

test('slash completion triggers only for a / at the very start, up to the caret', () => {
  assert.deepEqual(completionContextAt('/co', 3), { kind: 'slash', query: 'co', start: 0, end: 3 });
  assert.deepEqual(completionContextAt('/', 1), { kind: 'slash', query: '', start: 0, end: 1 });
  assert.deepEqual(completionContextAt('/compact now', 3), { kind: 'slash', query: 'co', start: 0, end: 8 });
  assert.equal(completionContextAt('/compact now', 12), undefined);
  assert.equal(completionContextAt('a /co', 5), undefined);
});

test('file mentions trigger for @ at a word start', () => {
  assert.deepEqual(completionContextAt('look at @src/ap', 15), { kind: 'file', query: 'src/ap', start: 8, end: 15 });
  assert.deepEqual(completionContextAt('@', 1), { kind: 'file', query: '', start: 0, end: 1 });
  assert.deepEqual(completionContextAt('x\n@rea please', 5), { kind: 'file', query: 're', start: 2, end: 6 });
  assert.equal(completionContextAt('mail me at a@b.c', 16), undefined);
  assert.equal(completionContextAt('@src/app.ts and more', 20), undefined);
});

test('applying a completion replaces the trigger token and places the caret after it', () => {
  const ctx = completionContextAt('see @sr and', 7)!;
  assert.deepEqual(applyCompletion('see @sr and', ctx, '@src/app.ts'), { text: 'see @src/app.ts and', caret: 15 });
  const end = completionContextAt('see @sr', 7)!;
  assert.deepEqual(applyCompletion('see @sr', end, '@src/app.ts'), { text: 'see @src/app.ts ', caret: 16 });
  const slash = completionContextAt('/co', 3)!;
  assert.deepEqual(applyCompletion('/co', slash, '/compact '), { text: '/compact ', caret: 9 });
});

test('the popup offers only what the core can do: an SCV core has no sessions, undo or steer', () => {
  const all = [
    ...commands,
    { name: 'sessions', description: 'List sessions' },
    { name: 'steer', description: 'Redirect' },
    { name: 'goal', description: 'Start a goal' },
  ];
  const names = (kind: 'embedded' | 'scv', capabilities: string[] = []) => {
    const s = initialSessionState(kind);
    s.core.capabilities = capabilities;
    return availableSlashCommands(all, s).map((c) => c.name);
  };
  assert.deepEqual(names('embedded'), ['compact', 'clear', 'model', 'undo', 'sessions', 'steer', 'goal']);
  assert.deepEqual(names('scv', ['server_queue']), ['compact', 'clear', 'model']);
  assert.deepEqual(names('scv', ['undo']), ['compact', 'clear', 'model', 'undo']);
  // Typed in full, a hidden command still goes to the host (which says it is unsupported), not to the model.
  assert.deepEqual(parseSlashInput('/undo', all), { name: 'undo', args: '' });
});

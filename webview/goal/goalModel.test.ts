import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GoalStepView } from '../../src/shared/goalState';
import type { TranscriptItem } from '../../src/shared/sessionState';
import { GOAL_ID, goalWorker } from '../dev/goalFixtures';
import { GoalRunIndex } from './goalRunIndex';
import { formatGoalElapsed, goalWaves, parseBoundedInt, summaryMarkdown } from './goalModel';

const step = (id: string, dependsOn: string[] = []): GoalStepView => ({
  id,
  agent: 'worker',
  title: id,
  task: id,
  dependsOn,
  status: 'pending',
});
const ids = (waves: GoalStepView[][]) => waves.map((w) => w.map((s) => s.id));

test('waves are the topological levels of dependsOn, each sorted by id as the core dispatches them', () => {
  const steps = [step('d', ['b', 'c']), step('c', ['a']), step('b', ['a']), step('a'), step('e')];
  assert.deepEqual(ids(goalWaves(steps)), [['a', 'e'], ['b', 'c'], ['d']]);
});

test('a step waits for its deepest dependency, not only its first', () => {
  assert.deepEqual(ids(goalWaves([step('a'), step('b', ['a']), step('c', ['a', 'b'])])), [['a'], ['b'], ['c']]);
});

test('an unknown dependency is ignored and a cycle makes one last wave rather than losing steps', () => {
  assert.deepEqual(ids(goalWaves([step('a', ['ghost']), step('b', ['c']), step('c', ['b'])])), [['a'], ['b', 'c']]);
  assert.deepEqual(goalWaves([]), []);
});

test('number fields: empty leaves the default, anything but an integer in range is refused', () => {
  const limits = { min: 1, max: 32 };
  assert.equal(parseBoundedInt(' ', limits), undefined);
  assert.equal(parseBoundedInt('8', limits), 8);
  for (const bad of ['0', '33', '2.5', 'x']) assert.ok(Number.isNaN(parseBoundedInt(bad, limits)), bad);
});

test('a goal elapsed time reads in hours past the hour', () => {
  assert.equal(formatGoalElapsed(12_400), '12s');
  assert.equal(formatGoalElapsed(245_000), '4m 05s');
  assert.equal(formatGoalElapsed(3_720_000), '1h 02m');
});

test("the run index finds a goal worker's run, its conversation and its approvals, reading only appended items", () => {
  const items: TranscriptItem[] = [
    { kind: 'user', id: 'u1', text: 'hi', images: 0 },
    goalWorker('run-g1', 'worker', 'task'),
    { kind: 'assistant', id: 'sa:run-g1:m0', childRunId: 'run-g1', text: 'a', thinking: '', streaming: true },
  ];
  const index = new GoalRunIndex();
  index.update(items, true);
  assert.equal(index.run(items, 'run-g1')?.id, 'run-g1');
  assert.deepEqual(index.itemsOf('run-g1'), [2]);
  assert.deepEqual(index.runsUnder(GOAL_ID), [1]);
  items.push({
    kind: 'approval',
    id: 'apv',
    toolCallId: 'sa:run-g1:c1',
    childRunId: 'run-g1',
    tool: 'write_file',
    risk: 'destructive',
    args: '{}',
    createdAt: 0,
    state: 'pending',
  });
  items.push({ kind: 'tool', id: 'sa:run-g1:c1', childRunId: 'run-g1', name: 'write_file', args: '{}', status: 'running', files: [] });
  index.update(items, false);
  assert.deepEqual(index.itemsOf('run-g1'), [2, 4]);
  assert.deepEqual(index.approvalsOf('run-g1'), [3]);
  // A truncation (undo, clear) then new items: the index starts again.
  items.length = 1;
  items.push(goalWorker('run-g2', 'scout', 'task'));
  index.update(items, false);
  assert.equal(index.run(items, 'run-g1'), undefined);
  assert.equal(index.run(items, 'run-g2')?.id, 'run-g2');
  assert.deepEqual(index.itemsOf('run-g1'), []);
});

test("the deterministic summary's lines stay lines; blank lines, lists and code fences are left alone", () => {
  assert.equal(
    summaryMarkdown('Goal: x\nOutcome: 3/3\n\n[done] a\n  output: a.md'),
    'Goal: x  \nOutcome: 3/3\n\n[done] a  \n  output: a.md',
  );
  assert.equal(summaryMarkdown('## Done\n\n- a\n- b'), '## Done\n\n- a  \n- b');
  const fence = '```ts\nconst a = 1;\nconst b = 2;\n```';
  assert.equal(summaryMarkdown(`Code:\n${fence}`), `Code:\n${fence}`);
});

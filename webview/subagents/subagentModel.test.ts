import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionState } from '../../src/shared/sessionState';
import type { ViewContext } from '../../src/shared/webviewMessages';
import { childReply, childTool, fanOutItems, readyState, subagentRun } from '../../test/webview/harness/states';
import { SessionStore } from '../state/store';
import { CHILD_PAGE, SubagentIndex, formatElapsed, isChildItem, rowOrder, runStatusText, visibleChildItems } from './subagentModel';

const view: ViewContext = { placement: 'sidebar', slashCommands: [] };

function fanOut(): SessionState {
  return readyState(fanOutItems());
}

test("a fan-out's runs and their items belong to the card that called the subagent tool", () => {
  const index = new SubagentIndex();
  index.rebuild(fanOutItems());
  // The batch (index 2) is a run of the card too; the rows are its single children.
  assert.deepEqual(index.runsOf('sub1'), [2, 3, 4, 5]);
  assert.deepEqual(index.itemsOf('run-1-0'), [6]);
  assert.deepEqual(index.itemsOf('run-1-2'), [8]);
  for (const i of [2, 3, 6, 8]) assert.equal(index.cardIndexOf(i), 1, `item ${i}`);
  assert.equal(index.cardIndexOf(0), undefined, 'the prompt is main flow');
  assert.equal(index.cardIndexOf(1), undefined, 'the card itself is main flow');
});

test('a run without parentToolCallId links through its parent run (upstream sends no tool_call_id)', () => {
  const items = fanOutItems();
  items[3] = subagentRun('run-1-0', 'worker', 'A', { parentRunId: 'run-1', parentToolCallId: undefined });
  const index = new SubagentIndex();
  index.rebuild(items);
  assert.equal(index.cardIndexOf(3), 1);
  assert.equal(index.cardIndexOf(6), 1, "the run's reply follows it");
  assert.equal(index.depthOf('run-1-0'), 0, "a batch's child is a direct child");
});

test('a nested run is one level deeper than the run that started it', () => {
  const items = [
    ...fanOutItems(),
    subagentRun('run-2', 'scout', 'nested', { parentRunId: 'run-1-0', parentToolCallId: undefined, depth: 1 }),
  ];
  const index = new SubagentIndex();
  index.rebuild(items);
  assert.equal(index.cardIndexOf(9), 1);
  assert.equal(index.depthOf('run-2'), 1);
});

test('items that arrive before what they link to are linked once it comes', () => {
  const all = fanOutItems();
  const index = new SubagentIndex();
  // The reply of run-1-0 first, its run after (a reordered snapshot would do this).
  const early = [all[0], all[1], all[6]];
  index.rebuild(early);
  assert.equal(index.cardIndexOf(2), undefined);
  const later = [...early, all[3]];
  index.note(later, [3]);
  assert.equal(index.cardIndexOf(2), 1, 'the early reply is linked');
  assert.deepEqual(index.itemsOf('run-1-0'), [2]);
});

test("the store maps a child's patch to its card's index, and never reports the hidden child item itself", () => {
  const store = new SessionStore();
  store.applySnapshot(0, fanOut(), view);
  const out = store.applyPatches(1, [
    { op: 'append', index: 6, field: 'text', text: ' Done.' },
    { op: 'append', index: 7, field: 'text', text: ' Found 3.' },
  ]);
  assert.ok(out.kind === 'applied');
  assert.deepEqual([...out.change.items], [1]);
  const progress = store.applyPatches(2, [
    { op: 'item', index: 4, item: subagentRun('run-1-1', 'worker', 'B', { parentRunId: 'run-1', toolCount: 2 }) },
  ]);
  assert.ok(progress.kind === 'applied');
  assert.deepEqual([...progress.change.items], [1]);
  const grown = store.applyPatches(3, [
    { op: 'item', index: 9, item: childTool('run-1-0', 'call_1', 'read_file', { path: 'src/cache.ts' }) },
  ]);
  assert.ok(grown.kind === 'applied');
  assert.deepEqual([...grown.change.items], [1]);
  assert.equal(grown.change.length, true, 'the list still grows by the (zero-height) item');
  assert.deepEqual(store.subagents.itemsOf('run-1-0'), [6, 9]);
  const main = store.applyPatches(4, [{ op: 'item', index: 10, item: { kind: 'user', id: 'u2', text: 'next', images: 0 } }]);
  assert.ok(main.kind === 'applied');
  assert.deepEqual([...main.change.items], [10]);
});

test('a replaced item at a known index and a truncation re-index the transcript', () => {
  const store = new SessionStore();
  store.applySnapshot(0, fanOut(), view);
  store.applyPatches(1, [{ op: 'truncate', length: 2 }]);
  assert.deepEqual(store.subagents.runsOf('sub1'), []);
  const out = store.applyPatches(2, [{ op: 'item', index: 2, item: subagentRun('run-9', 'worker', 'again') }]);
  assert.ok(out.kind === 'applied');
  assert.deepEqual(store.subagents.runsOf('sub1'), [2]);
  store.applyPatches(3, [{ op: 'item', index: 2, item: { kind: 'notice', id: 'n', level: 'info', text: 'x' } }]);
  assert.deepEqual(store.subagents.runsOf('sub1'), [], 'the run replaced by a notice is gone');
});

test("child items are recognised by kind and childRunId; the parent's own items are not", () => {
  const items = fanOutItems();
  assert.deepEqual(
    items.map((i) => isChildItem(i)),
    [false, false, true, true, true, true, true, true, true],
  );
  assert.equal(isChildItem(childReply('run-1-0', 1, 'x')), true);
});

test('an expanded row shows the last CHILD_PAGE items and counts the earlier ones', () => {
  const all = Array.from({ length: CHILD_PAGE + 7 }, (_, i) => i);
  assert.deepEqual(visibleChildItems(all, CHILD_PAGE), { indexes: all.slice(7), hidden: 7 });
  assert.deepEqual(visibleChildItems(all, CHILD_PAGE * 2), { indexes: all, hidden: 0 });
});

test('a row says the final state once done, else the phase', () => {
  assert.equal(runStatusText(subagentRun('r', 'w', 't', { state: 'cancelled', phase: 'tool' })), 'Cancelled');
  assert.equal(runStatusText(subagentRun('r', 'w', 't', { phase: 'tool' })), 'Running a tool');
  assert.equal(formatElapsed(65_000), '1m 05s');
  assert.equal(formatElapsed(400), '0.4s');
});

test("a nested run's row follows the run that started it, not that run's later siblings", () => {
  const a = subagentRun('run-1-0', 'worker', 'A', { parentRunId: 'run-1' });
  const b = subagentRun('run-1-1', 'worker', 'B', { parentRunId: 'run-1' });
  const nested = subagentRun('run-2', 'scout', 'A.1', { parentRunId: 'run-1-0', depth: 2 });
  assert.deepEqual(
    rowOrder([a, b, nested]).map((r) => r.id),
    ['run-1-0', 'run-2', 'run-1-1'],
  );
  const loop = subagentRun('run-9', 'x', 'loop', { parentRunId: 'run-9' });
  assert.deepEqual(
    rowOrder([loop, a]).map((r) => r.id),
    ['run-9', 'run-1-0'],
  );
});

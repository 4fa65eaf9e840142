import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type AssistantItem, type SessionState, type ToolItem, type TranscriptItem } from './sessionState';
import { applyPatches, compactPatches, diffState, startsWithText, type Patch } from './statePatch';

const user = (id: string, text: string): TranscriptItem => ({ kind: 'user', id, text, images: 0 });
const assistant = (id: string, text: string, streaming = true): AssistantItem => ({ kind: 'assistant', id, text, thinking: '', streaming });
const tool = (id: string, output?: string): ToolItem => ({
  kind: 'tool',
  id,
  name: 'bash',
  args: '{"command":"ls"}',
  status: 'running',
  files: [],
  ...(output === undefined ? {} : { output }),
});

function withItems(state: SessionState, items: TranscriptItem[]): SessionState {
  return { ...state, items, revision: state.revision + 1 };
}

function replaceItem(state: SessionState, index: number, item: TranscriptItem): SessionState {
  const items = state.items.slice();
  items[index] = item;
  return withItems(state, items);
}

/** What the webview does: start from a snapshot (a structured clone, as postMessage delivers it) and apply patches. */
function replay(snapshot: SessionState, batches: Patch[][]): SessionState {
  const copy = structuredClone(snapshot);
  for (const batch of batches) applyPatches(copy, structuredClone(batch));
  return copy;
}

describe('diffState', () => {
  test('identical states produce no patches', () => {
    const s = initialSessionState();
    assert.deepEqual(diffState(s, s), []);
  });

  test('a streamed delta is exactly one append on the last assistant item', () => {
    const a = withItems(initialSessionState(), [user('u1', 'hi'), assistant('a1', 'Hel')]);
    const b = replaceItem(a, 1, { ...(a.items[1] as AssistantItem), text: 'Hello' });
    const patches = diffState(a, b).filter((p) => p.op !== 'set' || p.key !== 'revision');
    assert.deepEqual(patches, [{ op: 'append', index: 1, field: 'text', text: 'lo' }]);
  });

  test('changed top-level keys become set patches; items untouched produce no item patches', () => {
    const a = initialSessionState();
    const b: SessionState = { ...a, model: 'm1', run: { status: 'running', runId: 'r1' } };
    assert.deepEqual(diffState(a, b), [
      { op: 'set', key: 'run', value: { status: 'running', runId: 'r1' } },
      { op: 'set', key: 'model', value: 'm1' },
    ]);
  });

  // The reducer deletes `model` when no model is left (e.g. after Log Out): the removal must reach the webview.
  test('a top-level key removed from the state reaches the webview', () => {
    const a: SessionState = { ...initialSessionState(), model: 'm1' };
    const { model: _removed, ...b } = a;
    assert.deepEqual(replay(a, [diffState(a, b as SessionState)]), b);
  });

  test('text that does not grow at the end is set as that field alone', () => {
    const a = withItems(initialSessionState(), [assistant('a1', 'partial answer')]);
    const b = replaceItem(a, 0, { ...(a.items[0] as AssistantItem), text: 'retried' });
    const itemPatches = diffState(a, b).filter((p) => p.op !== 'set');
    assert.deepEqual(itemPatches, [{ op: 'field', index: 0, field: 'text', value: 'retried' }]);
  });

  // The end of a streamed reply (a child's too): its text is already in the webview and must not travel again.
  test('a finished reply sends its new status, not its text', () => {
    const a = withItems(initialSessionState(), [assistant('a1', 'done '.repeat(2_000))]);
    const b = replaceItem(a, 0, { ...(a.items[0] as AssistantItem), text: 'done '.repeat(2_000), streaming: false });
    const patches = diffState(a, b).filter((p) => p.op !== 'set');
    assert.deepEqual(patches, [{ op: 'field', index: 0, field: 'streaming', value: false }]);
    assert.deepEqual(replay(a, [diffState(a, b)]), b);
  });

  test('a field removed from an item is a field patch without a value, and the replay drops it', () => {
    const before = tool('t1', 'out');
    const a = withItems(initialSessionState(), [before]);
    const { output: _removed, ...after } = before;
    const b = replaceItem(a, 0, after);
    assert.deepEqual(
      diffState(a, b).filter((p) => p.op !== 'set'),
      [{ op: 'field', index: 0, field: 'output', value: undefined }],
    );
    // As postMessage delivers it: JSON drops the undefined value.
    const copy = structuredClone(a);
    applyPatches(copy, JSON.parse(JSON.stringify(diffState(a, b))) as Patch[]);
    assert.deepEqual(copy, b);
  });

  test('a field patch replaces the item object (a view may hold the old one) and reports it touched', () => {
    const a = withItems(initialSessionState(), [tool('t1')]);
    const copy = structuredClone(a);
    const rendered = copy.items[0];
    const touched = applyPatches(copy, [
      { op: 'field', index: 0, field: 'status', value: 'success' },
      { op: 'field', index: 3, field: 'status', value: 'lost' },
    ]);
    assert.deepEqual([...touched], [0]);
    assert.equal((copy.items[0] as ToolItem).status, 'success');
    assert.equal((rendered as ToolItem).status, 'running');
    assert.equal(copy.items.length, 1);
  });

  test('a different item at the same index (kind or id) is a replacement', () => {
    const a = withItems(initialSessionState(), [user('u1', 'x')]);
    const b = replaceItem(a, 0, assistant('u1', 'x'));
    const c = replaceItem(a, 0, user('u2', 'x'));
    assert.deepEqual(
      diffState(a, b).filter((p) => p.op !== 'set'),
      [{ op: 'item', index: 0, item: b.items[0] }],
    );
    assert.deepEqual(
      diffState(a, c).filter((p) => p.op !== 'set'),
      [{ op: 'item', index: 0, item: c.items[0] }],
    );
  });

  test('a shorter transcript truncates before any item patch', () => {
    const a = withItems(initialSessionState(), [user('u1', 'a'), assistant('a1', 'b'), user('u2', 'c')]);
    const b = withItems(a, [user('u9', 'new')]);
    const itemPatches = diffState(a, b).filter((p) => p.op !== 'set');
    assert.deepEqual(itemPatches, [
      { op: 'truncate', length: 1 },
      { op: 'item', index: 0, item: b.items[0] },
    ]);
  });

  test('appended items are item patches at their new indexes', () => {
    const a = withItems(initialSessionState(), [user('u1', 'a')]);
    const b = withItems(a, [...a.items, assistant('a1', ''), tool('t1')]);
    assert.deepEqual(
      diffState(a, b).filter((p) => p.op !== 'set'),
      [
        { op: 'item', index: 1, item: b.items[1] },
        { op: 'item', index: 2, item: b.items[2] },
      ],
    );
  });
});

describe('startsWithText', () => {
  test('is startsWith, for a text grown by appending', () => {
    let text = '';
    for (let i = 0; i < 100; i++) text += `chunk ${i} `;
    assert.equal(startsWithText(text, 'chunk 0 chunk 1 '), true);
    assert.equal(startsWithText(text, text), true);
    assert.equal(startsWithText(text, ''), true);
    assert.equal(startsWithText(text, 'chunk 1 '), false);
    assert.equal(startsWithText('abc', 'abcd'), false);
  });
});

describe('compactPatches', () => {
  test('merges consecutive appends to the same item field', () => {
    const out = compactPatches([
      { op: 'append', index: 2, field: 'text', text: 'a' },
      { op: 'append', index: 2, field: 'text', text: 'b' },
      { op: 'append', index: 2, field: 'text', text: 'c' },
    ]);
    assert.deepEqual(out, [{ op: 'append', index: 2, field: 'text', text: 'abc' }]);
  });

  test('keeps appends to different fields or items apart, in order', () => {
    const patches: Patch[] = [
      { op: 'append', index: 1, field: 'thinking', text: 'x' },
      { op: 'append', index: 1, field: 'text', text: 'y' },
      { op: 'append', index: 2, field: 'text', text: 'z' },
    ];
    assert.deepEqual(compactPatches(patches), patches);
  });

  test('merges interleaved appends (children streaming at once) into one per item field', () => {
    const out = compactPatches([
      { op: 'append', index: 1, field: 'text', text: 'a' },
      { op: 'append', index: 2, field: 'text', text: 'x' },
      { op: 'append', index: 1, field: 'thinking', text: 't' },
      { op: 'append', index: 1, field: 'text', text: 'b' },
      { op: 'set', key: 'revision', value: 1 },
      { op: 'append', index: 2, field: 'text', text: 'y' },
      { op: 'append', index: 1, field: 'text', text: 'c' },
    ]);
    assert.deepEqual(out, [
      { op: 'append', index: 1, field: 'text', text: 'abc' },
      { op: 'append', index: 2, field: 'text', text: 'xy' },
      { op: 'append', index: 1, field: 'thinking', text: 't' },
      { op: 'set', key: 'revision', value: 1 },
    ]);
  });

  test('does not merge an append across a truncation', () => {
    const patches: Patch[] = [
      { op: 'append', index: 0, field: 'text', text: 'a' },
      { op: 'truncate', length: 0 },
      { op: 'item', index: 0, item: assistant('a2', '') },
      { op: 'append', index: 0, field: 'text', text: 'b' },
    ];
    assert.deepEqual(compactPatches(patches), patches);
  });

  test('a later item patch at the same index supersedes the earlier one', () => {
    const first = user('u1', 'a');
    const second = user('u1', 'b');
    assert.deepEqual(
      compactPatches([
        { op: 'item', index: 0, item: first },
        { op: 'item', index: 0, item: second },
      ]),
      [{ op: 'item', index: 0, item: second }],
    );
  });

  test('keeps only the last set of each key', () => {
    const out = compactPatches([
      { op: 'set', key: 'revision', value: 1 },
      { op: 'set', key: 'model', value: 'a' },
      { op: 'set', key: 'revision', value: 2 },
    ]);
    assert.deepEqual(out, [
      { op: 'set', key: 'model', value: 'a' },
      { op: 'set', key: 'revision', value: 2 },
    ]);
  });

  test('keeps only the last field patch of an item field, and an item patch drops the earlier ones of its index', () => {
    const replaced = tool('t2');
    const out = compactPatches([
      { op: 'field', index: 1, field: 'phase', value: 'tool' },
      { op: 'field', index: 2, field: 'status', value: 'success' },
      { op: 'field', index: 1, field: 'tokensOut', value: 5 },
      { op: 'field', index: 1, field: 'phase', value: 'streaming' },
      { op: 'field', index: 2, field: 'output', value: 'x' },
      { op: 'item', index: 2, item: replaced },
    ]);
    assert.deepEqual(out, [
      { op: 'field', index: 1, field: 'tokensOut', value: 5 },
      { op: 'field', index: 1, field: 'phase', value: 'streaming' },
      { op: 'item', index: 2, item: replaced },
    ]);
  });

  test('does not merge an append across a field patch of the same field', () => {
    const patches: Patch[] = [
      { op: 'append', index: 0, field: 'text', text: 'a' },
      { op: 'field', index: 0, field: 'text', value: 'fresh' },
      { op: 'append', index: 0, field: 'text', text: 'b' },
    ];
    assert.deepEqual(compactPatches(patches), patches);
  });

  test('does not merge an append across an item replacement', () => {
    const patches: Patch[] = [
      { op: 'append', index: 0, field: 'text', text: 'a' },
      { op: 'item', index: 0, item: assistant('a1', 'fresh') },
      { op: 'append', index: 0, field: 'text', text: 'b' },
    ];
    assert.deepEqual(compactPatches(patches), patches);
  });
});

describe('applyPatches', () => {
  test('returns the touched item indexes and ignores appends to missing items', () => {
    const s = withItems(initialSessionState(), [assistant('a1', 'x')]);
    const copy = structuredClone(s);
    const touched = applyPatches(copy, [
      { op: 'append', index: 0, field: 'text', text: 'y' },
      { op: 'append', index: 5, field: 'text', text: 'lost' },
      { op: 'set', key: 'model', value: 'm' },
    ]);
    assert.deepEqual([...touched], [0]);
    assert.equal((copy.items[0] as AssistantItem).text, 'xy');
    assert.equal(copy.items.length, 1);
    assert.equal(copy.model, 'm');
  });

  test('appends to an absent output field start from empty', () => {
    const s = withItems(initialSessionState(), [tool('t1')]);
    const copy = structuredClone(s);
    applyPatches(copy, [{ op: 'append', index: 0, field: 'output', text: 'line' }]);
    assert.equal((copy.items[0] as ToolItem).output, 'line');
  });
});

describe('snapshot + patches round trip', () => {
  test('a streamed turn replayed batch by batch equals the final state', () => {
    const steps = scriptedTurn();
    const batches: Patch[][] = [];
    for (let i = 1; i < steps.length; i++) batches.push(diffState(steps[i - 1], steps[i]));
    assert.deepEqual(replay(steps[0], batches), steps[steps.length - 1]);
  });

  test('the same turn compacted into one batch equals the final state, with the deltas merged', () => {
    const steps = scriptedTurn();
    const all: Patch[] = [];
    for (let i = 1; i < steps.length; i++) all.push(...diffState(steps[i - 1], steps[i]));
    const compacted = compactPatches(all);
    assert.ok(compacted.length < all.length);
    assert.deepEqual(replay(steps[0], [compacted]), steps[steps.length - 1]);
  });

  test('random immutable edits replay to the same state, batched and compacted at random', () => {
    const rand = seededRandom(0xc0ffee);
    for (let round = 0; round < 30; round++) {
      let state = initialSessionState();
      const snapshot = state;
      const batches: Patch[][] = [];
      let pending: Patch[] = [];
      for (let step = 0; step < 60; step++) {
        const next = randomEdit(state, rand);
        pending.push(...diffState(state, next));
        state = next;
        if (rand() < 0.3) {
          batches.push(compactPatches(pending));
          pending = [];
        }
      }
      batches.push(compactPatches(pending));
      assert.deepEqual(replay(snapshot, batches), state, `round ${round}`);
    }
  });
});

function scriptedTurn(): SessionState[] {
  const steps: SessionState[] = [withItems(initialSessionState(), [user('u0', 'earlier'), assistant('a0', 'earlier answer', false)])];
  const push = (s: SessionState) => steps.push(s);
  const last = () => steps[steps.length - 1];
  push({ ...withItems(last(), [...last().items, user('u1', 'write a poem')]), run: { status: 'running', runId: 'r1' } });
  push(withItems(last(), [...last().items, { ...assistant('a1', ''), runId: 'r1' }]));
  for (const chunk of ['Roses ', 'are ', 'red,\n', 'violets ', 'are ', 'blue.']) {
    const item = last().items[3] as AssistantItem;
    push(replaceItem(last(), 3, { ...item, text: item.text + chunk }));
  }
  push(withItems(last(), [...last().items, tool('t1')]));
  for (const chunk of ['a\n', 'b\n']) {
    const item = last().items[4] as ToolItem;
    push(replaceItem(last(), 4, { ...item, output: (item.output ?? '') + chunk }));
  }
  push(replaceItem(last(), 4, { ...(last().items[4] as ToolItem), status: 'success' }));
  push({
    ...replaceItem(last(), 3, { ...(last().items[3] as AssistantItem), streaming: false }),
    run: { status: 'idle' },
    usage: { tokensIn: 10, tokensOut: 20, cachedTokens: 0 },
  });
  return steps;
}

function randomEdit(state: SessionState, rand: () => number): SessionState {
  const items = state.items;
  const pick = Math.floor(rand() * 9);
  const idx = Math.floor(rand() * Math.max(1, items.length));
  const word = () =>
    rand()
      .toString(36)
      .slice(2, 2 + 1 + Math.floor(rand() * 6));
  switch (pick) {
    case 0:
      return withItems(state, [...items, rand() < 0.5 ? user(`u${state.revision}`, word()) : assistant(`a${state.revision}`, word())]);
    case 1: {
      const item = items[idx];
      if (item?.kind !== 'assistant') return state;
      const field = rand() < 0.7 ? 'text' : 'thinking';
      return replaceItem(state, idx, { ...item, [field]: item[field] + word() });
    }
    case 2: {
      const item = items[idx];
      if (item?.kind !== 'assistant') return state;
      return replaceItem(state, idx, { ...item, text: word() });
    }
    case 3:
      return items.length ? withItems(state, items.slice(0, Math.floor(rand() * items.length))) : state;
    case 4:
      return { ...state, model: word(), revision: state.revision + 1 };
    case 5:
      return { ...state, run: { status: rand() < 0.5 ? 'running' : 'idle' }, revision: state.revision + 1 };
    case 6: {
      const item = items[idx];
      if (item?.kind === 'assistant') return replaceItem(state, idx, { ...item, streaming: !item.streaming });
      if (item?.kind === 'tool') return replaceItem(state, idx, { ...item, status: rand() < 0.5 ? 'success' : 'failed' });
      return state;
    }
    case 7: {
      const item = items[idx];
      if (item?.kind !== 'tool') return state;
      if (item.output === undefined) return replaceItem(state, idx, { ...item, output: word() });
      const { output: _dropped, ...rest } = item;
      return replaceItem(state, idx, rest);
    }
    default: {
      const item = items[idx];
      if (!item) return state;
      return replaceItem(state, idx, tool(item.id, rand() < 0.5 ? undefined : word()));
    }
  }
}

/** mulberry32: a tiny deterministic PRNG so a failing round reproduces. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

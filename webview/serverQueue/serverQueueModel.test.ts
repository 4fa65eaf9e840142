import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type ServerQueueEntry, type SessionState } from '../../src/shared/sessionState';
import { MAX_TEXT } from '../../src/shared/webviewMessages';
import { editOutcome, moveTarget, promptPreview, queuePanelModel, sendButtonText } from './serverQueueModel';

const entries = (...ids: string[]): ServerQueueEntry[] => ids.map((id, i) => ({ id, revision: i + 1, prompt: `prompt ${id}` }));

function scvState(queue?: SessionState['serverQueue'], capabilities = ['server_queue', 'tool_progress']): SessionState {
  const s = initialSessionState('scv');
  s.core = { kind: 'scv', status: 'ready', capabilities };
  if (queue) s.serverQueue = queue;
  return s;
}

test('the panel shows while the server queue has entries or is paused, and never without the capability', () => {
  assert.equal(queuePanelModel(scvState()), undefined);
  assert.equal(queuePanelModel(scvState({ entries: [], paused: false })), undefined);
  const pausedEmpty = queuePanelModel(scvState({ entries: [], paused: true }));
  assert.equal(pausedEmpty?.title, 'Queued on the server (0)');
  assert.equal(pausedEmpty?.paused, true);
  assert.match(pausedEmpty?.hint ?? '', /^Paused/);
  assert.equal(queuePanelModel(scvState({ entries: entries('q1'), paused: false }, [])), undefined);
  const embedded = initialSessionState('embedded');
  embedded.serverQueue = { entries: entries('q1'), paused: false };
  assert.equal(queuePanelModel(embedded), undefined);
});

test('rows carry id, revision, position and which moves are possible; the title counts them', () => {
  const model = queuePanelModel(scvState({ entries: entries('a', 'b', 'c'), paused: false }));
  assert.ok(model);
  assert.equal(model.title, 'Queued on the server (3)');
  assert.equal(model.hint, undefined);
  assert.deepEqual(
    model.rows.map((r) => [r.id, r.revision, r.position, r.canMoveUp, r.canMoveDown]),
    [
      ['a', 1, 1, false, true],
      ['b', 2, 2, true, true],
      ['c', 3, 3, true, false],
    ],
  );
  assert.equal(model.rows[1].prompt, 'prompt b');
  const single = queuePanelModel(scvState({ entries: entries('only'), paused: true }));
  assert.deepEqual([single?.rows[0].canMoveUp, single?.rows[0].canMoveDown], [false, false]);
  assert.match(single?.hint ?? '', /queued prompts wait/);
});

test('a long prompt is clipped to a few lines and a character budget; short ones are whole', () => {
  assert.deepEqual(promptPreview('fix the bug'), { text: 'fix the bug', clipped: false });
  assert.deepEqual(promptPreview('1\n2\n3'), { text: '1\n2\n3', clipped: false });
  assert.deepEqual(promptPreview('1\n2\n3\n4\n5'), { text: '1\n2\n3…', clipped: true });
  const long = promptPreview('x'.repeat(1000));
  assert.equal(long.clipped, true);
  assert.equal(long.text, `${'x'.repeat(300)}…`);
  const model = queuePanelModel(scvState({ entries: [{ id: 'q', revision: 1, prompt: 'a\nb\nc\nd' }], paused: false }));
  assert.equal(model?.rows[0].preview, 'a\nb\nc…');
  assert.equal(model?.rows[0].prompt, 'a\nb\nc\nd');
});

test('moving up puts an entry before its predecessor; moving down before the one after its successor, or at the end', () => {
  const q = entries('a', 'b', 'c', 'd');
  assert.deepEqual(moveTarget(q, 'c', 'up'), { id: 'c', beforeId: 'b' });
  assert.deepEqual(moveTarget(q, 'b', 'up'), { id: 'b', beforeId: 'a' });
  assert.equal(moveTarget(q, 'a', 'up'), undefined);
  assert.deepEqual(moveTarget(q, 'a', 'down'), { id: 'a', beforeId: 'c' });
  assert.deepEqual(moveTarget(q, 'b', 'down'), { id: 'b', beforeId: 'd' });
  assert.deepEqual(moveTarget(q, 'c', 'down'), { id: 'c', beforeId: null });
  assert.equal(moveTarget(q, 'd', 'down'), undefined);
  assert.equal(moveTarget(q, 'gone', 'up'), undefined);
  assert.equal(moveTarget(entries('solo'), 'solo', 'down'), undefined);
});

test('applying each computed move gives the order one step changed', () => {
  // The server's queue.move semantics: remove the entry, insert it before beforeId (null: at the end).
  const apply = (ids: string[], move: { id: string; beforeId: string | null }) => {
    const rest = ids.filter((x) => x !== move.id);
    const at = move.beforeId === null ? rest.length : rest.indexOf(move.beforeId);
    rest.splice(at, 0, move.id);
    return rest;
  };
  const ids = ['a', 'b', 'c', 'd'];
  const q = entries(...ids);
  for (const [i, id] of ids.entries()) {
    const up = moveTarget(q, id, 'up');
    if (up) assert.deepEqual(apply(ids, up), [...ids.slice(0, i - 1), id, ids[i - 1], ...ids.slice(i + 1)]);
    const down = moveTarget(q, id, 'down');
    if (down) assert.deepEqual(apply(ids, down), [...ids.slice(0, i), ids[i + 1], id, ...ids.slice(i + 2)]);
  }
});

test('saving an edit: unchanged text sends nothing, empty text is refused, changed text is saved trimmed', () => {
  assert.deepEqual(editOutcome('fix it', 'fix it'), { kind: 'unchanged' });
  assert.deepEqual(editOutcome('fix it', '  fix it\n'), { kind: 'unchanged' });
  assert.deepEqual(editOutcome('fix it', '   '), { kind: 'empty' });
  assert.deepEqual(editOutcome('fix it', 'fix it\nand test it\n'), { kind: 'save', prompt: 'fix it\nand test it' });
  assert.deepEqual(editOutcome('a', 'x'.repeat(MAX_TEXT + 1)), { kind: 'tooLong' });
});

test('the send button queues while a run is going, on the server for a core with its own queue', () => {
  assert.deepEqual(sendButtonText(false, true), { label: 'Send', title: 'Send (Enter)' });
  assert.deepEqual(sendButtonText(false, false), { label: 'Send', title: 'Send (Enter)' });
  const scv = sendButtonText(true, true);
  assert.equal(scv.label, 'Queue');
  assert.equal(scv.ariaLabel, 'Queue on the server');
  assert.match(scv.title, /^Queue on the server/);
  const local = sendButtonText(true, false);
  assert.equal(local.ariaLabel, undefined);
  assert.doesNotMatch(local.title, /server/);
});

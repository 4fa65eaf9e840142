import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TranscriptItem } from '../../shared/sessionState';
import { chatRestoreOptions, promptOfRun, turnsSinceCheckpoint } from './conversationRollback';

const items: TranscriptItem[] = [
  { kind: 'user', id: 'u1', text: 'first prompt', images: 0 },
  { kind: 'assistant', id: 'a1', runId: 'r1', text: 'ok', thinking: '', streaming: false },
  { kind: 'checkpoint', id: 'cp-auto-1', label: 'auto-before-destructive', auto: true, runId: 'r1' },
  { kind: 'tool', id: 't1', runId: 'r1', name: 'edit', args: '{}', status: 'success', files: ['a.ts'] },
  { kind: 'checkpoint', id: 'cp-manual', label: 'mine', auto: false },
  { kind: 'user', id: 'u2', text: 'second prompt', images: 0 },
  { kind: 'assistant', id: 'a2', runId: 'r2', text: 'ok', thinking: '', streaming: false },
  { kind: 'checkpoint', id: 'cp-auto-2', label: 'auto-before-destructive', auto: true, runId: 'r2' },
  { kind: 'user', id: 'u3', text: 'third prompt', images: 0 },
  { kind: 'notice', id: 'n1', level: 'info', text: 'x' },
];

describe('the conversation around a checkpoint', () => {
  test('promptOfRun: the user message that started the run', () => {
    assert.equal(promptOfRun(items, 'r1'), 'first prompt');
    assert.equal(promptOfRun(items, 'r2'), 'second prompt');
    assert.equal(promptOfRun(items, 'r9'), undefined);
    assert.equal(promptOfRun([{ kind: 'assistant', id: 'a', runId: 'r', text: '', thinking: '', streaming: false }], 'r'), undefined);
  });

  test('turnsSinceCheckpoint: an automatic checkpoint takes its own turn too; a manual one only the later turns', () => {
    assert.equal(turnsSinceCheckpoint(items, 'cp-auto-1'), 3);
    assert.equal(turnsSinceCheckpoint(items, 'cp-auto-2'), 2);
    assert.equal(turnsSinceCheckpoint(items, 'cp-manual'), 2);
    assert.equal(turnsSinceCheckpoint(items.slice(0, 5), 'cp-manual'), 0);
    assert.equal(turnsSinceCheckpoint(items, 'cp-unknown'), undefined);
    assert.equal(turnsSinceCheckpoint(items.slice(1), 'cp-auto-1'), undefined, 'its prompt is gone');
  });
});

describe('chatRestoreOptions', () => {
  const base = { turns: 2, canUndo: true, running: false, deleted: false };

  test('all three when idle with undo and a known turn count', () => {
    const options = chatRestoreOptions(base);
    assert.deepEqual(
      options.map((o) => [o.mode, o.unavailable]),
      [
        ['files', undefined],
        ['conversation', undefined],
        ['both', undefined],
      ],
    );
    assert.match(options[1].detail, /the last 2 turns/);
    assert.match(chatRestoreOptions({ ...base, turns: 1 })[2].detail, /the last turn /);
  });

  test('why an option is unavailable', () => {
    const reasons = (c: Partial<typeof base> & { turns?: number | undefined }) =>
      chatRestoreOptions({ ...base, ...c }).map((o) => o.unavailable);
    assert.deepEqual(reasons({ canUndo: false }), [
      undefined,
      'This core cannot roll back the conversation.',
      'This core cannot roll back the conversation.',
    ]);
    assert.deepEqual(
      reasons({ running: true }).map((r) => r && /running/.test(r)),
      [true, true, true],
    );
    assert.deepEqual(
      reasons({ deleted: true }).map((r) => r && /deleted/.test(r)),
      [true, true, true],
    );
    assert.match(reasons({ turns: undefined })[1] as string, /no longer shows/);
    assert.match(reasons({ turns: 0 })[2] as string, /No turn came after/);
  });
});

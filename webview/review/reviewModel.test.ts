import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApprovalItem, SessionState, TranscriptItem } from '../../src/shared/sessionState';
import { approvalPath, countDiff, reviewAffected, reviewApprovals, ReviewRowCache, reviewStateText, rowsSignature } from './reviewModel';
import { emptyChange, type StateChange } from '../state/store';

function approval(id: string, fields: Partial<ApprovalItem> = {}): ApprovalItem {
  return {
    kind: 'approval',
    id,
    toolCallId: `c-${id}`,
    tool: 'edit',
    risk: 'destructive',
    args: JSON.stringify({ path: `src/${id}.ts` }),
    createdAt: 0,
    state: 'pending',
    ...fields,
  };
}
const user = (id: string): TranscriptItem => ({ kind: 'user', id, text: id, images: 0 });
const idle: SessionState['run'] = { status: 'idle' };
const ids = (selection: { approvals: ApprovalItem[] }) => selection.approvals.map((i) => i.id);

describe('countDiff', () => {
  test('counts + and - lines of every hunk, not the file headers', () => {
    const diff = '--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n+B2\n c\n@@ -10,2 +11,1 @@\n-y\n z\n';
    assert.deepEqual(countDiff(diff), { added: 2, removed: 2, partial: false });
  });

  test('a removed line that looks like a header ("--- x") is still a removed line', () => {
    const diff = '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n--- old rule\n+++ new rule\n keep\n';
    assert.deepEqual(countDiff(diff), { added: 1, removed: 1, partial: false });
  });

  test('a new file, a hunk header without counts, "\\ No newline", CRLF lines', () => {
    assert.deepEqual(countDiff('--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n'), {
      added: 2,
      removed: 0,
      partial: false,
    });
    assert.deepEqual(countDiff('@@ -3 +3 @@\n-x\r\n+y\r\n'), { added: 1, removed: 1, partial: false });
  });

  test("the core's truncation and size placeholders mark the counts partial", () => {
    assert.deepEqual(countDiff('--- a/x\n+++ b/x\n@@ -1,900 +1,900 @@\n-a\n+b\n… diff truncated …\n'), {
      added: 1,
      removed: 1,
      partial: true,
    });
    assert.deepEqual(countDiff('--- a/x\n+++ b/x\n@@ -1,5000 +1,5001 @@\n… large change (5000 → 5001 lines); diff omitted for size …\n'), {
      added: 0,
      removed: 0,
      partial: true,
    });
  });

  test('without hunk headers, lines are classified one by one', () => {
    assert.deepEqual(countDiff('--- a/x\n+++ b/x\n+new\n-old\n context\n'), { added: 1, removed: 1, partial: false });
    assert.deepEqual(countDiff(''), { added: 0, removed: 0, partial: false });
  });
});

describe('reviewApprovals: which run the list shows', () => {
  test("while a run is going: only that run's file approvals (bash and other runs left out)", () => {
    const items: TranscriptItem[] = [
      user('u1'),
      approval('old', { runId: 'r1', state: 'approved' }),
      user('u2'),
      approval('a', { runId: 'r2' }),
      approval('sh', { runId: 'r2', tool: 'bash', args: '{"command":"ls"}' }),
      approval('b', { runId: 'r2', tool: 'write_file' }),
    ];
    assert.deepEqual(ids(reviewApprovals(items, { status: 'waiting_approval', runId: 'r2' })), ['a', 'b']);
    assert.deepEqual(
      ids(reviewApprovals([...items, user('u3')], { status: 'running' })),
      [],
      'a new run with no file approval yet shows none',
    );
  });

  test('a run whose id is not known yet: the approvals after its prompt', () => {
    const items: TranscriptItem[] = [user('u1'), approval('old'), user('u2'), approval('new', { tool: 'patch' })];
    assert.deepEqual(ids(reviewApprovals(items, { status: 'running' })), ['new']);
  });

  test('idle: the most recent run that had file approvals, by run id or else by prompt', () => {
    const byId: TranscriptItem[] = [
      user('u1'),
      approval('a', { runId: 'r1', state: 'approved' }),
      approval('b', { runId: 'r1', state: 'denied' }),
      user('u2'),
      user('u3'),
    ];
    assert.deepEqual(ids(reviewApprovals(byId, idle)), ['a', 'b']);
    const noIds: TranscriptItem[] = [
      user('u1'),
      approval('x', { state: 'approved' }),
      user('u2'),
      approval('y', { state: 'cancelled' }),
      approval('z', { state: 'expired' }),
      user('u3'),
    ];
    assert.deepEqual(ids(reviewApprovals(noIds, idle)), ['y', 'z']);
    assert.deepEqual(reviewApprovals([user('u1'), approval('sh', { tool: 'bash' })], idle), { approvals: [], indexes: [] });
    assert.deepEqual(reviewApprovals([], idle), { approvals: [], indexes: [] });
    assert.deepEqual(reviewApprovals(byId, idle).indexes, [1, 2]);
  });
});

describe('review rows', () => {
  test('state texts', () => {
    assert.deepEqual(
      [
        approval('p'),
        approval('a', { state: 'approved' }),
        approval('e', { state: 'approved', edited: true }),
        approval('d', { state: 'denied' }),
        approval('x', { state: 'expired' }),
        approval('c', { state: 'cancelled' }),
      ].map(reviewStateText),
      ['Waiting for review', 'Accepted', 'Accepted with your edits', 'Rejected', 'Expired', 'Cancelled'],
    );
  });

  test('path from the arguments, else the diff header', () => {
    assert.equal(approvalPath(approval('a')), 'src/a.ts');
    assert.equal(
      approvalPath(approval('b', { args: '{"content":"x"}', diff: '--- a/lib/b.ts\n+++ b/lib/b.ts\n@@ -1 +1 @@\n-x\n+y\n' })),
      'lib/b.ts',
    );
    assert.equal(approvalPath(approval('c', { args: '' })), '(unknown file)');
  });

  test('rows carry counts, state and error; counts are reused while the diff is the same; the signature follows changes', () => {
    const cache = new ReviewRowCache();
    const diff = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,2 @@\n-x\n+y\n+z\n';
    const pending = approval('a', { diff });
    const [row] = cache.rows([pending]);
    assert.deepEqual(row, {
      id: 'a',
      path: 'src/a.ts',
      tool: 'edit',
      state: 'pending',
      stateText: 'Waiting for review',
      counts: { added: 2, removed: 1, partial: false },
    });
    const [again] = cache.rows([{ ...pending }]);
    assert.equal(again.counts, row.counts, 'the same diff is not counted twice');
    const decided = cache.rows([
      { ...pending, state: 'approved', decision: 'allow_pattern', error: 'approval pattern exceeds or does not match the requested scope' },
    ]);
    assert.equal(decided[0].error, 'approval pattern exceeds or does not match the requested scope');
    assert.notEqual(rowsSignature(decided), rowsSignature([row]));
    assert.equal(rowsSignature(cache.rows([pending])), rowsSignature([row]));
    assert.equal(cache.rows([approval('n')])[0].counts, undefined, 'no diff, no counts');
  });
});

describe('reviewAffected: the list re-renders only when its approvals can have changed', () => {
  const items: TranscriptItem[] = [
    user('u1'),
    approval('a', { runId: 'r1' }),
    { kind: 'assistant', id: 'x', text: 'streaming', thinking: '', streaming: true },
  ];
  const change = (over: Partial<StateChange>): StateChange => ({ ...emptyChange(), ...over });

  test('streamed text, usage and other keys do not matter', () => {
    assert.equal(reviewAffected(change({ items: new Set([2]) }), items, new Set([1]), 3), false);
    assert.equal(reviewAffected(change({ keys: new Set(['usage', 'context']) }), items, new Set([1]), 3), false);
  });

  test('a snapshot, the run, a shrunk transcript, a touched approval or prompt, or a touched shown index do', () => {
    assert.equal(reviewAffected(change({ reset: true }), items, new Set(), 3), true);
    assert.equal(reviewAffected(change({ keys: new Set(['run']) }), items, new Set(), 3), true);
    assert.equal(reviewAffected(change({ length: true }), items, new Set(), 5), true);
    assert.equal(reviewAffected(change({ items: new Set([1]) }), items, new Set(), 3), true);
    assert.equal(reviewAffected(change({ items: new Set([0]) }), items, new Set(), 3), true);
    assert.equal(
      reviewAffected(change({ items: new Set([2]) }), items, new Set([2]), 3),
      true,
      'a shown approval replaced by another item',
    );
  });
});

describe('SCV write proposals', () => {
  test("SCV's whole-file write is a reviewable file change, listed by its path without counts (no diff sent)", () => {
    const write = approval('w', { tool: 'write', runId: 'r1', args: JSON.stringify({ path: 'src/new.ts', content: 'x', mode: 'create' }) });
    const selection = reviewApprovals([user('u'), write], { status: 'running', runId: 'r1' });
    assert.deepEqual(ids(selection), ['w']);
    const [row] = new ReviewRowCache().rows(selection.approvals);
    assert.equal(row.path, 'src/new.ts');
    assert.equal(row.counts, undefined);
  });
});

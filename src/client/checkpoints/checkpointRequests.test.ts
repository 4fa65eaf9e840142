import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { answerOf, CheckpointRequestError, CheckpointRequests, failedKindOf, fileKey } from './checkpointRequests';

const ID = 'cp-1767225600-0123456789abcdef';

describe('answerOf', () => {
  test('names the request each answer settles', () => {
    assert.deepEqual(answerOf({ type: 'checkpoint_changes', id: ID, files: [] }), {
      kind: 'changes',
      key: ID,
      value: { id: ID, files: [] },
    });
    assert.equal(answerOf({ type: 'checkpoint_file', id: ID, path: 'a.ts', exists: false })?.key, fileKey(ID, 'a.ts'));
    assert.equal(answerOf({ type: 'checkpoint_restored', id: ID })?.kind, 'restore');
    assert.deepEqual(answerOf({ type: 'checkpoint_deleted', id: ID }), { kind: 'delete', key: ID, value: ID });
    assert.equal(answerOf({ type: 'checkpoints', checkpoints: [] })?.kind, 'list');
    assert.equal(answerOf({ type: 'checkpoint_created', id: ID, label: 'manual', auto: false })?.kind, 'create');
    assert.equal(
      answerOf({ type: 'checkpoint_created', id: ID, label: 'auto-before-destructive', auto: true }),
      undefined,
      'an automatic one answers nothing',
    );
    assert.equal(answerOf({ type: 'checkpoint_changes', id: ID }), undefined, 'malformed');
    assert.equal(answerOf({ type: 'delta', text: 'x' }), undefined);
  });

  test('errors: checkpoint codes fail the oldest, unsupported the command it names, others nothing', () => {
    assert.equal(failedKindOf({ type: 'error', code: 'checkpoint_not_found', message: 'unknown checkpoint: x' }, ['changes']), 'oldest');
    assert.equal(failedKindOf({ type: 'error', code: 'invalid_path' }, []), 'oldest');
    assert.equal(
      failedKindOf({ type: 'error', code: 'unsupported', message: 'unsupported command: checkpoint_file' }, ['changes', 'file']),
      'file',
    );
    assert.equal(failedKindOf({ type: 'error', code: 'unsupported', message: 'unsupported command: frobnicate' }, ['changes']), undefined);
    assert.equal(failedKindOf({ type: 'error', code: 'auth', message: 'no key' }, ['changes']), undefined);
    assert.equal(failedKindOf({ type: 'info', code: 'checkpoint_not_found' }, ['changes']), undefined);
  });
});

describe('CheckpointRequests', () => {
  test('an answer settles every request for the same checkpoint and file, and only those', async () => {
    const r = new CheckpointRequests();
    const a = r.expect('file', fileKey(ID, 'a.ts'), 1000);
    const a2 = r.expect('file', fileKey(ID, 'a.ts'), 1000);
    const b = r.expect('file', fileKey(ID, 'b.ts'), 1000);
    assert.equal(r.observe({ type: 'checkpoint_file', id: ID, path: 'a.ts', exists: true, content: 'A' }), true);
    assert.equal((await a).content, 'A');
    assert.equal((await a2).content, 'A');
    assert.equal(r.pending, 1);
    assert.equal(r.observe({ type: 'checkpoint_file', id: 'cp-other', path: 'b.ts', exists: true }), false);
    r.observe({ type: 'checkpoint_file', id: ID, path: 'b.ts', exists: false });
    assert.equal((await b).exists, false);
    assert.equal(r.pending, 0);
  });

  test('a checkpoint error rejects the oldest waiting request with the core’s message', async () => {
    const r = new CheckpointRequests();
    const first = r.expect('restore', 'cp-gone', 1000);
    const second = r.expect('changes', ID, 1000);
    r.observe({ type: 'error', code: 'checkpoint_not_found', message: 'unknown checkpoint: cp-gone' });
    await assert.rejects(
      first,
      (err: unknown) =>
        err instanceof CheckpointRequestError && err.code === 'checkpoint_not_found' && err.message === 'unknown checkpoint: cp-gone',
    );
    r.observe({ type: 'checkpoint_changes', id: ID, files: [{ path: 'x', status: 'added' }] });
    assert.deepEqual((await second).files, [{ path: 'x', status: 'added' }]);
  });

  test('an error naming its checkpoint (and file) rejects the request about that one, not the oldest', async () => {
    const r = new CheckpointRequests();
    const list = r.expect('list', '', 1000);
    const a = r.expect('file', fileKey(ID, 'a.ts'), 1000);
    const b = r.expect('file', fileKey(ID, 'b.ts'), 1000);
    const other = r.expect('changes', 'cp-other', 1000);
    r.observe({ type: 'error', code: 'invalid_path', message: 'invalid path', id: ID, path: 'b.ts' });
    await assert.rejects(b, /invalid path/);
    r.observe({ type: 'error', code: 'checkpoint_not_found', message: 'unknown checkpoint: cp-other', id: 'cp-other' });
    await assert.rejects(other, /cp-other/);
    r.observe({ type: 'error', code: 'checkpoint_not_found', message: 'unknown checkpoint', id: ID });
    await assert.rejects(a, /unknown checkpoint/);
    assert.equal(r.pending, 1);
    r.cancelAll('done');
    await assert.rejects(list, /done/);
  });

  test('an unsupported error rejects the request of the command it names', async () => {
    const r = new CheckpointRequests();
    const list = r.expect('list', '', 1000);
    const del = r.expect('delete', ID, 1000);
    r.observe({ type: 'error', code: 'unsupported', message: 'unsupported command: delete_checkpoint' });
    await assert.rejects(del, /unsupported command: delete_checkpoint/);
    assert.equal(r.pending, 1);
    r.observe({ type: 'checkpoints', checkpoints: [{ id: ID, label: 'x' }] });
    assert.equal((await list)[0].id, ID);
  });

  test('timeouts and cancelAll reject; a late answer is ignored', async () => {
    const r = new CheckpointRequests();
    await assert.rejects(r.expect('list', '', 10), (err: unknown) => err instanceof CheckpointRequestError && err.code === 'timeout');
    assert.equal(r.observe({ type: 'checkpoints', checkpoints: [] }), false);
    const p = r.expect('changes', ID, 1000);
    r.cancelAll('the core stopped');
    await assert.rejects(p, /the core stopped/);
    assert.equal(r.pending, 0);
  });

  test('request: a command that was not sent rejects at once', async () => {
    const r = new CheckpointRequests();
    await assert.rejects(
      r.request('delete', ID, 60_000, () => false),
      (err: unknown) => err instanceof CheckpointRequestError && err.code === 'not_sent',
    );
    await assert.rejects(
      r.request('delete', ID, 60_000, () => {
        throw new Error('boom');
      }),
      /not sent/,
    );
    assert.equal(r.pending, 0);
    let sent = 0;
    const ok = r.request('delete', ID, 1000, () => {
      sent++;
      return true;
    });
    r.observe({ type: 'checkpoint_deleted', id: ID });
    assert.equal(await ok, ID);
    assert.equal(sent, 1);
  });
});

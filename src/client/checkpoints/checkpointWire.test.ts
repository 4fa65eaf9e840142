// The controller's checkpoint intents against the real embedded core: each command reaches it validated, each answer is
// matched by CheckpointRequests, and the chat's checkpoint row follows (created, restored with counts, deleted).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointItem, SessionState } from '../../shared/sessionState';
import { ensureCoreBuilt, realCoreEnv, type RealCoreEnv } from '../../../test/support/realCoreHarness';
import { SessionController } from '../intents/sessionController';
import { CheckpointRequestError, CheckpointRequests, fileKey } from './checkpointRequests';

let env: RealCoreEnv;
let controller: SessionController;
const requests = new CheckpointRequests();
const T = 30_000;

before(async () => {
  await ensureCoreBuilt();
  env = await realCoreEnv([]);
  writeFileSync(join(env.workspace, 'a.txt'), 'one\n');
  writeFileSync(join(env.workspace, 'b.txt'), 'two\n');
  controller = new SessionController({
    launch: env.launch(),
    sessionsDir: env.sessionsDir,
    clientVersion: '0.1.0-test',
    handshakeTimeoutMs: 15_000,
  });
  controller.onEvent((e) => requests.observe(e));
  assert.equal(await controller.start(), true);
});

after(async () => {
  requests.cancelAll('test over');
  await controller?.dispose();
  await env?.cleanup();
});

const row = (s: SessionState, id: string) => s.items.find((i): i is CheckpointItem => i.kind === 'checkpoint' && i.id === id);
const lastNotice = (s: SessionState) => [...s.items].reverse().find((i) => i.kind === 'notice');
const ws = (name: string) => join(env.workspace, name);

describe('checkpoint intents against the embedded core', { timeout: 120_000 }, () => {
  test('the core advertises checkpoint_files', () => {
    assert.ok(controller.capabilities().has('checkpoint_files'), [...controller.capabilities()].join(', '));
  });

  test('create → changes → file → restore one path → restore all → delete, with the chat row following', async () => {
    const created = await requests.request('create', '', T, () => controller.createCheckpoint('  before the change  '));
    assert.equal(created.label, 'before the change');
    assert.equal(created.auto, false);
    assert.ok(created.createdAt && Math.abs(created.createdAt - Date.now()) < 60_000, String(created.createdAt));
    assert.equal(row(controller.state, created.id)?.label, 'before the change');

    writeFileSync(ws('a.txt'), 'ONE\n');
    rmSync(ws('b.txt'));
    writeFileSync(ws('c.txt'), 'new\n');

    const changes = await requests.request('changes', created.id, T, () => controller.checkpointChanges(created.id));
    assert.deepEqual(changes.files, [
      { path: 'a.txt', status: 'modified' },
      { path: 'b.txt', status: 'deleted' },
      { path: 'c.txt', status: 'added' },
    ]);

    const [a, c] = await Promise.all([
      requests.request('file', fileKey(created.id, 'a.txt'), T, () => controller.checkpointFile(created.id, 'a.txt')),
      requests.request('file', fileKey(created.id, 'c.txt'), T, () => controller.checkpointFile(created.id, 'c.txt')),
    ]);
    assert.deepEqual([a.exists, a.content], [true, 'one\n']);
    assert.equal(c.exists, false);

    const one = await requests.request('restore', created.id, T, () => controller.restoreCheckpoint(created.id, ['a.txt']));
    assert.deepEqual(one.restored, ['a.txt']);
    assert.equal(readFileSync(ws('a.txt'), 'utf8'), 'one\n');
    assert.equal(existsSync(ws('b.txt')), false, 'only the given path was restored');
    assert.deepEqual([row(controller.state, created.id)?.restored, row(controller.state, created.id)?.restoredFiles], [true, 1]);

    const all = await requests.request('restore', created.id, T, () => controller.restoreCheckpoint(created.id));
    assert.deepEqual(all.removed, ['c.txt']);
    assert.equal(readFileSync(ws('b.txt'), 'utf8'), 'two\n');
    assert.equal(existsSync(ws('c.txt')), false);
    assert.deepEqual([row(controller.state, created.id)?.restoredFiles, row(controller.state, created.id)?.removedFiles], [1, 1]);

    const list = await requests.request('list', '', T, () => controller.listCheckpoints());
    assert.ok(list.some((e) => e.id === created.id && e.label === 'before the change'));

    assert.equal(await requests.request('delete', created.id, T, () => controller.deleteCheckpoint(created.id)), created.id);
    assert.equal(row(controller.state, created.id)?.deleted, true);
    await assert.rejects(
      requests.request('changes', created.id, T, () => controller.checkpointChanges(created.id)),
      (err: unknown) => err instanceof CheckpointRequestError && err.code === 'checkpoint_not_found',
    );
    assert.equal(requests.pending, 0);
  });

  test('bad ids and paths are refused before they reach the core', () => {
    assert.equal(controller.restoreCheckpoint('cp-1', ['../outside']), false);
    assert.match(String((lastNotice(controller.state) as { text?: string })?.text), /workspace-relative/);
    assert.equal(controller.restoreCheckpoint('cp-1', []), false);
    assert.equal(controller.checkpointFile('cp-1', '/etc/passwd'), false);
    assert.equal(controller.checkpointChanges(''), false);
    assert.equal(controller.deleteCheckpoint('a\nb'), false);
  });
});

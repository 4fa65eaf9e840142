import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createdAtFromId,
  isCheckpointId,
  parseCheckpointChanges,
  parseCheckpointDeleted,
  parseCheckpointEntry,
  parseCheckpointFile,
  parseCheckpointList,
  parseCheckpointRestored,
  safeRelativePath,
  timestampMs,
} from './checkpointEvents';

const ID = 'cp-1767225600-0123456789abcdef';

describe('safeRelativePath', () => {
  test('keeps workspace-relative paths, normalized to forward slashes', () => {
    assert.equal(safeRelativePath('src/a.ts'), 'src/a.ts');
    assert.equal(safeRelativePath('./src/a.ts'), 'src/a.ts');
    assert.equal(safeRelativePath('src\\win\\b.ts'), 'src/win/b.ts');
    assert.equal(safeRelativePath('.github/workflows/ci.yml'), '.github/workflows/ci.yml');
    assert.equal(safeRelativePath('a..b/c'), 'a..b/c');
  });

  test('refuses what could leave the folder or is not a path', () => {
    for (const bad of [
      '',
      ' ',
      '/etc/passwd',
      'C:/x',
      'c:\\x',
      '../x',
      'a/../../x',
      'a/./b',
      'a//b',
      'a/',
      'a\u0000b',
      42,
      null,
      undefined,
      ['a'],
      'x'.repeat(4097),
    ]) {
      assert.equal(safeRelativePath(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe('times', () => {
  test('created_at in seconds (upstream) or milliseconds', () => {
    assert.equal(timestampMs(1_767_225_600), 1_767_225_600_000);
    assert.equal(timestampMs(1_767_225_600_500), 1_767_225_600_500);
    assert.equal(timestampMs(1_767_225_600.25), 1_767_225_600_250);
    for (const bad of [0, -5, NaN, Infinity, '1767225600', null, undefined]) assert.equal(timestampMs(bad), undefined, String(bad));
  });

  test('the id names its second', () => {
    assert.equal(createdAtFromId(ID), 1_767_225_600_000);
    assert.equal(createdAtFromId('cp-1-ab'), undefined);
    assert.equal(createdAtFromId('checkpoint'), undefined);
  });

  test('ids: short printable strings', () => {
    assert.ok(isCheckpointId(ID));
    for (const bad of ['', 'x'.repeat(201), 'a\nb', 3, null]) assert.equal(isCheckpointId(bad), false, JSON.stringify(bad));
  });
});

describe('parseCheckpointEntry / parseCheckpointList', () => {
  test('a full info of our core', () => {
    const entry = parseCheckpointEntry({
      id: ID,
      label: 'auto-before-destructive',
      created_at: 1_767_225_601,
      kind: 'git',
      auto: true,
      run_id: 'run-7',
      paths: [],
      skipped: ['big.bin', '../evil'],
      max_file_bytes: 5_242_880,
      head_sha: 'abc',
      stash_sha: 'def',
    });
    assert.deepEqual(entry, {
      id: ID,
      label: 'auto-before-destructive',
      createdAt: 1_767_225_601_000,
      kind: 'git',
      auto: true,
      runId: 'run-7',
      paths: [],
      skipped: ['big.bin'],
      maxFileBytes: 5_242_880,
    });
  });

  test('upstream shapes: no created_at (the id tells), null run_id, missing fields', () => {
    assert.deepEqual(
      parseCheckpointEntry({ id: ID, label: 'manual', kind: 'files', auto: false, paths: ['a.txt'], run_id: null, dir: '/x' }),
      {
        id: ID,
        label: 'manual',
        createdAt: 1_767_225_600_000,
        kind: 'files',
        auto: false,
        paths: ['a.txt'],
        skipped: [],
      },
    );
    assert.deepEqual(parseCheckpointEntry({ id: 'cp-x' }), { id: 'cp-x', label: '', auto: false, paths: [], skipped: [] });
    assert.equal(parseCheckpointEntry({ label: 'no id' }), undefined);
    assert.equal(parseCheckpointEntry({ id: 5 }), undefined);
  });

  test('the list comes newest first, by time then by the core’s order; junk and duplicates are dropped', () => {
    const list = parseCheckpointList({
      checkpoints: [
        { id: 'cp-1767225600-a', label: 'first', created_at: 1_767_225_600 },
        'junk',
        { id: 'cp-1767225600-b', label: 'same second, listed later', created_at: 1_767_225_600 },
        { id: 'cp-1767225700-c', label: 'newest', created_at: 1_767_225_700 },
        { id: 'cp-1767225600-a', label: 'duplicate' },
        { nope: true },
      ],
    });
    assert.deepEqual(
      list?.map((e) => e.label),
      ['newest', 'same second, listed later', 'first'],
    );
    assert.equal(parseCheckpointList({}), undefined);
    assert.deepEqual(parseCheckpointList({ checkpoints: [] }), []);
  });
});

describe('answers', () => {
  test('checkpoint_changes: statuses kept, unknown ones and unsafe paths dropped, sorted and deduplicated by path', () => {
    const changes = parseCheckpointChanges({
      id: ID,
      files: [
        { path: 'src/z.ts', status: 'modified' },
        { path: 'a.ts', status: 'added' },
        { path: '../outside', status: 'deleted' },
        { path: 'b.ts', status: 'renamed' },
        { path: 'c.ts', status: 'deleted' },
        { path: 'a.ts', status: 'modified' },
        'junk',
      ],
    });
    assert.deepEqual(changes, {
      id: ID,
      files: [
        { path: 'a.ts', status: 'modified' },
        { path: 'c.ts', status: 'deleted' },
        { path: 'src/z.ts', status: 'modified' },
      ],
    });
    assert.equal(parseCheckpointChanges({ id: ID }), undefined);
    assert.equal(parseCheckpointChanges({ files: [] }), undefined);
  });

  test('checkpoint_file: text, binary, too large, missing', () => {
    assert.deepEqual(parseCheckpointFile({ id: ID, path: 'a.ts', exists: true, content: 'x\n' }), {
      id: ID,
      path: 'a.ts',
      exists: true,
      content: 'x\n',
      binary: false,
      tooLarge: false,
    });
    assert.deepEqual(parseCheckpointFile({ id: ID, path: 'img.png', exists: true, binary: true }), {
      id: ID,
      path: 'img.png',
      exists: true,
      binary: true,
      tooLarge: false,
    });
    assert.deepEqual(parseCheckpointFile({ id: ID, path: 'big.log', exists: true, too_large: true }), {
      id: ID,
      path: 'big.log',
      exists: true,
      binary: false,
      tooLarge: true,
    });
    assert.deepEqual(parseCheckpointFile({ id: ID, path: 'gone.ts', exists: false }), {
      id: ID,
      path: 'gone.ts',
      exists: false,
      binary: false,
      tooLarge: false,
    });
    assert.equal(parseCheckpointFile({ id: ID, path: '/etc/passwd', exists: true, content: 'root' }), undefined);
  });

  test('checkpoint_restored with and without the lists; checkpoint_deleted', () => {
    assert.deepEqual(parseCheckpointRestored({ id: ID, kind: 'git', restored: ['a', 3], removed: [] }), {
      id: ID,
      restored: ['a'],
      removed: [],
    });
    assert.deepEqual(parseCheckpointRestored({ id: ID, kind: 'git' }), { id: ID });
    assert.equal(parseCheckpointRestored({}), undefined);
    assert.equal(parseCheckpointDeleted({ id: ID }), ID);
    assert.equal(parseCheckpointDeleted({ id: '' }), undefined);
  });
});

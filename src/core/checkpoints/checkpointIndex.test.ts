import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointIndex } from './checkpointIndex';
import { newCheckpointId } from './checkpointManager';
import type { CheckpointRecord } from './types';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cpindex-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const record = (id: string, label = id): CheckpointRecord => ({
  id,
  label,
  created_at: 1_700_000_000_123,
  kind: 'git',
  head_sha: 'h',
  stash_sha: 's',
  paths: [],
  dir: '',
  auto: false,
});

describe('CheckpointIndex', () => {
  test('appends, lists oldest first and applies deletions', () => {
    const index = new CheckpointIndex(path.join(dir, 'nested', 'x.checkpoints.jsonl'));
    assert.deepEqual(index.records(), []);
    index.append(record('cp-1'));
    index.append(record('cp-2'));
    index.append({ id: 'cp-1', deleted: true });
    index.append(record('cp-3'));
    assert.deepEqual(
      index.records().map((r) => r.id),
      ['cp-2', 'cp-3'],
    );
    assert.equal(index.find('cp-1'), undefined);
    assert.deepEqual(index.find('cp-3'), record('cp-3'));
  });

  test('tolerates a truncated last line and appends after it on a fresh line', () => {
    const file = path.join(dir, 'index.jsonl');
    fs.writeFileSync(file, JSON.stringify(record('cp-1')) + '\n{"id":"cp-2","lab');
    const index = new CheckpointIndex(file);
    assert.deepEqual(
      index.records().map((r) => r.id),
      ['cp-1'],
    );
    index.append(record('cp-3'));
    assert.deepEqual(
      index.records().map((r) => r.id),
      ['cp-1', 'cp-3'],
    );
  });

  test('reads upstream records: null shas and dir, created_at in seconds', () => {
    const file = path.join(dir, 'index.jsonl');
    fs.writeFileSync(
      file,
      '{"id":"cp-1700000000","label":"x","created_at":1700000000,"kind":"git","head_sha":"abc","stash_sha":null,"paths":[],"dir":null,"auto":true}\n',
    );
    assert.deepEqual(new CheckpointIndex(file).records(), [
      {
        id: 'cp-1700000000',
        label: 'x',
        created_at: 1_700_000_000_000,
        kind: 'git',
        head_sha: 'abc',
        stash_sha: '',
        paths: [],
        dir: '',
        auto: true,
      },
    ]);
  });
});

describe('newCheckpointId', () => {
  test('is cp-<unix secs>-<16 hex> and unique', () => {
    const id = newCheckpointId(new Date(1_700_000_000_999));
    assert.match(id, /^cp-1700000000-[0-9a-f]{16}$/);
    assert.notEqual(newCheckpointId(), newCheckpointId());
  });
});

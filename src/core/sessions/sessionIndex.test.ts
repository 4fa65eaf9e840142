import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionWriter, type SessionMessage } from './sessionFile';
import {
  checkpointIndexPathFor,
  deleteSessionFiles,
  listSessions,
  newestSessionFile,
  readSessionMeta,
  writeSessionMeta,
} from './sessionIndex';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-sessions-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeSession(name: string, messages: SessionMessage[], mtimeSecs: number): string {
  const file = path.join(dir, name);
  const w = new SessionWriter(file);
  for (const m of messages) w.appendMessage(m);
  w.appendRun({ session_id: 's', run_id: 'r', kind: 'turn', state: 'completed', timestamp_ms: 1 });
  w.close();
  fs.utimesSync(file, mtimeSecs, mtimeSecs);
  return file;
}

describe('listSessions', () => {
  test('titles, counts, order, current flag and the checkpoint-index exclusion', () => {
    const old = writeSession(
      '2026-01-01_10-00-00_000000000.jsonl',
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: '  Add a login\nform   to the app  ' },
        { role: 'assistant', content: 'ok' },
      ],
      1_000,
    );
    const newer = writeSession(
      '1767261600000000000.jsonl',
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'describe' },
            { type: 'image_url', image_url: { url: 'data:,' } },
            { type: 'text', text: 'this' },
          ],
        },
      ],
      3_000,
    );
    const empty = writeSession('empty.jsonl', [], 2_000);
    const long = writeSession('long.jsonl', [{ role: 'user', content: 'é'.repeat(100) }], 500);
    // Upstream bug §8.2: checkpoint indexes share the directory and the .jsonl extension.
    fs.writeFileSync(checkpointIndexPathFor(newer), '{"id":"cp-1"}\n');
    fs.utimesSync(checkpointIndexPathFor(newer), 9_000, 9_000);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    fs.mkdirSync(path.join(dir, 'dir.jsonl'));

    const list = listSessions(dir, path.join(dir, '.', 'empty.jsonl'));
    assert.deepEqual(
      list.map((s) => s.name),
      ['1767261600000000000.jsonl', 'empty.jsonl', '2026-01-01_10-00-00_000000000.jsonl', 'long.jsonl'],
    );
    const byName = new Map(list.map((s) => [s.name, s]));
    assert.deepEqual(byName.get(path.basename(old)), {
      name: path.basename(old),
      path: old,
      title: 'Add a login form to the app',
      messages: 3,
      mtime: 1_000,
      current: false,
      pinned: false,
    });
    assert.equal(byName.get(path.basename(newer))?.title, 'describe this');
    assert.equal(byName.get('empty.jsonl')?.title, 'empty.jsonl');
    assert.equal(byName.get('empty.jsonl')?.messages, 0);
    assert.equal(byName.get('empty.jsonl')?.current, true);
    assert.equal(byName.get('long.jsonl')?.title, 'é'.repeat(60));
    assert.equal(path.basename(long), 'long.jsonl');
    assert.equal(empty, path.join(dir, 'empty.jsonl'));
  });

  test('meta title wins and pinned sessions come first', () => {
    const a = writeSession('a.jsonl', [{ role: 'user', content: 'first' }], 1_000);
    writeSession('b.jsonl', [{ role: 'user', content: 'second' }], 2_000);
    writeSessionMeta(a, { title: 'Auth refactor', pinned: true });
    const list = listSessions(dir);
    assert.deepEqual(
      list.map((s) => [s.name, s.title, s.pinned]),
      [
        ['a.jsonl', 'Auth refactor', true],
        ['b.jsonl', 'second', false],
      ],
    );
  });

  test('a missing directory lists nothing', () => {
    assert.deepEqual(listSessions(path.join(dir, 'missing')), []);
    assert.equal(newestSessionFile(path.join(dir, 'missing')), undefined);
  });
});

describe('newestSessionFile', () => {
  test('picks the most recently modified session, never a checkpoint index', () => {
    writeSession('a.jsonl', [], 1_000);
    const b = writeSession('b.jsonl', [], 2_000);
    const index = checkpointIndexPathFor(b);
    fs.writeFileSync(index, '');
    fs.utimesSync(index, 5_000, 5_000);
    assert.equal(newestSessionFile(dir), b);
  });
});

describe('session meta', () => {
  test('patches merge, keep unknown keys, and write atomically', () => {
    const s = path.join(dir, 's.jsonl');
    assert.deepEqual(readSessionMeta(s), {});
    writeSessionMeta(s, { title: 'One' });
    fs.writeFileSync(s + '.meta.json', JSON.stringify({ ...JSON.parse(fs.readFileSync(s + '.meta.json', 'utf8')), color: 'red' }));
    writeSessionMeta(s, { pinned: true });
    assert.deepEqual(readSessionMeta(s), { title: 'One', pinned: true });
    assert.deepEqual(JSON.parse(fs.readFileSync(s + '.meta.json', 'utf8')), { title: 'One', color: 'red', pinned: true });
    writeSessionMeta(s, { title: '' });
    assert.deepEqual(readSessionMeta(s), { pinned: true });
    assert.deepEqual(fs.readdirSync(dir), ['s.jsonl.meta.json']);
  });

  test('a corrupt meta file reads as empty', () => {
    const s = path.join(dir, 's.jsonl');
    fs.writeFileSync(s + '.meta.json', '{"title": "cut');
    assert.deepEqual(readSessionMeta(s), {});
  });
});

describe('sidecars', () => {
  test('checkpointIndexPathFor replaces the extension like Rust set_extension', () => {
    assert.equal(checkpointIndexPathFor(path.join('/x', 'a.jsonl')), path.join('/x', 'a.checkpoints.jsonl'));
    assert.equal(
      checkpointIndexPathFor(path.join('/x', '2026-01-01_10-00-00_000000001.jsonl')),
      path.join('/x', '2026-01-01_10-00-00_000000001.checkpoints.jsonl'),
    );
    assert.equal(checkpointIndexPathFor(path.join('/x', 'noext')), path.join('/x', 'noext.checkpoints.jsonl'));
  });

  test('deleteSessionFiles removes the file and every sidecar, and nothing else', () => {
    const s = writeSession('s.jsonl', [{ role: 'user', content: 'x' }], 1_000);
    const other = writeSession('other.jsonl', [], 1_000);
    for (const suffix of ['.meta.json', '.stats', '.escalations', '.lock']) fs.writeFileSync(s + suffix, 'x');
    fs.writeFileSync(checkpointIndexPathFor(s), 'x');
    fs.writeFileSync(other + '.meta.json', 'x');
    deleteSessionFiles(s);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['other.jsonl', 'other.jsonl.meta.json']);
    assert.doesNotThrow(() => deleteSessionFiles(s), 'deleting again is fine');
  });
});

import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newestSessionFile, sessionFileToResume } from './sessionFiles';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sessions-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, mtimeSecs: number): string {
  const p = join(dir, name);
  writeFileSync(p, '{"_session_version":2}\n');
  utimesSync(p, mtimeSecs, mtimeSecs);
  return p;
}

test('the newest conversation file wins; checkpoint indexes, sidecars and directories do not count', () => {
  file('2026-01-01_10-00-00_000000000.jsonl', 1000);
  const newest = file('2026-01-02_10-00-00_000000000.jsonl', 2000);
  file('2026-01-02_10-00-00_000000000.checkpoints.jsonl', 9000);
  file('2026-01-02_10-00-00_000000000.jsonl.meta.json', 9000);
  mkdirSync(join(dir, 'dir.jsonl'));
  assert.equal(newestSessionFile(dir), newest);
  assert.equal(sessionFileToResume(dir), newest);
});

test('without sessions (or without the directory) a new TUI-style name is minted', () => {
  assert.equal(newestSessionFile(join(dir, 'missing')), undefined);
  const fresh = sessionFileToResume(join(dir, 'missing'), new Date(2026, 0, 2, 3, 4, 5, 6));
  assert.equal(fresh, join(dir, 'missing', '2026-01-02_03-04-05_006000000.jsonl'));
  assert.match(sessionFileToResume(dir), /\/\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_\d{9}\.jsonl$/);
});

import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Escalations } from './escalations';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'esc-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Escalations', () => {
  test('sidecarFor appends .escalations to the session path', () => {
    assert.equal(Escalations.sidecarFor('/s/2024.jsonl'), '/s/2024.jsonl.escalations');
  });

  test('add persists in upstream format and survives a reload; clear removes the file', () => {
    const file = join(dir, 'sessions', 's.jsonl.escalations');
    const e = new Escalations(file);
    assert.equal(e.has('destructive'), false);
    e.add('destructive');
    e.add('destructive');
    assert.equal(e.has('destructive'), true);
    assert.equal(e.has('readonly'), false);
    assert.equal(readFileSync(file, 'utf8'), '["destructive"]\n');
    e.add('readonly');
    const reloaded = new Escalations(file);
    assert.deepEqual(reloaded.list().sort(), ['destructive', 'readonly']);
    reloaded.clear();
    assert.equal(reloaded.has('destructive'), false);
    assert.equal(existsSync(file), false);
    assert.equal(new Escalations(file).has('destructive'), false);
  });

  test('reads one kind per line too, ignoring unknown kinds; malformed files mean none', () => {
    const lines = join(dir, 'a.escalations');
    writeFileSync(lines, 'readonly\nbogus\n\ndestructive\n');
    assert.deepEqual(new Escalations(lines).list(), ['readonly', 'destructive']);
    const broken = join(dir, 'b.escalations');
    writeFileSync(broken, '["destructive"');
    assert.deepEqual(new Escalations(broken).list(), []);
  });

  test('without a file it works in memory only', () => {
    const e = new Escalations();
    e.add('readonly');
    assert.equal(e.has('readonly'), true);
    e.clear();
    assert.equal(e.has('readonly'), false);
  });

  test('a write failure keeps the escalation in memory and reports it instead of throwing', () => {
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, '');
    const e = new Escalations(join(blocker, 's.escalations'));
    e.add('destructive');
    assert.equal(e.has('destructive'), true);
    assert.match(e.persistError ?? '', /could not write/);
  });
});

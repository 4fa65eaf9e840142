import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSessionFile, SessionWriter, type RunRecord, type SessionMessage } from './sessionFile';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-session-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const user = (content: string): SessionMessage => ({ role: 'user', content });
const run = (run_id: string, state: RunRecord['state'], extra: Partial<RunRecord> = {}): RunRecord => ({
  session_id: 'session-1',
  run_id,
  kind: 'turn',
  state,
  timestamp_ms: 1_700_000_000_000,
  ...extra,
});

function lines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\n');
}

describe('SessionWriter', () => {
  test('creates parent directories and writes the header to a new file', () => {
    const file = path.join(dir, 'a', 'b', 's.jsonl');
    const w = new SessionWriter(file);
    w.close();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"_session_version":2}\n');
  });

  test('appends without a second header to an existing file', () => {
    const file = path.join(dir, 's.jsonl');
    const w1 = new SessionWriter(file);
    w1.appendMessage(user('one'));
    w1.close();
    const w2 = new SessionWriter(file);
    w2.appendMessage(user('two'));
    w2.close();
    assert.deepEqual(lines(file), ['{"_session_version":2}', '{"role":"user","content":"one"}', '{"role":"user","content":"two"}', '']);
  });

  test('writes each line immediately, before sync', () => {
    const file = path.join(dir, 's.jsonl');
    const w = new SessionWriter(file);
    w.appendMessage(user('now'));
    assert.equal(loadSessionFile(file).messages.length, 1);
    w.sync();
    w.close();
  });

  test('append + load round-trip keeps every field and the run records', () => {
    const file = path.join(dir, 's.jsonl');
    const assistant: SessionMessage = {
      role: 'assistant',
      content: 'let me look',
      reasoning_content: 'thinking…',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
      extra_field: { kept: true },
    };
    const tool: SessionMessage = { role: 'tool', tool_call_id: 'call_1', content: 'file body\nwith "quotes" and \u2028' };
    const w = new SessionWriter(file);
    w.appendMessage({ role: 'system', content: 'sys' });
    w.appendRun(run('run-1', 'started'));
    w.appendMessage(user('hi'));
    w.appendMessage(assistant);
    w.appendMessage(tool);
    w.appendRun(run('run-1', 'completed', { detail: 'ok' }));
    w.sync();
    w.close();

    const loaded = loadSessionFile(file);
    assert.equal(loaded.version, 2);
    assert.deepEqual(loaded.messages, [{ role: 'system', content: 'sys' }, user('hi'), assistant, tool]);
    assert.deepEqual(loaded.runs, [run('run-1', 'started'), run('run-1', 'completed', { detail: 'ok' })]);
    assert.deepEqual(loaded.interruptedRuns, []);
    assert.equal(loaded.malformedLines, 0);
    assert.equal(loaded.truncatedTail, false);
    assert.deepEqual(loaded.warnings, []);
    assert.match(lines(file)[2], /^\{"_run":\{"session_id":"session-1","run_id":"run-1"/);
  });

  test('repairs a truncated last line before appending', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, '{"_session_version":2}\n{"role":"user","content":"kept"}\n{"role":"assistant","cont');
    const before = loadSessionFile(file);
    assert.equal(before.truncatedTail, true);
    assert.equal(before.messages.length, 1);

    const w = new SessionWriter(file);
    w.appendMessage(user('after crash'));
    w.close();
    assert.deepEqual(lines(file), [
      '{"_session_version":2}',
      '{"role":"user","content":"kept"}',
      '{"role":"user","content":"after crash"}',
      '',
    ]);
    const after = loadSessionFile(file);
    assert.equal(after.truncatedTail, false);
    assert.equal(after.malformedLines, 0);
    assert.deepEqual(
      after.messages.map((m) => m.content),
      ['kept', 'after crash'],
    );
  });

  test('a complete last line that only lacks its newline is kept, not cut', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, '{"_session_version":2}\n{"role":"user","content":"complete"}');
    const w = new SessionWriter(file);
    w.appendMessage(user('next'));
    w.close();
    assert.deepEqual(
      loadSessionFile(file).messages.map((m) => m.content),
      ['complete', 'next'],
    );
  });

  test('a file holding only a partial first line is truncated to empty and gets a header', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, '{"_sess');
    new SessionWriter(file).close();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"_session_version":2}\n');
  });

  test('rewrite replaces the file atomically and later appends go to the new file', () => {
    const file = path.join(dir, 's.jsonl');
    const w = new SessionWriter(file);
    for (let i = 0; i < 5; i++) w.appendMessage(user(`m${i}`));
    const inodeBefore = fs.statSync(file).ino;
    w.rewrite([user('summary')], [run('run-9', 'completed')]);
    w.appendMessage(user('after rewrite'));
    w.close();

    assert.notEqual(fs.statSync(file).ino, inodeBefore, 'rewrite must rename a new file into place');
    assert.deepEqual(fs.readdirSync(dir), ['s.jsonl'], 'no temp file left behind');
    const loaded = loadSessionFile(file);
    assert.deepEqual(
      loaded.messages.map((m) => m.content),
      ['summary', 'after rewrite'],
    );
    assert.deepEqual(loaded.runs, [run('run-9', 'completed')]);
    assert.equal(lines(file)[0], '{"_session_version":2}');
  });

  test('rejects use after close', () => {
    const w = new SessionWriter(path.join(dir, 's.jsonl'));
    w.close();
    assert.throws(() => w.appendMessage(user('x')), /closed/);
  });
});

describe('loadSessionFile', () => {
  test('a missing file is an empty session', () => {
    const loaded = loadSessionFile(path.join(dir, 'nope.jsonl'));
    assert.deepEqual(loaded, { messages: [], runs: [], malformedLines: 0, truncatedTail: false, interruptedRuns: [], warnings: [] });
  });

  test('counts and skips malformed lines in the middle', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(
      file,
      [
        '{"_session_version":2}',
        '{"role":"user","content":"a"}',
        '{not json',
        '[1,2]',
        '{"no_role":1}',
        '{"_run":"bad"}',
        '{"role":"assistant","content":"b"}',
        '',
      ].join('\n'),
    );
    const loaded = loadSessionFile(file);
    assert.equal(loaded.malformedLines, 4);
    assert.equal(loaded.truncatedTail, false);
    assert.deepEqual(
      loaded.messages.map((m) => m.content),
      ['a', 'b'],
    );
    assert.ok(loaded.warnings.some((w) => w.includes('4 malformed')));
  });

  test('reports runs that started but never reached a terminal state', () => {
    const file = path.join(dir, 's.jsonl');
    const w = new SessionWriter(file);
    w.appendRun(run('run-a', 'started'));
    w.appendRun(run('run-a', 'completed'));
    w.appendRun(run('run-b', 'started', { parent_run_id: 'run-a', tool_call_id: 'call_7', kind: 'subagent' }));
    w.appendRun(run('run-c', 'started'));
    w.appendRun(run('run-c', 'interrupted'));
    w.appendRun(run('run-d', 'started'));
    w.close();
    const loaded = loadSessionFile(file);
    assert.deepEqual(loaded.interruptedRuns, [
      run('run-b', 'started', { parent_run_id: 'run-a', tool_call_id: 'call_7', kind: 'subagent' }),
      run('run-d', 'started'),
    ]);
  });

  test('warns about a file from a newer version', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, '{"_session_version":3}\n{"role":"user","content":"x"}\n');
    const loaded = loadSessionFile(file);
    assert.equal(loaded.version, 3);
    assert.ok(loaded.warnings.some((w) => w.startsWith('session file is from a newer version')));
  });

  test('accepts v1 files with the spaced upstream header and files without a header', () => {
    const v1 = path.join(dir, 'v1.jsonl');
    fs.writeFileSync(v1, '{"_session_version": 1}\n{"role":"user","content":"old"}\n');
    const loaded = loadSessionFile(v1);
    assert.equal(loaded.version, 1);
    assert.deepEqual(loaded.warnings, []);
    assert.equal(loaded.messages.length, 1);

    const bare = path.join(dir, 'bare.jsonl');
    fs.writeFileSync(bare, '{"role":"user","content":"older"}\r\n{"role":"assistant","content":"yes"}\r\n');
    const b = loadSessionFile(bare);
    assert.equal(b.version, undefined);
    assert.deepEqual(
      b.messages.map((m) => m.content),
      ['older', 'yes'],
    );
  });

  test('skips unknown underscore metadata records without counting them as malformed', () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, '{"_session_version":2}\n{"_future_thing":{"x":1}}\n{"role":"user","content":"a"}\n');
    const loaded = loadSessionFile(file);
    assert.equal(loaded.malformedLines, 0);
    assert.equal(loaded.messages.length, 1);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fnv1a64Hex, nanosSessionName, sessionsDirFor, timestampedSessionName } from './sessionPaths';

describe('fnv1a64Hex', () => {
  test('matches the published FNV-1a 64 vectors', () => {
    assert.equal(fnv1a64Hex(''), 'cbf29ce484222325');
    assert.equal(fnv1a64Hex('a'), 'af63dc4c8601ec8c');
    assert.equal(fnv1a64Hex('foobar'), '85944171f73967e8');
  });

  test('hashes UTF-8 bytes, not UTF-16 code units', () => {
    // FNV-1a 64 of the bytes C3 A9 (UTF-8 of 'é'), computed independently.
    let h = 0xcbf29ce484222325n;
    for (const b of [0xc3, 0xa9]) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
    assert.equal(fnv1a64Hex('é'), h.toString(16).padStart(16, '0'));
  });

  test('always 16 digits', () => {
    for (let i = 0; i < 200; i++) assert.match(fnv1a64Hex(`/ws/${i}`), /^[0-9a-f]{16}$/);
  });
});

describe('sessionsDirFor', () => {
  test('is <configDir>/sessions/<hash of the absolute workspace>', () => {
    const dir = sessionsDirFor('/cfg', '/home/me/project');
    assert.equal(dir, path.join('/cfg', 'sessions', fnv1a64Hex('/home/me/project').replace(/^0+(?=.)/, '')));
  });

  test('normalises a trailing slash like Go filepath.Abs', () => {
    assert.equal(sessionsDirFor('/cfg', '/home/me/project/'), sessionsDirFor('/cfg', '/home/me/project'));
  });

  test('does not zero-pad, like the upstream TUI (%x) and web hub (toString(16))', () => {
    let found: string | undefined;
    for (let i = 0; i < 1000 && !found; i++) if (fnv1a64Hex(`/w${i}`).startsWith('0')) found = `/w${i}`;
    assert.ok(found, 'expected some path whose hash starts with 0');
    const name = path.basename(sessionsDirFor('/cfg', found));
    assert.equal(name, fnv1a64Hex(found).replace(/^0+/, ''));
    assert.ok(name.length < 16);
  });
});

describe('session file names', () => {
  test('timestampedSessionName uses local time and 9 nanosecond digits', () => {
    const d = new Date(2026, 0, 2, 3, 4, 5, 67);
    assert.equal(timestampedSessionName(d), '2026-01-02_03-04-05_067000000.jsonl');
    assert.match(timestampedSessionName(), /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_\d{9}\.jsonl$/);
  });

  test('nanosSessionName is unix nanoseconds and strictly increasing', () => {
    const before = BigInt(Date.now()) * 1_000_000n;
    const names = Array.from({ length: 50 }, () => nanosSessionName());
    const values = names.map((n) => BigInt(n.replace(/\.jsonl$/, '')));
    assert.ok(values[0] >= before);
    for (let i = 1; i < values.length; i++) assert.ok(values[i] > values[i - 1]);
    assert.match(names[0], /^\d{19}\.jsonl$/);
  });
});

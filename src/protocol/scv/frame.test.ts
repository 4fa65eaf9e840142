import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_CLIENT_FRAME_BYTES, MAX_PROMPT_BYTES } from './constants';
import { encodeClientFrame, formatBytes, promptLimitError } from './frame';

function turnStart(prompt: string) {
  return { type: 'turn.start' as const, request_id: 'c-1', session_id: 's', prompt };
}

describe('SCV client frames', () => {
  test("the limits are the protocol's: 1 MiB frames, 256 KiB prompts", () => {
    assert.equal(MAX_CLIENT_FRAME_BYTES, 1_048_576);
    assert.equal(MAX_PROMPT_BYTES, 262_144);
  });

  test('a frame is one JSON line; its size excludes the newline and counts UTF-8 bytes', () => {
    const frame = encodeClientFrame(turnStart('héllo'));
    assert.ok('line' in frame);
    assert.ok(frame.line.endsWith('\n'));
    assert.equal(frame.line.indexOf('\n'), frame.line.length - 1);
    assert.deepEqual(JSON.parse(frame.line), turnStart('héllo'));
    assert.equal(frame.bytes, Buffer.byteLength(frame.line) - 1);
  });

  test('a frame of exactly the limit passes; one byte more is refused with a reason', () => {
    const overhead = Buffer.byteLength(JSON.stringify(turnStart('')));
    const exact = encodeClientFrame(turnStart('x'.repeat(100 - overhead)), 100);
    assert.ok('line' in exact && exact.bytes === 100);
    const over = encodeClientFrame(turnStart('x'.repeat(101 - overhead)), 100);
    assert.ok('error' in over);
    assert.equal(over.bytes, 101);
    assert.match(over.error, /turn\.start message is 101 bytes; an SCV server accepts at most 100 bytes/);
  });

  test('escaping counts: a prompt under the prompt limit can still make a frame over 1 MiB', () => {
    const prompt = '\u0001'.repeat(200 * 1024);
    assert.equal(promptLimitError(prompt), undefined);
    const frame = encodeClientFrame(turnStart(prompt));
    assert.ok('error' in frame, 'each control character is six bytes on the wire');
    assert.match(frame.error, /at most 1 MiB/);
  });

  test('prompts are measured in UTF-8 bytes', () => {
    assert.equal(promptLimitError('a'.repeat(MAX_PROMPT_BYTES)), undefined);
    assert.match(promptLimitError('a'.repeat(MAX_PROMPT_BYTES + 1)) ?? '', /262,145 bytes; an SCV server accepts at most 256 KiB/);
    // 'é' is two bytes: half the limit in characters is already the whole limit in bytes.
    assert.equal(promptLimitError('é'.repeat(MAX_PROMPT_BYTES / 2)), undefined);
    assert.ok(promptLimitError('é'.repeat(MAX_PROMPT_BYTES / 2) + 'a'));
  });

  test('byte counts read naturally', () => {
    assert.equal(formatBytes(1024 * 1024), '1 MiB');
    assert.equal(formatBytes(256 * 1024), '256 KiB');
    assert.equal(formatBytes(1500), '1,500 bytes');
  });
});

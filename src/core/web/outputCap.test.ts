import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { capBytes, WEB_OUTPUT_CAP_BYTES } from './outputCap';

describe('capBytes', () => {
  test('text within the cap is unchanged', () => {
    const text = 'x'.repeat(WEB_OUTPUT_CAP_BYTES);
    assert.equal(capBytes(text), text);
  });

  test('longer text keeps its head and tail within the cap, never splitting a character', () => {
    const text = `HEAD${'é'.repeat(20_000)}TAIL`;
    const capped = capBytes(text);
    assert.ok(Buffer.byteLength(capped) <= WEB_OUTPUT_CAP_BYTES);
    assert.ok(capped.startsWith('HEAD') && capped.endsWith('TAIL'));
    assert.match(capped, /\n\.\.\.\[truncated: 40008 bytes -> 24576 bytes\]\.\.\.\n/);
    assert.ok(!capped.includes('\uFFFD'), 'no broken UTF-8');
  });
});

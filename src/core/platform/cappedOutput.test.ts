import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CappedOutput } from './cappedOutput';

describe('CappedOutput', () => {
  test('keeps everything under the cap', () => {
    const output = new CappedOutput(10);
    output.append(Buffer.from('abc'));
    output.append(Buffer.from('defg'));
    assert.equal(output.text(), 'abcdefg');
  });

  test('keeps the head and the tail and says how much was dropped', () => {
    const output = new CappedOutput(8);
    for (const chunk of ['0123', '4567', '89ab', 'cdef']) output.append(Buffer.from(chunk));
    assert.equal(output.text(), '0123\n… [8 bytes of output omitted] …\ncdef');
  });
});

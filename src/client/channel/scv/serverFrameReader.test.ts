import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { ServerFrameReader } from './serverFrameReader';

function reader(maxLineBytes: number) {
  const values: unknown[] = [];
  const errors: string[] = [];
  const r = new ServerFrameReader({
    maxLineBytes,
    onValue: (v) => values.push(v),
    onError: (err) => errors.push(`${err.kind}:${err.bytes}`),
  });
  return { r, values, errors };
}

const line = (n: number, pad: number) => `{"n":${n},"p":"${'x'.repeat(pad)}"}\n`;

describe('ServerFrameReader', () => {
  test('lines over the limit are dropped and reported; the others arrive', () => {
    const { r, values, errors } = reader(40);
    r.push(Buffer.from(line(1, 5) + line(2, 60) + line(3, 5)));
    assert.deepEqual(values, [
      { n: 1, p: 'xxxxx' },
      { n: 3, p: 'xxxxx' },
    ]);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^oversize:/);
  });

  test('a raised limit applies from the next line, even when a line straddles the switch', () => {
    const { r, values, errors } = reader(40);
    const big = line(2, 60);
    r.push(Buffer.from(line(1, 5) + big.slice(0, 10)));
    r.setMaxLineBytes(200);
    assert.equal(r.maxLineBytes, 200);
    r.push(Buffer.from(big.slice(10) + line(3, 60)));
    assert.deepEqual(
      values.map((v) => (v as { n: number }).n),
      [1, 3],
      'the straddling line was read under the old limit',
    );
    assert.equal(errors.length, 1);
    r.push(Buffer.from(line(4, 150)));
    assert.deepEqual(
      values.map((v) => (v as { n: number }).n),
      [1, 3, 4],
    );
  });

  test('a lowered limit applies to later lines; a chunk without a newline waits for one', () => {
    const { r, values, errors } = reader(1000);
    r.setMaxLineBytes(40);
    r.push(Buffer.from('{"n":1,'));
    r.push(Buffer.from(`"p":"${'x'.repeat(100)}"}\n${line(2, 100)}${line(3, 1)}`));
    assert.deepEqual(
      values.map((v) => (v as { n: number }).n),
      [1, 3],
    );
    assert.deepEqual(
      errors.map((e) => e.split(':')[0]),
      ['oversize'],
    );
  });

  test('setting the current limit again changes nothing; end() flushes a last unterminated line', () => {
    const { r, values } = reader(100);
    r.setMaxLineBytes(100);
    r.push(Buffer.from('{"n":1}'));
    r.end();
    assert.deepEqual(values, [{ n: 1 }]);
  });
});

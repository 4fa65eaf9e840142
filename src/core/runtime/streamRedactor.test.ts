import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, secretNeedles } from './redact';
import { StreamRedactor } from './streamRedactor';

const KEY = 'sk-live-ABCDEF0123456789';

function redactor(secrets: string[]): StreamRedactor {
  const needles = secretNeedles(secrets);
  return new StreamRedactor(() => needles);
}

/** Feeds `chunks` through a fresh redactor and returns every emitted piece, the flush last. */
function run(secrets: string[], chunks: string[]): string[] {
  const r = redactor(secrets);
  const out = chunks.map((c) => r.push(c));
  out.push(r.flush());
  assert.equal(r.pending, '', 'nothing is held after the flush');
  return out;
}

/** The whole text scrubbed in one go (the reference every chunking must reproduce). */
function whole(secrets: string[], text: string): string {
  return run(secrets, [text]).join('');
}

function assertNoLeak(pieces: string[], secrets: string[]): void {
  const joined = pieces.join('');
  for (const s of secrets) {
    assert.ok(!joined.includes(s), `the concatenated output contains ${s}: ${JSON.stringify(pieces)}`);
    for (const p of pieces) assert.ok(!p.includes(s), `a piece contains ${s}`);
  }
}

test('a key split at every position of a two-chunk stream is redacted; nothing else is lost or reordered', () => {
  const text = `before ${KEY} after`;
  const expected = `before ${REDACTED} after`;
  for (let cut = 0; cut <= text.length; cut++) {
    const pieces = run([KEY], [text.slice(0, cut), text.slice(cut)]);
    assertNoLeak(pieces, [KEY]);
    assert.equal(pieces.join(''), expected, `cut at ${cut}`);
  }
});

test('a key streamed one character at a time, and at every pair of cut points, is redacted', () => {
  const text = `x${KEY}y${KEY}`;
  const expected = `x${REDACTED}y${REDACTED}`;
  const single = run([KEY], [...text]);
  assertNoLeak(single, [KEY]);
  assert.equal(single.join(''), expected);
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b++) {
      const pieces = run([KEY], [text.slice(0, a), text.slice(a, b), text.slice(b)]);
      assertNoLeak(pieces, [KEY]);
      assert.equal(pieces.join(''), expected, `cuts at ${a}, ${b}`);
    }
  }
});

test('only a possible start of a key is held, and it goes out with the next chunk', () => {
  const r = redactor([KEY]);
  assert.equal(r.push('the answer is sk-li'), 'the answer is ');
  assert.equal(r.pending, 'sk-li');
  assert.equal(r.push('nen is a fabric'), 'sk-linen is a fabric', 'a prefix that turns out not to be a key is released whole');
  assert.equal(r.pending, '');
  assert.equal(r.push('tasks'), 'task', 'a lone "s" could start the key');
  assert.equal(r.flush(), 's', 'the flush releases a prefix that never completed');
});

test('two different keys, adjacent, interleaved with text and cut everywhere', () => {
  const other = 'ghp_ZYXWVUTSRQ987654';
  const text = `${KEY}${other} and ${other}, ${KEY}.`;
  const expected = `${REDACTED}${REDACTED} and ${REDACTED}, ${REDACTED}.`;
  assert.equal(whole([KEY, other], text), expected);
  for (let cut = 0; cut <= text.length; cut++) {
    const pieces = run([KEY, other], [text.slice(0, cut), text.slice(cut)]);
    assertNoLeak(pieces, [KEY, other]);
    assert.equal(pieces.join(''), expected, `cut at ${cut}`);
  }
});

test('keys sharing a prefix, a key inside another, self-overlapping keys: every chunking gives the one-shot result', () => {
  const cases: { secrets: string[]; text: string }[] = [
    { secrets: ['abcdXYZ1', 'abcdQQQ2'], text: 'abcdabcdXYZ1 abcdQQQ2 abcdQQ abcdXYZ' },
    { secrets: ['token-1234', 'token-1234-extended'], text: 'token-1234-extended token-1234 token-1234-ext' },
    { secrets: ['aaaa'], text: 'aaaaaaaaa baaab aaa' },
    { secrets: ['abab', 'babab'], text: 'abababababa' },
    { secrets: ['1234', '2345', '3456'], text: '0123456789 123 2345' },
  ];
  for (const { secrets, text } of cases) {
    const reference = whole(secrets, text);
    for (const s of secrets) assert.ok(!reference.includes(s), `one-shot scrub of ${text}`);
    for (let a = 0; a <= text.length; a++) {
      for (let b = a; b <= text.length; b++) {
        const pieces = run(secrets, [text.slice(0, a), text.slice(a, b), text.slice(b)]);
        assertNoLeak(pieces, secrets);
        assert.equal(pieces.join(''), reference, `${JSON.stringify(secrets)} cuts at ${a}, ${b}`);
      }
    }
  }
});

test('random chunkings of random text over a small alphabet never leak and always equal the one-shot result', () => {
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const secrets = ['abca', 'bcab', 'cabcab'];
  for (let round = 0; round < 400; round++) {
    const text = Array.from({ length: 5 + rand(40) }, () => 'abc '[rand(4)]).join('');
    const reference = whole(secrets, text);
    const chunks: string[] = [];
    for (let i = 0; i < text.length;) {
      const n = 1 + rand(6);
      chunks.push(text.slice(i, i + n));
      i += n;
    }
    const pieces = run(secrets, chunks);
    assertNoLeak(pieces, secrets);
    assert.equal(pieces.join(''), reference, `text ${JSON.stringify(text)} chunks ${JSON.stringify(chunks)}`);
  }
});

test('the JSON-escaped form of a key is caught in streamed tool-call arguments', () => {
  const secret = 'pa"ss\\word-42';
  const args = JSON.stringify({ command: `echo ${secret}` });
  assert.ok(!args.includes(secret) && args.includes(JSON.stringify(secret).slice(1, -1)));
  for (let cut = 0; cut <= args.length; cut++) {
    const pieces = run([secret], [args.slice(0, cut), args.slice(cut)]);
    const joined = pieces.join('');
    assert.equal(joined, `{"command":"echo ${REDACTED}"}`, `cut at ${cut}`);
  }
});

test('with no secret configured (or only too-short ones) nothing is held and chunks pass through as they are', () => {
  for (const secrets of [[], ['abc'], ['']]) {
    const r = redactor(secrets);
    for (const chunk of ['s', 'sk-', 'abc', 'ab', '']) {
      assert.equal(r.push(chunk), chunk);
      assert.equal(r.pending, '');
    }
    assert.equal(r.flush(), '');
  }
});

test('a key configured mid-stream applies from the next push; a key removed mid-stream releases what was held', () => {
  let needles: string[] = [];
  const r = new StreamRedactor(() => needles);
  assert.equal(r.push('one sk-'), 'one sk-');
  needles = secretNeedles([KEY]);
  assert.equal(r.push(`${KEY} two sk-live`), `${REDACTED} two `);
  needles = [];
  assert.equal(r.push('-X'), 'sk-live-X');
  assert.equal(r.flush(), '');
});

test('empty chunks are fine and the flush of an empty stream is empty', () => {
  const r = redactor([KEY]);
  assert.equal(r.push(''), '');
  assert.equal(r.flush(), '');
  assert.equal(r.push('sk'), '');
  assert.equal(r.push(''), '');
  assert.equal(r.push('-live-ABCDEF0123456789!'), `${REDACTED}!`);
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { NdjsonDecoder, encodeLine, isCommand, DEFAULT_MAX_LINE_BYTES, type NdjsonDecodeError } from './ndjson';

interface Decoded {
  values: unknown[];
  lineBytes: number[];
  errors: NdjsonDecodeError[];
  decoder: NdjsonDecoder;
}

function collector(maxLineBytes?: number): Decoded {
  const values: unknown[] = [];
  const lineBytes: number[] = [];
  const errors: NdjsonDecodeError[] = [];
  const decoder = new NdjsonDecoder({
    maxLineBytes,
    onValue: (value, bytes) => {
      values.push(value);
      lineBytes.push(bytes);
    },
    onError: (err) => errors.push(err),
  });
  return { values, lineBytes, errors, decoder };
}

function decodeChunks(chunks: (Uint8Array | string)[], maxLineBytes?: number): Decoded {
  const result = collector(maxLineBytes);
  for (const chunk of chunks) result.decoder.push(chunk);
  result.decoder.end();
  return result;
}

function splitAt(bytes: Buffer, ...offsets: number[]): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (const offset of offsets) {
    parts.push(bytes.subarray(start, offset));
    start = offset;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

const SAMPLE_VALUES = [
  { type: 'delta', text: 'hello' },
  { type: 'delta', text: 'prix: 5 € — naïve 日本語 𝄞' },
  { type: 'tool_call', id: 'call_1', name: 'write_file', args: '{"path":"a.ts","content":"x\\ny"}' },
  { type: 'done', nested: { list: [1, 2, { deep: true }] } },
];
const SAMPLE = Buffer.from(SAMPLE_VALUES.map((v) => JSON.stringify(v) + '\n').join(''), 'utf8');

describe('NdjsonDecoder: line splitting', () => {
  test('decodes the same values whatever single byte offset splits the stream', () => {
    for (let offset = 0; offset <= SAMPLE.length; offset++) {
      const { values, errors } = decodeChunks(splitAt(SAMPLE, offset));
      assert.deepEqual(errors, [], `split at ${offset}`);
      assert.deepEqual(values, SAMPLE_VALUES, `split at ${offset}`);
    }
  });

  test('decodes the same values whatever pair of offsets splits the stream', () => {
    for (let first = 0; first <= SAMPLE.length; first += 3) {
      for (let second = first; second <= SAMPLE.length; second += 5) {
        const { values, errors } = decodeChunks(splitAt(SAMPLE, first, second));
        assert.deepEqual(errors, []);
        assert.deepEqual(values, SAMPLE_VALUES, `split at ${first} and ${second}`);
      }
    }
  });

  test('a long mixed stream cut at random offsets decodes like split + JSON.parse', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = ['ab', 'ç', '€', '𝄞', '日本', '\\', '"', '\n', ' '];
    const expected: unknown[] = [];
    let text = '';
    for (let i = 0; i < 2000; i++) {
      let s = '';
      const length = random() < 0.02 ? 5000 : Math.floor(random() * 40);
      for (let j = 0; j < length; j++) s += pieces[Math.floor(random() * pieces.length)];
      const value = { type: 'delta', i, text: s };
      expected.push(value);
      text += JSON.stringify(value) + (random() < 0.3 ? '\r\n' : '\n');
    }
    const stream = Buffer.from(text, 'utf8');
    const offsets: number[] = [];
    for (let at = 0; at < stream.length; at += 1 + Math.floor(random() * 3000)) offsets.push(at);
    const { values, errors } = decodeChunks(splitAt(stream, ...offsets));
    assert.deepEqual(errors, []);
    assert.deepEqual(values, expected);
  });

  test('decodes the stream fed one byte at a time', () => {
    const chunks = [...SAMPLE].map((byte) => Uint8Array.of(byte));
    const { values, errors } = decodeChunks(chunks);
    assert.deepEqual(errors, []);
    assert.deepEqual(values, SAMPLE_VALUES);
  });

  test('reports the byte length of each line, without its terminator', () => {
    const lines = SAMPLE_VALUES.map((v) => JSON.stringify(v));
    const { lineBytes } = decodeChunks([SAMPLE]);
    assert.deepEqual(
      lineBytes,
      lines.map((line) => Buffer.byteLength(line)),
    );
  });

  test('reports byte lengths correctly when lines are split across chunks', () => {
    const lines = SAMPLE_VALUES.map((v) => JSON.stringify(v));
    const { lineBytes } = decodeChunks(splitAt(SAMPLE, 7, 60, 61, 62));
    assert.deepEqual(
      lineBytes,
      lines.map((line) => Buffer.byteLength(line)),
    );
  });

  test('tolerates \\r\\n line endings and ignores empty and blank lines', () => {
    const text = '\n{"type":"a"}\r\n\r\n   \n{"type":"b"}\r\n\n';
    const { values, errors, lineBytes } = decodeChunks([text]);
    assert.deepEqual(errors, []);
    assert.deepEqual(values, [{ type: 'a' }, { type: 'b' }]);
    assert.deepEqual(lineBytes, [12, 12]);
  });

  test('tolerates \\r\\n line endings in lines holding non-ASCII text', () => {
    const text = '{"t":"€"}\r\n\r\n{"t":"日本"}\r\n';
    const { values, errors, lineBytes } = decodeChunks([text]);
    assert.deepEqual(errors, []);
    assert.deepEqual(values, [{ t: '€' }, { t: '日本' }]);
    assert.deepEqual(lineBytes, [Buffer.byteLength('{"t":"€"}'), Buffer.byteLength('{"t":"日本"}')]);
  });

  test('a \\r\\n split between two chunks is still one terminator', () => {
    const { values, errors } = decodeChunks(['{"type":"a"}\r', '\n{"type":"b"}\r', '\n']);
    assert.deepEqual(errors, []);
    assert.deepEqual(values, [{ type: 'a' }, { type: 'b' }]);
  });

  test('end() flushes a final unterminated line, with or without \\r', () => {
    assert.deepEqual(decodeChunks(['{"type":"a"}\n{"type":"b"}']).values, [{ type: 'a' }, { type: 'b' }]);
    assert.deepEqual(decodeChunks(['{"type":"c"}\r']).values, [{ type: 'c' }]);
  });

  test('without end() an unterminated line is held, not emitted', () => {
    const { values, decoder } = collector();
    decoder.push('{"type":"a"}\n{"type":');
    assert.deepEqual(values, [{ type: 'a' }]);
    assert.equal(decoder.bufferedBytes, Buffer.byteLength('{"type":'));
    decoder.push('"b"}\n');
    assert.deepEqual(values, [{ type: 'a' }, { type: 'b' }]);
    assert.equal(decoder.bufferedBytes, 0);
  });

  test('accepts string chunks and Uint8Arrays that are not Buffers', () => {
    const view = new Uint8Array(SAMPLE.buffer.slice(SAMPLE.byteOffset, SAMPLE.byteOffset + SAMPLE.length));
    assert.deepEqual(decodeChunks([view]).values, SAMPLE_VALUES);
    assert.deepEqual(decodeChunks([SAMPLE.toString('utf8')]).values, SAMPLE_VALUES);
  });

  test('keeps its own copy of a held tail when the caller reuses its buffer', () => {
    const { values, decoder } = collector();
    const reused = Buffer.from('{"type":"first"}\n{"ty');
    decoder.push(reused);
    reused.fill(0x78); // the caller overwrites its read buffer
    decoder.push('pe":"second"}\n');
    assert.deepEqual(values, [{ type: 'first' }, { type: 'second' }]);
  });

  test('unknown fields are preserved as they are', () => {
    const line = '{"type":"future_event","protocol_version":2,"extra":{"a":[1,null,"x"]},"n":1.5}\n';
    const { values } = decodeChunks([line]);
    assert.deepEqual(values, [{ type: 'future_event', protocol_version: 2, extra: { a: [1, null, 'x'] }, n: 1.5 }]);
  });
});

describe('NdjsonDecoder: UTF-8', () => {
  const characters = ['€', '𝄞', '日本語', 'é'];
  for (const text of characters) {
    test(`decodes '${text}' split inside its byte sequence`, () => {
      const bytes = Buffer.from(`{"type":"delta","text":"${text}"}\n`, 'utf8');
      const start = bytes.indexOf(Buffer.from(text, 'utf8'));
      const length = Buffer.byteLength(text);
      for (let offset = start + 1; offset < start + length; offset++) {
        const { values, errors } = decodeChunks(splitAt(bytes, offset));
        assert.deepEqual(errors, []);
        assert.deepEqual(values, [{ type: 'delta', text }], `split at byte ${offset}`);
      }
    });
  }

  test('decodes a multi-byte character split over three chunks', () => {
    const bytes = Buffer.from('{"text":"𝄞"}\n', 'utf8');
    const start = bytes.indexOf(0xf0);
    const { values } = decodeChunks(splitAt(bytes, start + 1, start + 2, start + 3));
    assert.deepEqual(values, [{ text: '𝄞' }]);
  });

  test('an invalid UTF-8 line is reported as utf8 and the next lines still decode', () => {
    const bad = Buffer.concat([Buffer.from('{"text":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}\n')]);
    const stream = Buffer.concat([Buffer.from('{"type":"a"}\n'), bad, Buffer.from('{"type":"b","t":"€"}\n')]);
    const { values, errors } = decodeChunks([stream]);
    assert.deepEqual(values, [{ type: 'a' }, { type: 'b', t: '€' }]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].kind, 'utf8');
    assert.equal(errors[0].bytes, bad.length - 1);
    assert.ok(errors[0].preview.startsWith('{"text":"'));
  });

  test('an invalid UTF-8 line spanning chunks is reported once', () => {
    const bad = Buffer.concat([Buffer.from('{"text":"ab'), Buffer.from([0xfe]), Buffer.from('cd"}\n{"type":"next"}\n')]);
    const { values, errors } = decodeChunks(splitAt(bad, 4, 11, 12));
    assert.deepEqual(values, [{ type: 'next' }]);
    assert.deepEqual(
      errors.map((e) => [e.kind, e.bytes]),
      [['utf8', 16]],
    );
  });

  test('a truncated multi-byte sequence at the end of a line is invalid UTF-8', () => {
    const bad = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}\n')]);
    const { values, errors } = decodeChunks([bad, '{"ok":true}\n']);
    assert.deepEqual(values, [{ ok: true }]);
    assert.deepEqual(
      errors.map((e) => e.kind),
      ['utf8'],
    );
  });

  test('UTF-16 surrogates encoded in UTF-8 (CESU) are rejected', () => {
    const bad = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}\n')]);
    const { errors } = decodeChunks([bad]);
    assert.deepEqual(
      errors.map((e) => e.kind),
      ['utf8'],
    );
  });
});

describe('NdjsonDecoder: bad lines', () => {
  test('garbage lines are reported as parse errors and decoding continues', () => {
    const { values, errors } = decodeChunks(['not json\n{"type":"a"}\n{"type":\n}{\n{"type":"b"}\n']);
    assert.deepEqual(values, [{ type: 'a' }, { type: 'b' }]);
    assert.deepEqual(
      errors.map((e) => e.kind),
      ['parse', 'parse', 'parse'],
    );
    assert.equal(errors[0].preview, 'not json');
    assert.equal(errors[0].bytes, 8);
    assert.match(errors[0].message, /invalid JSON/);
  });

  test('a JSON value that is not an object is reported as not_object', () => {
    const { values, errors } = decodeChunks(['[1,2]\n42\nnull\n"text"\ntrue\n{"type":"ok"}\n']);
    assert.deepEqual(values, [{ type: 'ok' }]);
    assert.deepEqual(
      errors.map((e) => e.kind),
      ['not_object', 'not_object', 'not_object', 'not_object', 'not_object'],
    );
    assert.match(errors[0].message, /array/);
    assert.match(errors[2].message, /null/);
  });

  test('a parse error preview is at most 120 characters', () => {
    const { errors } = decodeChunks(['x'.repeat(1000) + '\n']);
    assert.equal(errors[0].preview, 'x'.repeat(120));
    assert.equal(errors[0].bytes, 1000);
  });
});

describe('NdjsonDecoder: oversize lines', () => {
  test('an oversize line within one chunk is skipped and the next line decodes', () => {
    const big = JSON.stringify({ type: 'big', text: 'x'.repeat(200) });
    const { values, errors } = decodeChunks([`{"type":"a"}\n${big}\n{"type":"b"}\n`], 100);
    assert.deepEqual(values, [{ type: 'a' }, { type: 'b' }]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].kind, 'oversize');
    assert.equal(errors[0].bytes, big.length);
    assert.equal(errors[0].preview, big.slice(0, 120));
  });

  test('a line of exactly the limit is accepted', () => {
    const line = JSON.stringify({ t: 'x'.repeat(42) });
    const { values, errors } = decodeChunks([line + '\n'], Buffer.byteLength(line));
    assert.deepEqual(errors, []);
    assert.equal(values.length, 1);
  });

  test('an oversize line spanning many chunks is dropped as it streams, not buffered', () => {
    const limit = 1024;
    const { values, errors, decoder } = collector(limit);
    decoder.push('{"type":"before"}\n{"type":"huge","text":"');
    let maxBuffered = decoder.bufferedBytes;
    const filler = Buffer.alloc(4096, 0x61);
    for (let i = 0; i < 500; i++) {
      decoder.push(filler);
      maxBuffered = Math.max(maxBuffered, decoder.bufferedBytes);
    }
    assert.ok(maxBuffered <= limit, `held ${maxBuffered} bytes, limit ${limit}`);
    assert.equal(decoder.bufferedBytes, 0);
    assert.equal(errors.length, 0, 'reported once the line ends');
    decoder.push('"}\n{"type":"after"}\n');
    decoder.end();
    assert.deepEqual(values, [{ type: 'before' }, { type: 'after' }]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].kind, 'oversize');
    assert.equal(errors[0].bytes, Buffer.byteLength('{"type":"huge","text":"') + 500 * 4096 + 2);
    assert.ok(errors[0].preview.startsWith('{"type":"huge","text":"aaa'));
    assert.equal(errors[0].preview.length, 120);
  });

  test('an oversize line completed in the chunk after the one that started it', () => {
    const { values, errors } = decodeChunks(['{"type":"big","t":"' + 'y'.repeat(50), 'y'.repeat(80) + '"}\n{"type":"next"}\n'], 100);
    assert.deepEqual(values, [{ type: 'next' }]);
    assert.deepEqual(
      errors.map((e) => [e.kind, e.bytes]),
      [['oversize', 19 + 50 + 80 + 2]],
    );
  });

  test('an oversize unterminated line at end() is reported once', () => {
    const { values, errors } = decodeChunks(['{"type":"a"}\n', 'z'.repeat(300), 'z'.repeat(300)], 100);
    assert.deepEqual(values, [{ type: 'a' }]);
    assert.deepEqual(
      errors.map((e) => [e.kind, e.bytes]),
      [['oversize', 600]],
    );
  });

  test('counts the limit in bytes, not characters', () => {
    const line = JSON.stringify({ t: '€'.repeat(30) }); // 38 chars, 98 bytes
    assert.equal(line.length, 38);
    const { values, errors } = decodeChunks([line + '\n'], 60);
    assert.deepEqual(values, []);
    assert.deepEqual(
      errors.map((e) => [e.kind, e.bytes]),
      [['oversize', 98]],
    );
  });

  test('defaults to an 8 MiB limit and rejects a bad limit', () => {
    assert.equal(DEFAULT_MAX_LINE_BYTES, 8 * 1024 * 1024);
    const noop = (): void => {};
    assert.throws(() => new NdjsonDecoder({ maxLineBytes: 0, onValue: noop, onError: noop }), RangeError);
    assert.throws(() => new NdjsonDecoder({ maxLineBytes: 1.5, onValue: noop, onError: noop }), RangeError);
  });
});

describe('NdjsonDecoder: callbacks that throw', () => {
  test('the rest of the chunk is still decoded and the first error is rethrown', () => {
    const seen: unknown[] = [];
    const decoder = new NdjsonDecoder({
      onValue: (value) => {
        seen.push(value);
        if ((value as { type: string }).type === 'boom') throw new Error('handler failed');
      },
      onError: () => {},
    });
    assert.throws(() => decoder.push('{"type":"boom"}\n{"type":"after"}\n{"type":'), /handler failed/);
    assert.deepEqual(seen, [{ type: 'boom' }, { type: 'after' }]);
    decoder.push('"tail"}\n');
    assert.deepEqual(seen.at(-1), { type: 'tail' });
  });
});

describe('encodeLine', () => {
  test('produces one JSON line that round-trips through the decoder', () => {
    const value = { type: 'delta', text: 'a\nb\r\nc\u2028d\u2029e€𝄞', n: 1 };
    const line = encodeLine(value);
    assert.ok(line.endsWith('\n'));
    assert.equal(line.indexOf('\n'), line.length - 1);
    assert.ok(!line.includes('\r') && !line.includes('\u2028') && !line.includes('\u2029'));
    assert.deepEqual(JSON.parse(line), value);
    assert.deepEqual(decodeChunks([line, line]).values, [value, value]);
  });

  test('escapes lone surrogates so the line is valid UTF-8', () => {
    const line = encodeLine({ text: 'x\ud800y' });
    assert.ok(line.includes('\\ud800'));
    assert.deepEqual(decodeChunks([line]).values, [{ text: 'x\ud800y' }]);
  });

  test('throws when the value does not serialize to JSON', () => {
    assert.throws(() => encodeLine({ toJSON: () => undefined }), TypeError);
  });
});

describe('isCommand', () => {
  test('accepts objects with a string type and nothing else', () => {
    assert.equal(isCommand({ type: 'send', prompt: 'x' }), true);
    assert.equal(isCommand({ type: 1 }), false);
    assert.equal(isCommand({}), false);
    assert.equal(isCommand(null), false);
    assert.equal(isCommand('send'), false);
    assert.equal(isCommand([{ type: 'send' }]), false);
  });
});

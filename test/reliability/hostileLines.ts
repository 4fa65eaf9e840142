// A deterministic corpus of hostile NDJSON lines for fuzzing both pipes: the core's stdin (commands) and the client's
// event decoder (events). Every line is one wire line (no raw '\n' inside, terminated by '\n' or '\r\n'); what the
// decoder should make of it is computed by `classifyLine`, an oracle built on JSON.parse and the UTF-8 rules.
import { Buffer, isUtf8 } from 'node:buffer';
import { COMMAND_TYPES, EVENT_TYPES } from '../../src/protocol';

export type Vocabulary = 'commands' | 'events';

/** What a decoder does with a line: hands on an object with a string `type`, rejects it, or skips a blank line. */
export type Decoded =
  | { kind: 'typed'; type: string }
  | { kind: 'untyped' } /* a JSON object without a string `type` */
  | { kind: 'error' } /* malformed JSON, not an object, bad UTF-8, over the size limit */
  | { kind: 'blank' };

export interface HostileLine {
  /** Which generator made it (malformed_json, truncated_utf8, giant, …). */
  category: string;
  /** Bytes of the line, terminator included. */
  byteLength: number;
  /** How the decoder classifies it when its limit is `maxLineBytes`. */
  decoded(maxLineBytes: number): Decoded;
  /** The line's bytes; giant lines are built on demand so a corpus can be described without holding them. */
  bytes(): Buffer;
}

export interface CorpusOptions {
  seed: number;
  /** Lines in all, giants included. */
  count: number;
  vocabulary: Vocabulary;
  /** Byte sizes of the giant lines (a JSON object with one huge string), placed within the first 5% of the corpus. */
  giantSizes: number[];
  /** Paths outside the workspace that hostile values point at (absolute and relative forms). */
  outsidePaths?: string[];
}

export const MiB = 1024 * 1024;

/** Shares of the non-giant lines per category. */
const CATEGORY_WEIGHTS: Record<string, number> = {
  malformed_json: 15,
  truncated_utf8: 8,
  unknown_type: 8,
  prototype_type: 2,
  wrong_field_types: 22,
  huge_numbers: 6,
  deep_nesting: 0.5,
  nul_bytes: 4,
  crlf: 5,
  bom: 3,
  blank: 2,
  untyped: 5,
  hostile_values: 17,
  large_line: 1,
  valid: 1.5,
};

export function hostileCorpus(opts: CorpusOptions): HostileLine[] {
  const rng = new Rng(opts.seed);
  const ctx = new GenContext(rng, opts);
  const categories = Object.keys(CATEGORY_WEIGHTS);
  const total = categories.reduce((sum, c) => sum + CATEGORY_WEIGHTS[c], 0);
  const lines: HostileLine[] = [];
  const smallCount = opts.count - opts.giantSizes.length;
  for (let i = 0; i < smallCount; i++) {
    let pick = rng.next() * total;
    let category = categories[categories.length - 1];
    for (const c of categories) {
      pick -= CATEGORY_WEIGHTS[c];
      if (pick < 0) {
        category = c;
        break;
      }
    }
    lines.push(eagerLine(category, ctx.build(category)));
  }
  const window = Math.max(1, Math.floor(opts.count * 0.05));
  opts.giantSizes.forEach((size, i) => {
    const at = Math.min(lines.length, Math.floor(((i + 1) * window) / (opts.giantSizes.length + 1)));
    lines.splice(at, 0, giantLine(size, opts.vocabulary, i));
  });
  return lines;
}

/** The decoder's view of one line (mirrors NdjsonDecoder: one trailing CR dropped, blank lines skipped). */
export function classifyLine(line: Buffer, maxLineBytes: number): Decoded {
  let end = line.length;
  if (end > 0 && line[end - 1] === 0x0a) end--;
  if (end > 0 && line[end - 1] === 0x0d) end--;
  if (end === 0) return { kind: 'blank' };
  if (end > maxLineBytes) return { kind: 'error' };
  const body = line.subarray(0, end);
  if (!isUtf8(body)) return { kind: 'error' };
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim() === '' ? { kind: 'blank' } : { kind: 'error' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'error' };
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' ? { kind: 'typed', type } : { kind: 'untyped' };
}

function eagerLine(category: string, raw: Buffer): HostileLine {
  if (raw.indexOf(0x0a) !== raw.length - 1) throw new Error(`generator bug: ${category} line has an inner newline`);
  const cache = new Map<number, Decoded>();
  return {
    category,
    byteLength: raw.length,
    bytes: () => raw,
    decoded(max) {
      let d = cache.get(max);
      if (!d) cache.set(max, (d = classifyLine(raw, max)));
      return d;
    },
  };
}

/** `{"type":…,"<field>":"xxxx…"}\n` of exactly `size` bytes: over the limit it is an error, under it a typed object. */
function giantLine(size: number, vocabulary: Vocabulary, index: number): HostileLine {
  const type = vocabulary === 'commands' ? 'send' : 'delta';
  const field = vocabulary === 'commands' ? 'prompt' : 'text';
  const head = `{"type":"${type}","${field}":"`;
  const tail = vocabulary === 'commands' ? '","model":"m"}\n' : '"}\n';
  const fill = size - head.length - tail.length;
  if (fill < 0) throw new Error(`giant line of ${size} bytes is too small`);
  return {
    category: 'giant',
    byteLength: size,
    bytes() {
      const buf = Buffer.allocUnsafe(size);
      buf.write(head, 0, 'latin1');
      buf.fill(0x61 + (index % 26), head.length, head.length + fill);
      buf.write(tail, head.length + fill, 'latin1');
      return buf;
    },
    decoded: (max) => (size - 1 > max ? { kind: 'error' } : { kind: 'typed', type }),
  };
}

/** mulberry32: small, fast and reproducible across processes (the client harness rebuilds the same corpus). */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const COMMAND_FIELDS = [
  'prompt',
  'model',
  'path',
  'id',
  'request_id',
  'decision',
  'mode',
  'key',
  'value',
  'text',
  'title',
  'pinned',
  'provider',
  'api_key',
  'base_url',
  'name',
  'images',
  'pattern',
  'answers',
  'password',
  'scope',
  'tags',
  'protocol_version',
  'client',
  'edited_content',
  'reasoning_effort',
  'preset',
  'headers',
  'kind',
  'models_override',
  'paths',
  'label',
  'reply',
  'approved',
  'enabled',
  'query',
  'args',
];
const EVENT_FIELDS = [
  'text',
  'id',
  'name',
  'args',
  'output',
  'ok',
  'status',
  'diff',
  'request_id',
  'tool_call_id',
  'tool',
  'risk',
  'models',
  'sessions',
  'path',
  'message',
  'code',
  'run_id',
  'session_id',
  'sequence',
  'protocol_version',
  'capabilities',
  'usage',
  'tokens_in',
  'tokens_out',
  'messages',
  'entries',
  'queue',
  'reason',
  'mode',
  'checkpoints',
  'files',
  'questions',
  'summary',
  'unified_diff',
  'created_at',
  'workspace',
  'authed',
  'providers',
  'model',
  'provider',
  'context_window',
  'content',
  'index',
  'count',
  'state',
  'title',
  'pinned',
  'version',
  'error',
  'attempt',
  'delay_ms',
  'total_in',
  'cached_tokens',
  'command',
];
/** The fields each handled command reads, so hostile values reach the handlers (not only their type checks). */
const FIELDS_BY_TYPE: Record<string, string[]> = {
  init: ['protocol_version', 'client'],
  send: ['prompt', 'model', 'provider', 'reasoning_effort', 'images'],
  steer: ['prompt', 'model'],
  user_bash: [],
  set_key: ['api_key', 'provider'],
  set_provider: ['name'],
  login: ['preset', 'api_key'],
  logout: ['provider'],
  add_custom_provider: ['name', 'base_url', 'kind', 'api_key', 'api_key_env', 'headers', 'models_override', 'context_window'],
  discover_provider_models: ['base_url', 'kind', 'api_key', 'headers'],
  set_approval: ['mode'],
  set_config: ['key', 'value'],
  load_session: ['path'],
  new_session: ['path'],
  rename_session: ['path', 'title'],
  delete_session: ['path'],
  pin_session: ['path', 'pinned'],
  create_checkpoint: ['label', 'paths'],
  restore_checkpoint: ['id', 'paths'],
  delete_checkpoint: ['id'],
  checkpoint_changes: ['id'],
  checkpoint_file: ['id', 'path'],
  approve: ['request_id', 'decision', 'pattern', 'edited_content'],
  ask_reply: ['request_id', 'answers'],
  sudo_reply: ['request_id', 'approved', 'password'],
  save_memory: ['text', 'tags', 'scope'],
  forget_memory: ['id', 'scope'],
  compact: ['instructions'],
  delta: ['text'],
  thinking: ['text'],
  tool_call: ['id', 'name', 'args'],
  tool_result: ['id', 'ok', 'output', 'status', 'diff'],
  approval_request: ['request_id', 'tool_call_id', 'tool', 'risk', 'args', 'diff', 'created_at'],
  ready: ['models', 'authed', 'workspace', 'approval', 'providers', 'provider'],
  protocol_hello: ['capabilities', 'protocol_version', 'version'],
  sessions: ['sessions', 'files'],
  history: ['messages'],
  checkpoint_created: ['id', 'paths', 'label', 'created_at'],
  ask_request: ['request_id', 'questions'],
  error: ['code', 'message'],
  file_change: ['path', 'unified_diff', 'tool'],
  stats: ['tokens_in', 'tokens_out', 'total_in', 'turns'],
  session_changed: ['path', 'new'],
  done: ['usage'],
  run_cancelled: ['run_id', 'reason'],
};
/** Field names a handler might merge into an object: a pollution attempt must stay an own property. */
const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
];

/** Builds the body of each category's lines. */
class GenContext {
  private readonly types: readonly string[];
  private readonly fields: readonly string[];
  private readonly outside: readonly string[];
  /** The types whose fields we know (FIELDS_BY_TYPE): most lines go to them. */
  private readonly focusTypes: readonly string[];
  private readonly fastTypes: readonly string[];

  constructor(
    private readonly rng: Rng,
    private readonly opts: CorpusOptions,
  ) {
    this.types = opts.vocabulary === 'commands' ? COMMAND_TYPES : EVENT_TYPES;
    this.fields = opts.vocabulary === 'commands' ? COMMAND_FIELDS : EVENT_FIELDS;
    this.outside = opts.outsidePaths ?? ['/etc/passwd', '../../../../etc/passwd'];
    this.focusTypes = this.types.filter((type) => Object.hasOwn(FIELDS_BY_TYPE, type));
    this.fastTypes = this.types.filter((type) => !SLOW_TYPES.has(type));
  }

  build(category: string): Buffer {
    const r = this.rng;
    switch (category) {
      case 'malformed_json':
        return line(this.malformed());
      case 'truncated_utf8':
        return this.badUtf8();
      case 'unknown_type':
        return line(JSON.stringify({ type: this.unknownType(), ...this.fieldsOf(r.int(3)) }));
      case 'prototype_type':
        return line(
          r.chance(0.5)
            ? JSON.stringify({ type: r.pick(PROTOTYPE_KEYS), ...this.fieldsOf(r.int(2)) })
            : `{"type":${JSON.stringify(this.knownType())},${JSON.stringify(r.pick(PROTOTYPE_KEYS))}:{"polluted":true,"type":"x"}}`,
        );
      case 'wrong_field_types':
        return line(this.typed((type) => this.wrongTypedFields(type)));
      case 'huge_numbers':
        return line(this.hugeNumbers());
      case 'deep_nesting':
        return line(this.deep());
      case 'nul_bytes':
        return this.withNul();
      case 'crlf':
        return this.crlf();
      case 'bom':
        return this.bom();
      case 'blank':
        return Buffer.from(r.pick(['', ' ', '\t', '   \t ', '\r', '\r\r', '\uFEFF', ' \uFEFF ']) + '\n');
      case 'untyped':
        return line(this.untyped());
      case 'hostile_values':
        return line(this.typed((type) => this.hostileFields(type)));
      case 'large_line':
        return line(
          this.typed((type) => ({
            [r.pick(FIELDS_BY_TYPE[type]?.length ? FIELDS_BY_TYPE[type] : this.fields)]: 'L'.repeat(64 * 1024 + r.int(960 * 1024)),
          })),
        );
      case 'valid':
        return line(this.typed(() => ({})));
      default:
        throw new Error(`unknown category ${category}`);
    }
  }

  /** A known type; the slow ones (a checkpoint snapshots the workspace with git) are drawn less often to keep runs short. */
  private knownType(): string {
    const type = this.rng.chance(0.6) ? this.rng.pick(this.focusTypes) : this.rng.pick(this.types);
    return SLOW_TYPES.has(type) && !this.rng.chance(0.1) ? this.rng.pick(this.fastTypes) : type;
  }

  /**
   * A known type with these fields. `user_bash` runs its `command`, so COMMAND_FIELDS has no `command` and user_bash
   * only ever gets a non-string one: the fuzzer must not run shell commands it made up.
   */
  private typed(fieldsFor: (type: string) => Record<string, unknown>): string {
    const type = this.knownType();
    const fields = fieldsFor(type);
    if (type === 'user_bash') fields.command = this.rng.pick([123, null, ['rm', '-rf', '/'], { cmd: 'x' }, true]);
    return JSON.stringify({ type, ...fields });
  }

  private fieldsOf(n: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) out[this.rng.pick(this.fields)] = this.hostileValue();
    return out;
  }

  private wrongTypedFields(type: string): Record<string, unknown> {
    const r = this.rng;
    const own = FIELDS_BY_TYPE[type];
    const out: Record<string, unknown> = {};
    const n = 1 + r.int(4);
    for (let i = 0; i < n; i++) out[own?.length && r.chance(0.8) ? r.pick(own) : r.pick(this.fields)] = r.pick(WRONG_TYPES)();
    return out;
  }

  private hostileFields(type: string): Record<string, unknown> {
    const r = this.rng;
    const own = FIELDS_BY_TYPE[type];
    const out: Record<string, unknown> = {};
    const n = 1 + r.int(4);
    for (let i = 0; i < n; i++) out[own?.length && r.chance(0.8) ? r.pick(own) : r.pick(this.fields)] = this.hostileValue();
    return out;
  }

  private hostileValue(): unknown {
    const r = this.rng;
    switch (r.int(12)) {
      case 0:
      case 1:
        return r.pick(this.outside);
      case 2:
        return r.pick([
          '..',
          '../',
          '../x',
          './../../x',
          'a/../../b',
          '..\\..\\x',
          '/',
          '~',
          '~/.ssh/id_rsa',
          '.git/config',
          '.env',
          'sub/../../.env',
        ]);
      case 3:
        return r.pick([
          '',
          ' ',
          '\u0000',
          'a\u0000b',
          '\u2028\u2029',
          '\uD800',
          '\uDFFF',
          '%2e%2e%2f',
          '\u202Eevil',
          'C:\\Windows',
          '\\\\server\\share',
        ]);
      case 4:
        return 'x'.repeat(1 + r.int(200_000));
      case 5:
        return r.pick(HUGE_NUMBER_VALUES);
      case 6:
        return r.pick(['yes', 'no', 'always', 'allow_session', 'allow_pattern', 'never', 'destructive', 'global', 'workspace', 'none']);
      case 7:
        // Parsed, so "__proto__" is an own key that JSON.stringify writes back out.
        return JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
      case 8:
        return r.pick([
          `<script>alert(1)</script>`,
          'javascript:alert(1)',
          '$(touch /tmp/pwned)',
          '`id`',
          "'; DROP TABLE x; --",
          '{{7*7}}',
        ]);
      case 9:
        return Array.from({ length: r.int(5) }, () => r.pick(this.outside));
      case 10:
        return r.pick(['http://127.0.0.1:9/v1', 'file:///etc/passwd', 'javascript:alert(1)', 'ftp://x', 'http://[::1]:9']);
      default:
        return r.pick(WRONG_TYPES)();
    }
  }

  private unknownType(): string {
    const r = this.rng;
    return r.pick([
      () => `frobnicate_${r.int(1000)}`,
      () => '',
      () => ' ',
      () => 'SEND',
      () => 'send ',
      () => 'stats\u0000',
      () => 'x'.repeat(1 + r.int(100_000)),
      () => '\u{1F4A5}'.repeat(1 + r.int(20)),
      () => '../../etc/passwd',
      () => 'type',
    ])();
  }

  private malformed(): string {
    const r = this.rng;
    const valid = JSON.stringify({ type: this.knownType(), ...this.fieldsOf(1 + r.int(2)) });
    return r.pick([
      () => valid.slice(0, Math.max(1, r.int(valid.length))),
      () => valid.slice(1),
      () => valid + '}',
      () => valid + valid,
      () => valid.replace(/"/g, "'"),
      () => valid.replace(/:/, ''),
      () => valid.replace(/}$/, ',}'),
      () => `{type: "stats"}`,
      () => `{"type": stats}`,
      () => `{"type":"stats",}`,
      () => `{"type":NaN}`,
      () => `{"type":"x","n":Infinity}`,
      () => `{"type":"x","n":0x10}`,
      () => `{"type":"x" "y":1}`,
      () => `{"type":"\\x41"}`,
      () => `{"type":"\\u00"}`,
      () => `{"type":"x\tunescaped tab"}`,
      () => '{'.repeat(1 + r.int(50)),
      () => '}'.repeat(1 + r.int(50)),
      () => garbage(r, 1 + r.int(400)),
      () => `{"type":"x"}/*comment*/`,
      () => `{"type":"x"} trailing`,
      () => 'undefined',
      () => `{"type":"x","a":[1,2,}`,
    ])();
  }

  private badUtf8(): Buffer {
    const r = this.rng;
    const json = Buffer.from(JSON.stringify({ type: this.knownType(), text: 'héllo wörld ✓ \u{1F600} ' + 'é'.repeat(r.int(50)) }));
    const variants: (() => Buffer)[] = [
      // Cut inside a multi-byte sequence.
      () => {
        const starts = [...json.keys()].filter((i) => json[i] >= 0xc0);
        const at = starts.length ? r.pick(starts) + 1 : json.length;
        return json.subarray(0, at);
      },
      () => Buffer.concat([json.subarray(0, json.length - 2), Buffer.from([0xff, 0xfe]), json.subarray(json.length - 2)]),
      () => Buffer.from([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), // overlong '/'
      () => Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // UTF-8-encoded surrogate
      () => Buffer.from([0x80, 0x81, 0x82]),
      () => Buffer.from([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
      () => Buffer.concat([json, Buffer.from([0xe2, 0x82])]),
    ];
    return Buffer.concat([r.pick(variants)(), Buffer.from('\n')]);
  }

  private hugeNumbers(): string {
    const r = this.rng;
    const field = r.pick(this.fields);
    const number = r.pick([
      '1e309',
      '-1e309',
      '1e-400',
      '-0',
      '123456789012345678901234567890123456789',
      '9007199254740993',
      '1.7976931348623157e308',
      '0.' + '0'.repeat(5000) + '1',
      '9'.repeat(1 + r.int(20_000)),
      '-' + '9'.repeat(400),
      '4294967296',
      '-2147483649',
    ]);
    return `{"type":${JSON.stringify(this.knownType())},${JSON.stringify(field)}:${number}}`;
  }

  private deep(): string {
    const r = this.rng;
    const depth = r.pick([1000, 10_000, 100_000]);
    const field = r.pick(this.fields);
    const type = JSON.stringify(this.knownType());
    const value = r.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    return r.chance(0.1) ? '['.repeat(depth) + ']'.repeat(depth) : `{"type":${type},${JSON.stringify(field)}:${value}}`;
  }

  private withNul(): Buffer {
    const r = this.rng;
    const valid = JSON.stringify({ type: this.knownType(), path: 'a\u0000b', text: '\u0000'.repeat(1 + r.int(10)) });
    if (r.chance(0.5)) return line(valid);
    const raw = Buffer.from(valid);
    const at = r.int(raw.length);
    return Buffer.concat([raw.subarray(0, at), Buffer.from([0]), raw.subarray(at), Buffer.from('\n')]);
  }

  private crlf(): Buffer {
    const r = this.rng;
    const valid = JSON.stringify({ type: this.knownType(), ...this.fieldsOf(r.int(2)) });
    return Buffer.from(
      r.pick([
        () => valid + '\r\n',
        () => valid + '\r\r\n',
        () => valid.replace(/,/, ',\r') + '\n',
        () => '\r' + valid + '\r\n',
        () => valid + '\r \r\n',
      ])(),
    );
  }

  private bom(): Buffer {
    const r = this.rng;
    const valid = JSON.stringify({ type: this.knownType() });
    return Buffer.from(
      r.pick([() => '\uFEFF' + valid, () => valid + '\uFEFF', () => '\uFEFF\uFEFF' + valid, () => '\uFFFE' + valid])() + '\n',
    );
  }

  private untyped(): string {
    const r = this.rng;
    return r.pick([
      () => '{}',
      () => JSON.stringify({ kind: 'send', prompt: 'hi' }),
      () => JSON.stringify({ type: r.pick(WRONG_TYPES)() ?? null }),
      () => '{"type":null}',
      () => '{"TYPE":"stats"}',
      () => '[]',
      () => '[{"type":"stats"}]',
      () => '"stats"',
      () => '42',
      () => 'null',
      () => 'true',
      () => '{"__proto__":{"type":"stats"}}',
    ])();
  }
}

const SLOW_TYPES = new Set(['create_checkpoint', 'restore_checkpoint', 'undo', 'delete_checkpoint']);
const HUGE_NUMBER_VALUES = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53,
  1e21,
  -0,
  5e-324,
  2 ** 31,
  2 ** 32,
];
const WRONG_TYPES: (() => unknown)[] = [
  () => 0,
  () => -1,
  () => 1.5,
  () => true,
  () => false,
  () => null,
  () => [],
  () => [1, 'two', null],
  () => ({}),
  () => ({ nested: { deeper: [1, { x: 'y' }] } }),
  () => '',
  () => 'string',
  () => 1e308,
];

function line(text: string): Buffer {
  return Buffer.from(text + '\n', 'utf8');
}

/** Random bytes without a newline. */
function garbage(r: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const c = 1 + r.int(0x7e);
    s += c === 0x0a ? ' ' : String.fromCharCode(c);
  }
  return s;
}

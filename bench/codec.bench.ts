// NDJSON decode + dispatch throughput: our NdjsonDecoder against bare split('\n') + JSON.parse.
// Run: node --import tsx bench/codec.bench.ts   (a report: always exits 0)
import { Buffer } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { performance } from 'node:perf_hooks';
import { NdjsonDecoder } from '../src/protocol/ndjson';

const TARGET_BYTES = 50 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const WARMUP_ROUNDS = 2;
const MEASURED_ROUNDS = 7;
const BUDGET = 0.7;

interface Counters {
  delta: number;
  thinking: number;
  tool_call: number;
  tool_result: number;
  other: number;
  textChars: number;
}

// Deterministic PRNG (mulberry32) so every run measures the same stream.
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'the',
  'function',
  'returns',
  'a',
  'value',
  'when',
  'called',
  'with',
  'src/core/agent.ts',
  'const',
  'await',
  'fetch(url)',
  'error',
  'handling',
  'should',
  'be',
  'explicit',
  '{',
  '}',
  '=>',
  'import',
  'from',
];
const NON_ASCII = ['—', '’', 'café', '€', '日本語', '𝄞', 'naïve', '→'];

function generateStream(): Buffer {
  const random = rng(42);
  const words = (count: number, unicodeRate: number): string => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const pool = random() < unicodeRate ? NON_ASCII : WORDS;
      out.push(pool[Math.floor(random() * pool.length)]);
    }
    return out.join(' ');
  };
  const meta = {
    protocol_version: 2,
    session_id: 'session-3f2a9c1d44e0b7a1-9d8c7b6a5f4e3d2c',
    run_id: 'run-0a1b2c3d4e5f6071-8899aabbccddeeff',
  };
  const lines: string[] = [];
  let bytes = 0;
  let sequence = 0;
  let toolId = 0;
  const add = (event: object): void => {
    const line = JSON.stringify(event) + '\n';
    lines.push(line);
    bytes += Buffer.byteLength(line);
  };
  while (bytes < TARGET_BYTES) {
    const roll = random();
    sequence++;
    if (roll < 0.9) {
      add({ type: random() < 0.85 ? 'delta' : 'thinking', text: words(1 + Math.floor(random() * 6), 0.02), ...meta, sequence });
    } else if (roll < 0.995) {
      const id = `call_${++toolId}`;
      const content = words(200 + Math.floor(random() * 600), 0.01);
      add({ type: 'tool_call', id, name: 'write_file', args: JSON.stringify({ path: 'src/x.ts', content }), ...meta, sequence });
      add({
        type: 'tool_result',
        id,
        ok: true,
        status: 'success',
        output: words(100 + Math.floor(random() * 900), 0.01),
        ...meta,
        sequence: ++sequence,
      });
    } else if (roll < 0.9965) {
      add({ type: 'tool_result', id: `call_${++toolId}`, ok: true, status: 'success', output: words(33_000, 0.005), ...meta, sequence });
    } else {
      add({ type: random() < 0.5 ? 'metrics' : 'cost_update', tokens_in: 1234, tokens_out: 567, ...meta, sequence });
    }
  }
  return Buffer.from(lines.join(''), 'utf8');
}

function chunksOf(stream: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < stream.length; i += CHUNK_BYTES) chunks.push(stream.subarray(i, i + CHUNK_BYTES));
  return chunks;
}

function newCounters(): Counters {
  return { delta: 0, thinking: 0, tool_call: 0, tool_result: 0, other: 0, textChars: 0 };
}

function dispatch(value: any, counters: Counters): void {
  switch (value.type) {
    case 'delta':
      counters.delta++;
      counters.textChars += value.text.length;
      break;
    case 'thinking':
      counters.thinking++;
      counters.textChars += value.text.length;
      break;
    case 'tool_call':
      counters.tool_call++;
      break;
    case 'tool_result':
      counters.tool_result++;
      break;
    default:
      counters.other++;
  }
}

/** The literal baseline: accumulate every chunk into one string, split once, parse each line. */
function baselineWholeStream(chunks: Buffer[]): Counters {
  const counters = newCounters();
  const decoder = new StringDecoder('utf8');
  let text = '';
  for (const chunk of chunks) text += decoder.write(chunk);
  text += decoder.end();
  for (const line of text.split('\n')) {
    if (line.length > 0) dispatch(JSON.parse(line), counters);
  }
  return counters;
}

/** What a hand-rolled streaming reader does: split per chunk, carry the unterminated tail. */
function baselineStreaming(chunks: Buffer[]): Counters {
  const counters = newCounters();
  const decoder = new StringDecoder('utf8');
  let carry = '';
  for (const chunk of chunks) {
    const parts = (carry + decoder.write(chunk)).split('\n');
    carry = parts.pop() as string;
    for (const line of parts) {
      if (line.length > 0) dispatch(JSON.parse(line), counters);
    }
  }
  carry += decoder.end();
  if (carry.length > 0) dispatch(JSON.parse(carry), counters);
  return counters;
}

function ours(chunks: Buffer[]): Counters {
  const counters = newCounters();
  const decoder = new NdjsonDecoder({
    onValue: (value) => dispatch(value, counters),
    onError: (err) => {
      throw new Error(`unexpected decode error: ${err.kind} ${err.message}`);
    },
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return counters;
}

function timeOnce(run: (chunks: Buffer[]) => Counters, chunks: Buffer[]): { ms: number; counters: Counters } {
  const start = performance.now();
  const counters = run(chunks);
  return { ms: performance.now() - start, counters };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function main(): void {
  const stream = generateStream();
  const chunks = chunksOf(stream);
  const megabytes = stream.length / 1e6;
  const contenders = { baselineWholeStream, baselineStreaming, ours };
  const names = Object.keys(contenders) as (keyof typeof contenders)[];
  const times: Record<string, number[]> = { baselineWholeStream: [], baselineStreaming: [], ours: [] };
  const reference = JSON.stringify(baselineWholeStream(chunks));

  for (let round = 0; round < WARMUP_ROUNDS + MEASURED_ROUNDS; round++) {
    // Rotate the order each round so no contender always runs right after another's garbage.
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const { ms, counters } = timeOnce(contenders[name], chunks);
      if (JSON.stringify(counters) !== reference) throw new Error(`${name} dispatched different counts than the baseline`);
      if (round >= WARMUP_ROUNDS) times[name].push(ms);
    }
  }

  const rate = (name: string): number => megabytes / (median(times[name]) / 1000);
  const baseline = rate('baselineWholeStream');
  const streaming = rate('baselineStreaming');
  const ourRate = rate('ours');
  const ratio = ourRate / baseline;
  const streamingRatio = ourRate / streaming;
  const verdict = (value: number): string => (value >= BUDGET ? 'PASS' : 'FAIL');
  console.log(
    `stream: ${megabytes.toFixed(1)} MB, ${chunks.length} chunks of ${CHUNK_BYTES / 1024} KiB; ` +
      `median of ${MEASURED_ROUNDS} interleaved runs after ${WARMUP_ROUNDS} warm-ups`,
  );
  console.log(`  baseline (accumulate chunks, split('\\n'), JSON.parse): ${baseline.toFixed(0)} MB/s`);
  console.log(`  streaming variant (split each chunk, carry the tail)  : ${streaming.toFixed(0)} MB/s`);
  console.log(`  NdjsonDecoder                                         : ${ourRate.toFixed(0)} MB/s`);
  console.log(`ratio ours/baseline          = ${ratio.toFixed(2)} (budget >= ${BUDGET.toFixed(2)}): ${verdict(ratio)}`);
  console.log(`ratio ours/streaming variant = ${streamingRatio.toFixed(2)} (budget >= ${BUDGET.toFixed(2)}): ${verdict(streamingRatio)}`);
}

main();

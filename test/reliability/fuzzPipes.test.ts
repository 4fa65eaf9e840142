// Garbage on either pipe is logged and survived (BRIEF §5). The full 10,000-line run with a handful of giant lines is
// bench/fuzzPipes.bench.ts; here the same generator at CI size: two giant lines, the core fed every line with a probe
// round-trip after it, the client fed by a fake core in its own process.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_TYPES } from '../../src/protocol';
import { fuzzCore, type CoreFuzzReport } from './coreFuzz';
import { fuzzClient } from './clientFuzz';
import { MiB } from './hostileLines';

const SEED = Number(process.env.FUZZ_SEED ?? 20240607);
const GIANTS = [9 * MiB, 64 * MiB + 16];
/** A leak that keeps even a fraction of what the corpus sends ends the capped core (heap exhausted) before the end. */
const CORE_HEAP_CAP_MB = 64;
/** RSS may still rise this much from a quarter of the way in (after the giant lines) to the end. */
const MAX_LATE_GROWTH_KIB = 64 * 1024;

const known = new Set<string>(COMMAND_TYPES);

// The two sides are separate processes: fuzzed side by side.
describe('garbage on both pipes', { concurrency: 2 }, () => {
  test('the core survives 5,000 hostile lines: one error per bad line, a probe answered after every line, memory flat, nothing outside touched', async () => {
    const r = await fuzzCore({ seed: SEED, count: 5000, giantSizes: GIANTS, nodeArgs: [`--max-old-space-size=${CORE_HEAP_CAP_MB}`] });
    assert.equal(r.crashes, 0, 'crashes');
    assert.equal(r.unresponsive, 0, 'probes not answered');
    assert.equal(r.linesTried, 5000);
    assert.equal(r.exitCode, 0, 'clean exit on stdin EOF');
    assert.deepEqual(r.badOutputLines, [], 'every line the core printed is an NDJSON object with a type');
    assert.deepEqual(r.stderrProblems, [], 'no uncaught exception, unhandled rejection or failed handler');
    assert.deepEqual(r.handlerFailures, [], 'handlers validate instead of throwing');

    const wrong: string[] = [];
    for (const o of r.outcomes) {
      const codes = o.errorCodes;
      const what = `#${o.index} ${o.category} ${JSON.stringify(o.decoded)} → [${codes.join(',')}]`;
      switch (o.decoded.kind) {
        case 'blank':
          if (codes.length !== 0) wrong.push(what);
          break;
        case 'error':
        case 'untyped':
          if (codes.length !== 1 || codes[0] !== 'invalid_command') wrong.push(what);
          break;
        case 'typed':
          if (!known.has(o.decoded.type) ? codes.length !== 1 || codes[0] !== 'unsupported' : codes.length > 1) wrong.push(what);
          break;
      }
    }
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} lines answered wrongly`);
    const categories = new Set(r.outcomes.map((o) => o.category));
    for (const c of ['malformed_json', 'truncated_utf8', 'giant', 'unknown_type', 'prototype_type', 'wrong_field_types', 'huge_numbers', 'deep_nesting', 'nul_bytes', 'crlf', 'bom', 'hostile_values']) {
      assert.ok(categories.has(c), `the corpus exercised ${c}`);
    }
    assert.ok(r.outcomes.filter((o) => o.category === 'giant').every((o) => o.errorCodes.join() === 'invalid_command'), 'giant lines are refused once each');

    assertFlat(r.rssSamples, 5000, 'core');
    for (const [path, unchanged] of Object.entries(r.canaries)) assert.ok(unchanged, `${path} is untouched`);
    assert.deepEqual(r.outsideNewEntries, [], 'nothing was created outside the workspace and the sessions folder');
    logFigures('core', r.linesTried, r.crashes, r.maxRssKiB, r.durationMs);
  });

  test('the client decoder survives 10,000 hostile event lines: each bad line logged once, each event delivered once, memory flat', async () => {
    const r = await fuzzClient({ seed: SEED, count: 10_000, giantSizes: GIANTS });
    assert.equal(r.crashes, 0, `crashes; ${r.stderr ?? ''}`);
    assert.equal(r.linesTried, 10_000);
    assert.deepEqual(r.mismatches, [], `${r.mismatchCount} lines handled other than expected [line, category, expected, events, logs]`);
    assert.ok(r.tailDelivered, 'an unterminated last line is decoded at EOF');
    assert.equal(r.reducerThrows, 0, `the session reducer threw: ${r.reducerErrors.join(' | ')}`);
    assert.ok(r.prototypeClean, 'no event polluted Object.prototype');
    assert.ok(r.logs > 1000 && r.events > 5000, `both paths were exercised (${r.logs} logs, ${r.events} events)`);
    assertFlat(r.rssSamples, 10_000, 'client');
    logFigures('client', r.linesTried, r.crashes, r.maxRssKiB, r.durationMs);
  });
});

/** RSS late in the run is not much above RSS a quarter of the way in: no growth with the number of lines. */
function assertFlat(samples: CoreFuzzReport['rssSamples'], count: number, who: string): void {
  const at = (fraction: number) => {
    const target = Math.floor(count * fraction);
    const near = samples.filter(([line]) => line >= target);
    return near.length > 0 ? near[0][1] : undefined;
  };
  const quarter = at(0.25);
  const late = Math.max(...samples.filter(([line]) => line >= count * 0.9).map(([, rss]) => rss));
  assert.ok(quarter !== undefined && Number.isFinite(late), `${who}: RSS was sampled through the run`);
  assert.ok(late - quarter <= MAX_LATE_GROWTH_KIB, `${who}: RSS grew from ${quarter} KiB at 25% to ${late} KiB at the end`);
}

function logFigures(who: string, lines: number, crashes: number, maxRssKiB: number, ms: number): void {
  console.log(`# fuzz ${who}: ${lines} lines tried / ${crashes} crashes / max RSS ${(maxRssKiB / 1024).toFixed(0)} MiB (${(ms / 1000).toFixed(1)} s)`);
}

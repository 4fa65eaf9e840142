// Garbage on either pipe is logged and survived (BRIEF §5). The full 10,000-line run with a handful of giant lines is
// bench/fuzzPipes.bench.ts; here the same generator at CI size: two giant lines, the core fed every line with a probe
// round-trip after it, the client fed by a fake core in its own process.
// Memory: RSS figures are the bench's (RSS under load depends on when the GC gets to run). Here both processes run with
// a capped heap instead: whatever the load, live data above the cap ends the process, which the test sees as a crash.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_TYPES } from '../../src/protocol';
import { fuzzCore } from './coreFuzz';
import { fuzzClient } from './clientFuzz';
import { MiB } from './hostileLines';

const SEED = Number(process.env.FUZZ_SEED ?? 20240607);
const GIANTS = [9 * MiB, 64 * MiB + 16];
/**
 * A leak exhausts a 64 MB heap before the end (tried: a core keeping its stdin chunks, a client keeping every event and
 * log line). Each side passes with 24 MB and fails with 16 MB, so the margin is not the machine's load to break.
 */
const HEAP_CAP = '--max-old-space-size=64';

const known = new Set<string>(COMMAND_TYPES);

// The two sides are separate processes: fuzzed side by side.
describe('garbage on both pipes', { concurrency: 2 }, () => {
  test('the core survives 5,000 hostile lines in a capped heap: one error per bad line, a probe answered after every line, nothing outside touched', async () => {
    const r = await fuzzCore({ seed: SEED, count: 5000, giantSizes: GIANTS, nodeArgs: [HEAP_CAP] });
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
    for (const c of [
      'malformed_json',
      'truncated_utf8',
      'giant',
      'unknown_type',
      'prototype_type',
      'wrong_field_types',
      'huge_numbers',
      'deep_nesting',
      'nul_bytes',
      'crlf',
      'bom',
      'hostile_values',
    ]) {
      assert.ok(categories.has(c), `the corpus exercised ${c}`);
    }
    assert.ok(
      r.outcomes.filter((o) => o.category === 'giant').every((o) => o.errorCodes.join() === 'invalid_command'),
      'giant lines are refused once each',
    );

    for (const [path, unchanged] of Object.entries(r.canaries)) assert.ok(unchanged, `${path} is untouched`);
    assert.deepEqual(r.outsideNewEntries, [], 'nothing was created outside the workspace and the sessions folder');
    logFigures('core', r.linesTried, r.crashes, r.maxRssKiB, r.durationMs);
  });

  test('the client decoder survives 10,000 hostile event lines in a capped heap: each bad line logged once, each event delivered once', async () => {
    const r = await fuzzClient({ seed: SEED, count: 10_000, giantSizes: GIANTS }, { nodeArgs: [HEAP_CAP] });
    assert.equal(r.crashes, 0, `crashes; ${r.stderr ?? ''}`);
    assert.equal(r.linesTried, 10_000);
    assert.deepEqual(r.mismatches, [], `${r.mismatchCount} lines handled other than expected [line, category, expected, events, logs]`);
    assert.ok(r.tailDelivered, 'an unterminated last line is decoded at EOF');
    assert.equal(r.reducerThrows, 0, `the session reducer threw: ${r.reducerErrors.join(' | ')}`);
    assert.ok(r.prototypeClean, 'no event polluted Object.prototype');
    assert.ok(r.logs > 1000 && r.events > 5000, `both paths were exercised (${r.logs} logs, ${r.events} events)`);
    logFigures('client', r.linesTried, r.crashes, r.maxRssKiB, r.durationMs);
  });
});

function logFigures(who: string, lines: number, crashes: number, maxRssKiB: number, ms: number): void {
  console.log(
    `# fuzz ${who}: ${lines} lines tried / ${crashes} crashes / max RSS ${(maxRssKiB / 1024).toFixed(0)} MiB (${(ms / 1000).toFixed(1)} s)`,
  );
}

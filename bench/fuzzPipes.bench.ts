// Garbage on both pipes (BRIEF §5, issue #7): 10,000 hostile lines into the embedded core's stdin and 10,000 hostile
// event lines into the client's CoreConnection, with a handful of giant lines up to 64 MiB on each side.
// Prints "lines tried / crashes / max RSS" per side, plus how each line was answered. Needs `npm run build` first.
// Run: node --import tsx bench/fuzzPipes.bench.ts [seed]   (a report: always exits 0)
import { fuzzClient } from '../test/reliability/clientFuzz';
import { fuzzCore } from '../test/reliability/coreFuzz';
import { MiB } from '../test/reliability/hostileLines';

const LINES = 10_000;
const seed = Number(process.argv[2] ?? 20240607);
/** Just over the core's 8 MiB limit, then up to and past the client's 64 MiB one. */
const CORE_GIANTS = [8 * MiB + 2, 9 * MiB, 16 * MiB, 32 * MiB, 64 * MiB + 16];
const CLIENT_GIANTS = [9 * MiB, 16 * MiB, 32 * MiB, 64 * MiB, 64 * MiB + 16];

/** Budget for RSS growth from a quarter of the way in (after the giant lines) to the end: no growth with the line count. */
const MAX_LATE_GROWTH_KIB = 64 * 1024;

const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

/** RSS at the end of the run (its last tenth, highest sample) minus RSS a quarter of the way in, in KiB. */
function lateGrowthKiB(samples: [line: number, rssKiB: number][], count: number): number {
  const quarter = samples.find(([line]) => line >= count * 0.25)?.[1] ?? 0;
  const late = Math.max(...samples.filter(([line]) => line >= count * 0.9).map(([, rss]) => rss));
  return late - quarter;
}

async function main(): Promise<void> {
  console.log(`fuzzing both pipes: ${LINES} lines each, seed ${seed}`);

  const core = await fuzzCore({ seed, count: LINES, giantSizes: CORE_GIANTS });
  const answers = { refused: 0, unsupported: 0, answeredOnce: 0, silent: 0, twice: 0 };
  for (const o of core.outcomes) {
    if (o.errorCodes.length > 1) answers.twice++;
    else if (o.errorCodes.length === 0) answers.silent++;
    else if (o.errorCodes[0] === 'invalid_command' && o.decoded.kind !== 'typed') answers.refused++;
    else if (o.errorCodes[0] === 'unsupported') answers.unsupported++;
    else answers.answeredOnce++;
  }
  const coreRss = core.rssSamples.map(([, rss]) => rss);
  console.log(`\ncore (node dist/core.js):  ${core.linesTried} lines tried / ${core.crashes} crashes / max RSS ${mib(core.maxRssKiB)}`);
  console.log(
    `  unanswered probes: ${core.unresponsive}; exit code on stdin EOF: ${core.exitCode}; invalid output lines: ${core.badOutputLines.length}`,
  );
  console.log(
    `  answers: ${answers.refused} refused as invalid_command, ${answers.unsupported} unsupported, ${answers.answeredOnce} other single errors, ${answers.silent} without error (valid or blank), ${answers.twice} with more than one error`,
  );
  console.log(`  handler exceptions: ${core.handlerFailures.length}; stderr problems: ${core.stderrProblems.length}`);
  console.log(
    `  RSS over the run: first ${mib(coreRss[0] ?? 0)}, at 25% ${mib(coreRss[Math.floor(coreRss.length / 4)] ?? 0)}, last ${mib(coreRss.at(-1) ?? 0)}`,
  );
  const coreGrowth = lateGrowthKiB(core.rssSamples, LINES);
  console.log(`  RSS growth from 25% to the end: ${mib(coreGrowth)} (budget ≤ ${mib(MAX_LATE_GROWTH_KIB)})`);
  console.log(
    `  files outside the workspace untouched: ${Object.values(core.canaries).every(Boolean) && core.outsideNewEntries.length === 0 ? 'yes' : 'NO'}`,
  );
  console.log(`  ${(core.durationMs / 1000).toFixed(1)} s`);

  const client = await fuzzClient({ seed, count: LINES, giantSizes: CLIENT_GIANTS });
  const clientRss = client.rssSamples.map(([, rss]) => rss);
  console.log(
    `\nclient (CoreConnection + session reducer):  ${client.linesTried} lines tried / ${client.crashes} crashes / max RSS ${mib(client.maxRssKiB)}`,
  );
  console.log(
    `  ${client.events} events delivered, ${client.logs} lines logged, ${client.mismatchCount} lines handled other than expected`,
  );
  console.log(
    `  reducer exceptions: ${client.reducerThrows}; Object.prototype clean: ${client.prototypeClean}; unterminated last line delivered: ${client.tailDelivered}`,
  );
  console.log(
    `  RSS over the run: first ${mib(clientRss[0] ?? 0)}, at 25% ${mib(clientRss[Math.floor(clientRss.length / 4)] ?? 0)}, last ${mib(clientRss.at(-1) ?? 0)}`,
  );
  const clientGrowth = lateGrowthKiB(client.rssSamples, LINES);
  console.log(`  RSS growth from 25% to the end: ${mib(clientGrowth)} (budget ≤ ${mib(MAX_LATE_GROWTH_KIB)})`);
  console.log(`  ${(client.durationMs / 1000).toFixed(1)} s`);
  if (client.stderr) console.log(`  client stderr: ${client.stderr.slice(0, 500)}`);

  const survived =
    core.crashes === 0 && core.unresponsive === 0 && answers.twice === 0 && client.crashes === 0 && client.mismatchCount === 0;
  const flat = coreGrowth <= MAX_LATE_GROWTH_KIB && clientGrowth <= MAX_LATE_GROWTH_KIB;
  console.log(
    `\n${survived && flat ? 'PASS' : 'FAIL'}: no crash, every line answered at most once on both sides, RSS flat after the first quarter`,
  );
}

void main();

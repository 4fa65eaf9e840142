// npm run test:stress [-- --runs N] [--suites unit,core] [--no-hog] [--jitter-ms N | --no-jitter]
// Runs the unit suite and the core/SCV/reliability suite N times (default 5) while a CPU hog keeps every core busy,
// and prints `runs passed / runs` — a flaky test shows up here long before it rejects a submission in CI.
// The core suite runs in jitter test mode (CATALYST_CODE_TEST_JITTER_MS, default 100 ms; src/core/runtime/testJitter.ts):
// every background task of the cores it spawns emits after a random delay, so a test that assumes where an
// unsolicited event lands fails on the first run.
// It builds the bundles once first (the core suites drive dist/core.js). Output of failing runs is kept in
// test-results/stress/run-<n>-<suite>.log; passing runs print one line each.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const JITTER_ENV = 'CATALYST_CODE_TEST_JITTER_MS';
/** Each suite as `npm run test:<suite>` runs it (scripts/run-tests.mjs's tier table), and whether its cores jitter. */
const SUITES = {
  unit: { args: ['scripts/run-tests.mjs', '--tier', 'unit'], jitter: false },
  core: { args: ['scripts/run-tests.mjs', '--tier', 'core'], jitter: true },
};

function parseArgs(argv) {
  const opts = { runs: 5, suites: Object.keys(SUITES), hog: true, jitterMs: 100 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--suites') opts.suites = argv[++i].split(',');
    else if (a === '--no-hog') opts.hog = false;
    else if (a === '--jitter-ms') opts.jitterMs = Number(argv[++i]);
    else if (a === '--no-jitter') opts.jitterMs = 0;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error('--runs takes a whole number ≥ 1');
  if (!Number.isInteger(opts.jitterMs) || opts.jitterMs < 0) throw new Error('--jitter-ms takes a whole number ≥ 0');
  for (const s of opts.suites) if (!(s in SUITES)) throw new Error(`unknown suite ${s} (${Object.keys(SUITES).join(', ')})`);
  return opts;
}

/** One busy-looping child per core, at normal priority, so the tests compete for the CPU as on a loaded CI machine. */
function startHog() {
  const hogs = [];
  for (let i = 0; i < availableParallelism(); i++) {
    hogs.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  }
  return () => hogs.forEach((h) => h.kill('SIGKILL'));
}

function runSuite(name, jitterMs) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const env = { ...process.env };
    delete env[JITTER_ENV];
    if (SUITES[name].jitter && jitterMs > 0) env[JITTER_ENV] = String(jitterMs);
    const child = spawn(process.execPath, SUITES[name].args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('close', (code, signal) => {
      const output = Buffer.concat(chunks).toString('utf8');
      resolvePromise({ ok: code === 0, code: code ?? signal, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** The runner's own summary lines (`ℹ tests 123`, `ℹ fail 0`), so a run's line says how much it ran. */
function summary(output) {
  const count = (label) => output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'))?.[1] ?? '?';
  return `tests ${count('tests')}, pass ${count('pass')}, fail ${count('fail')}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const logDir = join(root, 'test-results', 'stress');
  mkdirSync(logDir, { recursive: true });

  const stopHog = opts.hog ? startHog() : () => {};
  process.on('exit', stopHog);
  const hog = opts.hog ? `, CPU hog on ${availableParallelism()} cores` : '';
  const jitter = opts.jitterMs > 0 ? `, jitter 0–${opts.jitterMs} ms in the core suite` : ', no jitter';
  console.log(`[stress] ${opts.runs} runs of ${opts.suites.join(' + ')}${hog}${jitter}`);
  let passed = 0;
  for (let run = 1; run <= opts.runs; run++) {
    let runOk = true;
    for (const suite of opts.suites) {
      const res = await runSuite(suite, opts.jitterMs);
      const line = `[stress] run ${run} ${suite}: ${res.ok ? 'passed' : `FAILED (exit ${res.code})`} — ${summary(res.output)}, ${res.seconds.toFixed(0)} s`;
      console.log(line);
      if (!res.ok) {
        runOk = false;
        const log = join(logDir, `run-${run}-${suite}.log`);
        writeFileSync(log, res.output);
        const failures = res.output
          .split('\n')
          .filter((l) => /^\s*✖/.test(l))
          .slice(0, 20);
        for (const f of failures) console.log(`[stress]   ${f.trim()}`);
        console.log(`[stress]   full output: ${log}`);
      }
    }
    if (runOk) passed++;
  }
  stopHog();
  console.log(`${passed} runs passed / ${opts.runs} runs`);
  process.exit(passed === opts.runs ? 0 : 1);
}

main().catch((err) => {
  console.error(`[stress] ${err.message}`);
  process.exit(2);
});

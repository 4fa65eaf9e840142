// npm run test:stress [-- --runs N] [--suites unit,core] [--no-hog]
// Runs the unit suite and the core/SCV/reliability suite N times (default 5) while a CPU hog keeps every core busy,
// and prints `runs passed / runs` — a flaky test shows up here long before it rejects a submission in CI.
// It builds the bundles once first (the core suites drive dist/core.js). Output of failing runs is kept in
// test-results/stress/run-<n>-<suite>.log; passing runs print one line each.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUITES = {
  unit: ['scripts/run-tests.mjs', 'src', 'webview'],
  core: ['scripts/run-tests.mjs', 'test/core', 'test/scv', 'test/reliability', '--test-concurrency=2'],
};

function parseArgs(argv) {
  const opts = { runs: 5, suites: Object.keys(SUITES), hog: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--suites') opts.suites = argv[++i].split(',');
    else if (a === '--no-hog') opts.hog = false;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error('--runs takes a whole number ≥ 1');
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

function runSuite(name) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const child = spawn(process.execPath, SUITES[name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
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
  console.log(`[stress] ${opts.runs} runs of ${opts.suites.join(' + ')}${opts.hog ? `, CPU hog on ${availableParallelism()} cores` : ''}`);
  let passed = 0;
  for (let run = 1; run <= opts.runs; run++) {
    let runOk = true;
    for (const suite of opts.suites) {
      const res = await runSuite(suite);
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

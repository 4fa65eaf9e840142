// The test tiers, in one table: which *.test.ts files each `npm run test:<tier>` runs, and with what runner options.
// Every *.test.ts in the repository belongs to exactly one tier — `node scripts/run-tests.mjs --check-tiers`, the first
// step of `npm test`, fails on a file no tier runs (it would pass review and never run) or one that two tiers run.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/**
 * `dirs`: folders searched with every subfolder for `suffix`; `shallow`: folders searched without their subfolders.
 * `nodeArgs`: options for node's test runner. e2e is run by test/e2e/runE2e.mjs (code-server and Chromium first).
 */
export const TIERS = {
  unit: { dirs: ['src', 'webview'], suffix: '.test.ts', nodeArgs: [] },
  // test/support: the test doubles' own tests (the scripted model server's peakInFlight is what the goal concurrency
  // checks trust).
  core: { dirs: ['test/core', 'test/scv', 'test/reliability', 'test/support'], suffix: '.test.ts', nodeArgs: ['--test-concurrency=2'] },
  webview: { dirs: ['test/webview'], suffix: '.test.ts', nodeArgs: [] },
  e2e: {
    dirs: ['test/e2e/harness'],
    shallow: ['test/e2e'],
    suffix: '.test.ts',
    shallowSuffix: '.e2e.test.ts',
    nodeArgs: ['--test-concurrency=1'],
  },
};

const skipped = (name) => name === 'node_modules' || name.startsWith('.');

/** Files ending in `suffix` under `dir` (absolute, or relative to the repository) as repository-relative, `/`-separated paths, sorted; `deep`: subfolders too. */
export function testFilesUnder(dir, suffix = '.test.ts', deep = true) {
  const found = [];
  const walk = (abs) => {
    for (const name of readdirSync(abs)) {
      if (skipped(name)) continue;
      const p = join(abs, name);
      if (statSync(p).isDirectory()) {
        if (deep) walk(p);
      } else if (name.endsWith(suffix)) found.push(relative(ROOT, p).split(sep).join('/'));
    }
  };
  walk(resolve(ROOT, dir));
  return found.sort();
}

/** The files of a tier, sorted. */
export function tierFiles(name) {
  const tier = TIERS[name];
  if (!tier) throw new Error(`unknown tier ${name} (${Object.keys(TIERS).join(', ')})`);
  const deep = tier.dirs.flatMap((d) => testFilesUnder(d, tier.suffix));
  const shallow = (tier.shallow ?? []).flatMap((d) => testFilesUnder(d, tier.shallowSuffix ?? tier.suffix, false));
  return [...deep, ...shallow].sort();
}

/** What is wrong with the tiers: a line per test file that no tier or more than one tier runs; empty when none. */
export function tierProblems() {
  const owners = new Map(testFilesUnder('.').map((f) => [f, []]));
  for (const name of Object.keys(TIERS)) for (const f of tierFiles(name)) owners.get(f)?.push(name);
  const problems = [];
  for (const [file, tiers] of owners) {
    if (tiers.length === 0) problems.push(`${file}: in no test tier, so no script runs it (scripts/testTiers.mjs)`);
    if (tiers.length > 1) problems.push(`${file}: in ${tiers.length} tiers (${tiers.join(', ')}), so it runs twice`);
  }
  return problems;
}

// Runs node's built-in test runner (Node 20 has no glob in --test).
//   node scripts/run-tests.mjs --tier unit|core|webview   the files of a tier (scripts/testTiers.mjs), as npm run test:<tier>
//   node scripts/run-tests.mjs src/core/x test/core/y.test.ts   every *.test.ts under the given folders, or the files
//   node scripts/run-tests.mjs --check-tiers   fails when a *.test.ts belongs to no tier, or to two
// Other `--` options go to node's test runner.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, TIERS, testFilesUnder, tierFiles, tierProblems } from './testTiers.mjs';

const args = process.argv.slice(2);

if (args.includes('--check-tiers')) {
  const problems = tierProblems();
  for (const p of problems) console.error(`[tiers] ${p}`);
  if (problems.length > 0) process.exit(1);
  console.log(`[tiers] every test file is in exactly one tier (${Object.keys(TIERS).join(', ')})`);
  process.exit(0);
}

const tierAt = args.indexOf('--tier');
const tier = tierAt >= 0 ? args[tierAt + 1] : undefined;
if (tierAt >= 0 && !Object.hasOwn(TIERS, tier ?? '')) {
  console.error(`--tier takes one of ${Object.keys(TIERS).join(', ')}; got ${tier ?? 'nothing'}`);
  process.exit(2);
}
const rest = tierAt >= 0 ? args.filter((_, i) => i !== tierAt && i !== tierAt + 1) : args;
const opts = [...(tier ? (TIERS[tier]?.nodeArgs ?? []) : []), ...rest.filter((a) => a.startsWith('--'))];
const roots = rest.filter((a) => !a.startsWith('--')).map((r) => resolve(r));
const files = tier ? tierFiles(tier) : roots.flatMap((r) => (statSync(r).isDirectory() ? testFilesUnder(r) : [r]));
if (files.length === 0) {
  console.error(`no test files in ${tier ? `tier ${tier}` : roots.join(', ')}`);
  process.exit(1);
}
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...opts, ...files.sort()], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);

// Runs node's built-in test runner over every *.test.ts under the given folders (Node 20 has no glob in --test).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const opts = args.filter((a) => a.startsWith('--'));
const roots = args.filter((a) => !a.startsWith('--'));
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(p);
  }
};
for (const r of roots) statSync(r).isDirectory() ? walk(r) : files.push(r);
files.sort();
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`);
  process.exit(1);
}
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...opts, ...files], { stdio: 'inherit' });
process.exit(res.status ?? 1);

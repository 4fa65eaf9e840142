// The end-to-end suite's entry (npm run test:e2e): installs code-server and Chromium once (cached under .vscode-test/),
// builds the bundles if they are missing, then runs test/e2e/*.e2e.test.ts one file at a time.
// Extra arguments: test files to run instead of all, and/or --build to rebuild first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TIERS, tierFiles } from '../../scripts/testTiers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const args = process.argv.slice(2);
const forceBuild = args.includes('--build');
const requested = args.filter((a) => !a.startsWith('--'));

function run(command, commandArgs, what) {
  const res = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error(`[e2e] ${what} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
}

run('bash', [join(root, 'scripts/install-code-server.sh')], 'installing code-server and Chromium');
const bundles = ['dist/extension.js', 'dist/core.js', 'dist/webview.js', 'dist/controlCenter.js', 'dist/highlighter.js'];
if (forceBuild || bundles.some((b) => !existsSync(join(root, b)))) run('npm', ['run', 'build'], 'the build');

// The e2e tier of scripts/testTiers.mjs: the harness's own tests, then the e2e files.
const files = requested.length > 0 ? requested : tierFiles('e2e');
run(process.execPath, ['--import', 'tsx', '--test', ...TIERS.e2e.nodeArgs, '--test-reporter=spec', ...files], 'the e2e tests');

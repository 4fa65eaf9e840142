import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './paths';

export function artifactName(testName: string): string {
  return (
    testName
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'unnamed'
  );
}

export interface FailureSources {
  page?: Page;
  /** code-server's (or VS Code's) own output so far. */
  serverLog?: () => string;
  /** VS Code's logs dir (extension host, output channels). */
  logsDir?: string;
}

/** Keeps what explains a failure: a screenshot, the server log and VS Code's logs, named after the test. */
export async function saveFailureArtifacts(testName: string, sources: FailureSources): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const base = join(ARTIFACTS_DIR, artifactName(testName));
  if (sources.page && !sources.page.isClosed()) {
    await sources.page.screenshot({ path: `${base}.png`, timeout: 10_000 }).catch((error: unknown) => {
      writeFileSync(`${base}.screenshot-error.txt`, String(error));
    });
  }
  if (sources.serverLog) writeFileSync(`${base}.code-server.log`, safely(sources.serverLog));
  if (sources.logsDir && existsSync(sources.logsDir)) cpSync(sources.logsDir, `${base}.logs`, { recursive: true });
  return `${base}.png`;
}

function safely(read: () => string): string {
  try {
    return read();
  } catch (error) {
    return `(could not read: ${String(error)})`;
  }
}

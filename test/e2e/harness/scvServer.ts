import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';
import { commandLineOf, descendantsOf } from './processTree';

/** The fake `scv-server` (issue #6): speaks SCV v3 on stdio and runs its agent loop against `--base-url`. */
export const FAKE_SCV_SERVER = join(REPO_ROOT, 'test/scv/fakeScvServer.mjs');

export interface ScvLaunchSettings {
  /** `catalystCode.core.path`: the server program. */
  serverPath: string;
  /** The OpenAI-compatible endpoint the server talks to (`--base-url`). */
  baseUrl: string;
  /** `--model`: what the server reports in `session.started` and sends to the endpoint. */
  model: string;
  approvalPolicy: 'on-risk' | 'always' | 'never';
}

/**
 * Points the extension at an SCV server through the workspace folder's `.vscode/settings.json`. `core.args` is
 * machine-overridable, and in code-server only folder (or Machine) settings apply such values reliably (see
 * `coreEnvFolderSettings`), so all of the core settings go there together.
 */
export function writeScvFolderSettings(workspace: string, s: ScvLaunchSettings): void {
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const settings = {
    'catalystCode.core.kind': 'scv',
    'catalystCode.core.path': s.serverPath,
    'catalystCode.core.args': ['--base-url', s.baseUrl, '--model', s.model],
    'catalystCode.scv.approvalPolicy': s.approvalPolicy,
  };
  writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

export interface RunningProcess {
  pid: number;
  commandLine: string;
}

/** The live descendants of `root` whose command line matches `pattern`. */
export function processesMatching(root: number, pattern: RegExp): RunningProcess[] {
  return descendantsOf(root)
    .map((pid) => ({ pid, commandLine: commandLineOf(pid) }))
    .filter((p) => pattern.test(p.commandLine));
}

/** The fake SCV server processes VS Code started under `root`. */
export function scvServerProcesses(root: number): RunningProcess[] {
  return processesMatching(root, /fakeScvServer\.mjs/);
}

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { startScriptedModelServer, type StartedScriptedModelServer } from '../../support/scriptedModelServer';
import { artifactName, saveFailureArtifacts } from './artifacts';
import { ARTIFACTS_DIR } from './paths';
import { chatLocator, type ChatPlacement } from './chatView';
import { corePidsUnder } from './processTree';
import { launchWorkbench, type Workbench } from './workbench';

export interface E2eOptions {
  /** Files to create in the fresh workspace (relative path → content). */
  files?: Record<string, string>;
  /** What the scripted server's GET /models lists. */
  models?: string[];
  /** User settings (catalystCode.* and friends) over the harness defaults. */
  settings?: Record<string, unknown>;
  /** Runs after the temp HOME and workspace exist, before VS Code starts (e.g. to seed session files). */
  beforeLaunch?: (dirs: { home: string; workspace: string; configDir: string; model: StartedScriptedModelServer }) => void | Promise<void>;
  chromiumArgs?: string[];
  /** VS Code without this extension (a baseline for the benches). */
  withoutExtension?: boolean;
}

/** One launch: a fresh temp HOME (for the extension host and the core), a fresh workspace, a scripted model server, VS Code. */
export interface E2eEnv {
  root: string;
  home: string;
  /** HOME/.config/catalyst-code: the core's config, sessions and caches. */
  configDir: string;
  workspace: string;
  model: StartedScriptedModelServer;
  workbench: Workbench;
  page: Page;
  /** Our chat webview's UI, re-resolved on each use. */
  chat(placement?: ChatPlacement): FrameLocator;
  /** The pids of the core processes VS Code runs for us right now. */
  corePids(): number[];
  close(): Promise<void>;
}

export async function startE2eEnv(opts: E2eOptions = {}): Promise<E2eEnv> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'catalyst-e2e-')));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const configDir = join(home, '.config', 'catalyst-code');
  mkdirSync(configDir, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  for (const [path, content] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  const model = await startScriptedModelServer({ models: opts.models ?? ['e2e-model'] });
  let workbench: Workbench;
  try {
    await opts.beforeLaunch?.({ home, workspace, configDir, model });
    workbench = await launchWorkbench({
      runDir: root,
      workspace,
      home,
      settings: opts.settings,
      chromiumArgs: opts.chromiumArgs,
      withoutExtension: opts.withoutExtension,
    });
  } catch (error) {
    await model.close();
    removeUnlessKept(root);
    throw error;
  }
  return {
    root,
    home,
    configDir,
    workspace,
    model,
    workbench,
    page: workbench.page,
    chat: (placement = 'sidebar') => chatLocator(workbench.page, placement),
    corePids: () => corePidsUnder(workbench.rootPid),
    async close() {
      await workbench.close();
      await model.close();
      removeUnlessKept(root);
    },
  };
}

function removeUnlessKept(root: string): void {
  if (process.env.CATALYST_E2E_KEEP) {
    console.log(`[e2e] kept ${root}`);
    return;
  }
  rmSync(root, { recursive: true, force: true });
}

/**
 * Wraps a test body so that a failure leaves a screenshot and the logs under test-results/e2e/<test name>.*.
 * `getEnv` is read when the test runs (the env is made in a `before` hook). With CATALYST_E2E_SCREENSHOTS=1, passing
 * tests leave a screenshot under test-results/e2e/passed/ too (to see what the UI did).
 */
export function withArtifacts(getEnv: () => E2eEnv | undefined) {
  return (body: (t: TestContext) => Promise<void>) => async (t: TestContext) => {
    try {
      await body(t);
      const env = getEnv();
      if (process.env.CATALYST_E2E_SCREENSHOTS && env) {
        await env.page.screenshot({ path: join(ARTIFACTS_DIR, 'passed', `${artifactName(t.name)}.png`) }).catch(() => undefined);
      }
    } catch (error) {
      const env = getEnv();
      if (env) {
        const shot = await saveFailureArtifacts(t.name, {
          page: env.page,
          serverLog: env.workbench.serverLog,
          logsDir: env.workbench.logsDir,
        });
        t.diagnostic(`screenshot: ${shot}`);
      }
      throw error;
    }
  };
}

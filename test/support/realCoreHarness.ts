// Test support (imported only by *.test.ts): the real embedded core (dist/core.js) in a temp HOME and workspace,
// configured against the scripted model server, the only model test double.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sessionsDirFor } from '../../src/protocol/sessionLayout';
import { inheritedCoreEnv } from './coreTestEnv';
import { startScriptedModelServer, type ScriptedResponse, type StartedScriptedModelServer } from './scriptedModelServer';
import type { CoreLaunchOptions } from '../../src/client/channel/coreLaunch';
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { RestartPolicy } from '../../src/client/channel/restartPolicy';
import { SessionController, type SessionControllerOptions } from '../../src/client/intents/sessionController';
import type { SessionState } from '../../src/shared/sessionState';

export const REPO_ROOT = resolve(__dirname, '../..');
export const CORE_JS = join(REPO_ROOT, 'dist', 'core.js');
export const TEST_MODEL = 'test-model';
export const TEST_KEY = 'sk-test-SECRETMARKER-0123456789abcdef';

/** Builds dist/core.js when a test runs before `npm run build` (only the core bundle, as scripts/build.mjs does). */
export async function ensureCoreBuilt(): Promise<void> {
  if (existsSync(CORE_JS)) return;
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(REPO_ROOT, 'src/core/main.ts')],
    outfile: CORE_JS,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    legalComments: 'none',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  });
}

export interface RealCoreEnv {
  home: string;
  workspace: string;
  configDir: string;
  sessionsDir: string;
  model: StartedScriptedModelServer;
  launch(over?: Partial<Omit<CoreLaunchOptions, 'sessionFile'>>): Omit<CoreLaunchOptions, 'sessionFile'>;
  cleanup(): Promise<void>;
}

export async function realCoreEnv(script: ScriptedResponse[] = []): Promise<RealCoreEnv> {
  const model = await startScriptedModelServer({ models: [TEST_MODEL], script });
  const home = mkdtempSync(join(tmpdir(), 'client-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'client-ws-'));
  const configDir = join(home, '.config', 'catalyst-code');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({
      activeProvider: 'scripted',
      providers: [{ name: 'scripted', kind: 'openai', base_url: model.url, api_key: TEST_KEY }],
    }),
  );
  return {
    home,
    workspace,
    configDir,
    sessionsDir: sessionsDirFor(configDir, workspace),
    model,
    launch: (over = {}) => ({
      kind: 'embedded',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        GIT_CONFIG_NOSYSTEM: '1',
        ...inheritedCoreEnv(),
      },
      embeddedCorePath: CORE_JS,
      nodePath: process.execPath,
      workspace,
      approval: 'destructive',
      extraArgs: [],
      extraEnv: {},
      ...over,
    }),
    async cleanup() {
      await model.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** A node program standing in for a misbehaving core process (garbage, silence, early exit) — never for the model. */
export function nodeScriptLaunch(source: string): { command: string; args: string[]; env: Record<string, string>; kind: 'embedded' } {
  return { command: process.execPath, args: ['-e', source], env: { PATH: process.env.PATH ?? '' }, kind: 'embedded' };
}

/** Starts a SessionController over the real core in an environment (and disposes both after the file's tests). */
export type StartRealCoreController = (env: RealCoreEnv, over?: Partial<SessionControllerOptions>) => Promise<SessionController>;

/**
 * Registers the hooks of a file whose tests drive a SessionController over the real core: the core built before, every
 * controller disposed and its environment removed after. `CATALYST_TEST_CORE_JS` picks another build of the core.
 */
export function useRealCoreControllers(): StartRealCoreController {
  const open: Array<{ env: RealCoreEnv; controller: SessionController }> = [];
  before(() => ensureCoreBuilt());
  after(async () => {
    for (const { env, controller } of open.splice(0)) {
      await controller.dispose();
      await env.cleanup();
    }
  });
  return async (env, over = {}) => {
    const controller = new SessionController({
      launch: env.launch({ embeddedCorePath: process.env.CATALYST_TEST_CORE_JS ?? CORE_JS }),
      sessionsDir: env.sessionsDir,
      clientVersion: '0.1.0-test',
      restartPolicy: new RestartPolicy({ baseDelayMs: 50, maxDelayMs: 200 }),
      handshakeTimeoutMs: 15_000,
      ...over,
    });
    open.push({ env, controller });
    assert.equal(await controller.start(), true, JSON.stringify(controller.state.core));
    return controller;
  };
}

/** The controller's state once `pred` holds: checked now, then on every change (never on a timer). */
export function untilState(c: SessionController, pred: (s: SessionState) => boolean): Promise<SessionState> {
  return new Promise((resolve) => {
    if (pred(c.state)) return resolve(c.state);
    const sub = c.onDidChange((s) => pred(s) && (sub.dispose(), resolve(s)));
  });
}

/**
 * A controller for an SCV server that is never started: what the suites above check against the real core, SCV must
 * refuse from its capabilities alone, before anything is sent.
 */
export function unstartedScvController(): SessionController {
  return new SessionController({
    launch: {
      kind: 'scv',
      embeddedCorePath: __filename,
      nodePath: process.execPath,
      workspace: '/nonexistent',
      extraArgs: [],
      extraEnv: {},
      env: {},
    },
    sessionsDir: '/nonexistent',
    clientVersion: '0.1.0-test',
  });
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreProcess, type CoreOptions } from './coreProcess';
import { startScriptedModelServer, type ScriptedResponse, type StartedScriptedModelServer } from './scriptedModelServer';

export const TEST_MODEL = 'test-model';
export const TEST_KEY = 'sk-test-SECRETMARKER-0123456789abcdef';

export interface Scenario {
  core: CoreProcess;
  model: StartedScriptedModelServer;
  /**
   * Sends a prompt and resolves with the events of that turn once `done` (or the given terminal type) arrives, without
   * the unsolicited ones (test/support/unsolicitedEvents.ts).
   */
  turn(prompt: string, opts?: { until?: string; timeoutMs?: number }): Promise<any[]>;
  /**
   * Sends a prompt, answers each approval with the next answer (a decision, or the `approve` command's fields such as
   * `{ decision: 'yes', edited_content }`), and resolves with the turn's events once `done` arrives (unsolicited ones left out).
   */
  turnAnswering(prompt: string, answers: Array<string | Record<string, unknown>>): Promise<any[]>;
  close(): Promise<void>;
}

export interface ScenarioOptions extends Omit<CoreOptions, 'providers'> {
  script?: ScriptedResponse[];
  /** Route FIFOs of the scripted server (see ScriptedModelServer.route). */
  routes?: Record<string, ScriptedResponse[]>;
  approval?: 'never' | 'destructive' | 'always';
  git?: boolean;
  files?: Record<string, string>;
  kind?: 'openai' | 'anthropic';
  handshake?: boolean;
  /** The providers of config.json, given the scripted server's URL (the first is active); default: 'scripted' with TEST_KEY. */
  providers?: (modelUrl: string) => Array<{ name: string; [field: string]: unknown }>;
}

/** A scripted model server, a temp workspace (optionally a git repo with files) and a core configured to use them. */
export async function startScenario(opts: ScenarioOptions = {}): Promise<Scenario> {
  const model = await startScriptedModelServer({ models: [TEST_MODEL], script: opts.script ?? [], routes: opts.routes });
  const workspace = opts.workspace ?? mkdtempSync(join(tmpdir(), 'core-ws-'));
  for (const [path, content] of Object.entries(opts.files ?? {})) {
    const abs = join(workspace, path);
    execFileSync('mkdir', ['-p', join(abs, '..')]);
    writeFileSync(abs, content);
  }
  if (opts.git) initGitRepo(workspace);
  const providers = opts.providers?.(model.url) ?? [
    { name: 'scripted', kind: opts.kind ?? 'openai', base_url: model.url, api_key: TEST_KEY },
  ];
  const core = CoreProcess.start({
    ...opts,
    // With no provider configured the core lists its default one unauthenticated: keep that off the network.
    // Nor does it fetch models.dev's prices (the shipped snapshot stands), unless the test points it at a stand-in.
    env: { UMANS_BASE_URL: await unusedLocalUrl(), CATALYST_CODE_MODELS_DEV_URL: `${await unusedLocalUrl()}/api.json`, ...opts.env },
    workspace,
    args: ['--approval', opts.approval ?? 'destructive', ...(opts.args ?? [])],
    providers,
    config: { ...(providers[0] ? { activeProvider: providers[0].name } : {}), ...(opts.config ?? {}) },
  });
  if (opts.handshake !== false) {
    await core.handshake();
    // The scripted server serves TEST_MODEL: a turn sent before discovery listed it would skip the unknown-model check.
    if (!opts.providers) await core.untilModelListed(TEST_MODEL);
  }
  return {
    core,
    model,
    async turn(prompt, t = {}) {
      const from = core.events.length;
      core.send({ type: 'send', prompt, model: TEST_MODEL });
      await core.waitForType(t.until ?? 'done', { from, timeoutMs: t.timeoutMs });
      return core.answerSince(from);
    },
    async turnAnswering(prompt, answers) {
      const from = core.events.length;
      core.send({ type: 'send', prompt, model: TEST_MODEL });
      let cursor = from;
      for (const answer of answers) {
        const req = await core.waitForType('approval_request', { from: cursor });
        cursor = core.events.indexOf(req) + 1;
        core.send({ type: 'approve', request_id: req.request_id, ...(typeof answer === 'string' ? { decision: answer } : answer) });
      }
      await core.waitForType('done', { from });
      return core.answerSince(from);
    },
    async close() {
      await core.close();
      await model.close();
      core.cleanup();
    },
  };
}

/** An OpenAI-style base URL on a 127.0.0.1 port nothing listens on (taken from the OS, then released). */
export async function unusedLocalUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

export function initGitRepo(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv() });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'initial');
}

export function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

/** The event types of a slice, for order assertions. */
export const types = (events: { type: string }[]): string[] => events.map((e) => e.type);

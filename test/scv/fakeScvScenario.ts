import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedResponse,
} from '../support/scriptedModelServer';
import { RawScvClient, type ScvEvent } from './rawScvClient';

export const SCV_TEST_MODEL = 'scv-test-model';
export const SCV_TEST_KEY = 'sk-test-SCVMARKER-0123456789abcdef';

export interface FakeScvOptions {
  script?: ScriptedResponse[];
  approvalPolicy?: 'on-risk' | 'always' | 'never';
  /** `SCV_FAKE_FAULTS` (see the table at the top of fakeScvServer.mjs). */
  faults?: Record<string, unknown>;
  /** Files written into the temp workspace before the server starts. */
  files?: Record<string, string>;
  /** Extra flags after the scenario's own. */
  args?: string[];
  /** false: spawn only, the test does its own initialize / session.start. */
  handshake?: boolean;
}

/**
 * Flags and environment for the fake server pointed at `model`, shared by the raw client and the adapter scenarios.
 * HOME is an empty folder (`home`, the caller removes it): `bash -lc` then reads no one's login scripts.
 */
export function fakeScvLaunch(
  model: ScriptedModelServer,
  opts: Pick<FakeScvOptions, 'approvalPolicy' | 'faults' | 'args'> = {},
): { args: string[]; env: Record<string, string>; home: string } {
  const args = ['--model', SCV_TEST_MODEL, '--base-url', model.url];
  if (opts.approvalPolicy) args.push('--approval-policy', opts.approvalPolicy);
  const home = mkdtempSync(join(tmpdir(), 'scv-home-'));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, OPENAI_API_KEY: SCV_TEST_KEY };
  if (opts.faults) env.SCV_FAKE_FAULTS = JSON.stringify(opts.faults);
  return { args: [...args, ...(opts.args ?? [])], env, home };
}

export function makeWorkspace(files: Record<string, string> = {}): string {
  const workspace = mkdtempSync(join(tmpdir(), 'scv-ws-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  return workspace;
}

export interface FakeScvScenario {
  client: RawScvClient;
  model: ScriptedModelServer;
  workspace: string;
  /** Empty when `handshake: false`. */
  sessionId: string;
  /** `turn.start`; returns its request id. */
  startTurn(prompt: string): string;
  /** Waits for the terminal event (turn.completed / cancelled / failed) of the turn submitted as `requestId`. */
  terminalOf(requestId: string, from?: number): Promise<ScvEvent>;
  /** Sends a session-scoped message (session_id added). */
  sendInSession(msg: { type: string; [field: string]: unknown }): string;
  close(): Promise<void>;
}

const TERMINAL_TYPES = new Set(['turn.completed', 'turn.cancelled', 'turn.failed']);

export function isTerminal(e: ScvEvent): boolean {
  return TERMINAL_TYPES.has(e.type);
}

/** A scripted model server, a temp workspace and the fake SCV server pointed at both, driven by a raw client. */
export async function startFakeScv(opts: FakeScvOptions = {}): Promise<FakeScvScenario> {
  const model = await startScriptedModelServer({ models: [SCV_TEST_MODEL], script: opts.script ?? [] });
  const workspace = makeWorkspace(opts.files);
  const launch = fakeScvLaunch(model, opts);
  const client = RawScvClient.start(launch);
  let sessionId = '';
  if (opts.handshake !== false) {
    try {
      sessionId = (await client.handshake(workspace)).sessionId;
    } catch (error) {
      await client.close();
      await model.close();
      rmSync(launch.home, { recursive: true, force: true });
      throw error;
    }
  }
  const sendInSession = (msg: { type: string; [field: string]: unknown }): string => client.send({ session_id: sessionId, ...msg });
  return {
    client,
    model,
    workspace,
    sessionId,
    startTurn: (prompt) => sendInSession({ type: 'turn.start', prompt }),
    terminalOf: (requestId, from = 0) => client.waitFor((e) => isTerminal(e) && e.request_id === requestId, { from }),
    sendInSession,
    async close() {
      await client.close();
      await model.close();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(launch.home, { recursive: true, force: true });
    },
  };
}

/** The chat-completions requests the model server received, in order. */
export function chatRequests(model: ScriptedModelServer): RecordedRequest[] {
  return model.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
}

import { rmSync } from 'node:fs';
import type { CoreLaunch } from '../../src/client/channel/coreLaunch';
import type { WireEvent } from '../../src/client/state/eventFields';
import { ScvConnection } from '../../src/client/channel/scv/scvConnection';
import type { Command } from '../../src/protocol';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scriptedModelServer';
import { SCV_TEST_MODEL, fakeScvLaunch, makeWorkspace, type FakeScvOptions } from './fakeScvScenario';
import { FAKE_SCV_SERVER } from './rawScvClient';

export const CLIENT_VERSION = '9.9.9-test';

export type AdapterEvent = WireEvent & { [field: string]: any };

export interface ScvAdapterScenario {
  channel: ScvConnection;
  model: ScriptedModelServer;
  workspace: string;
  /** Everything `onEvent` delivered, in order (Catalyst v2 events and `client:*` events). */
  events: AdapterEvent[];
  /** Everything `onLog` delivered. */
  logs: string[];
  /** Sends a prompt as the SessionController does; returns the events index to wait from. */
  prompt(text: string): number;
  send(cmd: Command): boolean;
  waitFor(pred: (e: AdapterEvent) => boolean, opts?: { from?: number; timeoutMs?: number }): Promise<AdapterEvent>;
  waitForType(type: string, opts?: { from?: number; timeoutMs?: number }): Promise<AdapterEvent>;
  /** Waits for a log line matching `pattern`. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
  ofType(type: string, from?: number): AdapterEvent[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  close(): Promise<void>;
}

/**
 * The adapter under test over real stdio: `ScvConnection` spawning the fake scv-server (pointed at a scripted model
 * server) in a temp workspace, exactly as spawnCoreChannel would for `kind: 'scv'`.
 */
export async function startScvAdapter(opts: FakeScvOptions = {}): Promise<ScvAdapterScenario> {
  const model = await startScriptedModelServer({ models: [SCV_TEST_MODEL], script: opts.script ?? [] });
  const workspace = makeWorkspace(opts.files);
  const fake = fakeScvLaunch(model, opts);
  const launch: CoreLaunch = { kind: 'scv', command: process.execPath, args: [FAKE_SCV_SERVER, ...fake.args], env: fake.env };
  const channel = ScvConnection.spawn(launch, workspace, CLIENT_VERSION);
  const events: AdapterEvent[] = [];
  const logs: string[] = [];
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };
  channel.onEvent((e) => {
    events.push(e as AdapterEvent);
    notify();
  });
  channel.onLog((line) => {
    logs.push(line);
    notify();
  });
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    channel.onExit((code, signal) => {
      exitInfo = { code, signal };
      resolveExit(exitInfo);
      notify();
    }),
  );

  const recent = (): string =>
    `\nlast events:\n${events
      .slice(-15)
      .map((e) => JSON.stringify(e).slice(0, 300))
      .join('\n')}\nlogs:\n${logs.slice(-10).join('\n')}\nstderr: ${channel.recentStderr().join('\n')}`;

  const waitUntil = <T>(probe: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> =>
    new Promise((resolveWait, reject) => {
      const check = (): void => {
        const found = probe();
        if (found !== undefined) {
          cleanup();
          resolveWait(found);
        } else if (exitInfo) {
          cleanup();
          reject(new Error(`the SCV server exited (${exitInfo.code ?? exitInfo.signal}) while waiting for ${what}${recent()}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${recent()}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  const scenario: ScvAdapterScenario = {
    channel,
    model,
    workspace,
    events,
    logs,
    exited,
    prompt(text) {
      const from = events.length;
      channel.send({ type: 'send', prompt: text, model: SCV_TEST_MODEL });
      return from;
    },
    send: (cmd) => channel.send(cmd),
    waitFor: (pred, o = {}) => waitUntil(() => events.slice(o.from ?? 0).find(pred), 'an event', o.timeoutMs),
    waitForType: (type, o = {}) => waitUntil(() => events.slice(o.from ?? 0).find((e) => e.type === type), `a ${type} event`, o.timeoutMs),
    waitForLog: (pattern, timeoutMs) => waitUntil(() => logs.find((l) => pattern.test(l)), `a log line matching ${pattern}`, timeoutMs),
    ofType: (type, from = 0) => events.slice(from).filter((e) => e.type === type),
    async close() {
      await channel.stop();
      await model.close();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(fake.home, { recursive: true, force: true });
    },
  };
  if (opts.handshake !== false) {
    try {
      await channel.handshake();
    } catch (error) {
      await scenario.close();
      throw error;
    }
  }
  return scenario;
}

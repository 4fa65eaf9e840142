// A prompt sent right after a core restart, before the restarted core's `history` reaches the client, shows exactly
// once with its reply (it used to vanish under the history's rebuild of the transcript). The real embedded core and
// the SessionController; the order is made deterministic through the controller's channel seam: the restarted core's
// events are held from its `history` on until the test has sent the prompt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from '../../src/protocol';
import type { CoreChannel } from '../../src/client/channel/coreChannel';
import type { Disposable, Handshake } from '../../src/client/channel/coreConnection';
import type { WireEvent } from '../../src/client/state/eventFields';
import { ensureCoreBuilt, realCoreEnv, type RealCoreEnv } from '../support/realCoreHarness';
import { RestartPolicy } from '../../src/client/channel/restartPolicy';
import { SessionController } from '../../src/client/intents/sessionController';
import { spawnCoreChannel } from '../../src/client/channel/spawnCoreChannel';
import type { SessionState } from '../../src/shared/sessionState';
import { waitForEvent, waitForState } from './controllerWaits';

/** A real channel whose events, once armed, stop at the first `history` (it included) until `release()`. */
class HistoryGate implements CoreChannel {
  private readonly listeners = new Set<(e: WireEvent) => void>();
  private held: WireEvent[] | undefined;
  private onHeld: (() => void) | undefined;
  /** Resolves once the `history` is being held. */
  readonly historyHeld: Promise<void>;

  constructor(
    private readonly inner: CoreChannel,
    armed: boolean,
  ) {
    if (armed) this.held = [];
    this.historyHeld = new Promise<void>((resolve) => (this.onHeld = resolve));
    inner.onEvent((e) => this.receive(e));
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const e of held) this.deliver(e);
  }

  private receive(e: WireEvent): void {
    if (this.held && (this.held.length > 0 || e.type === 'history')) {
      this.held.push(e);
      if (e.type === 'history') this.onHeld?.();
      return;
    }
    this.deliver(e);
  }

  private deliver(e: WireEvent): void {
    for (const listener of [...this.listeners]) listener(e);
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }
  get hasExited(): boolean {
    return this.inner.hasExited;
  }
  recentStderr(): string[] {
    return this.inner.recentStderr();
  }
  onEvent(listener: (e: WireEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }
  onLog(listener: (line: string) => void): Disposable {
    return this.inner.onLog(listener);
  }
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): Disposable {
    return this.inner.onExit(listener);
  }
  send(cmd: Command): boolean {
    return this.inner.send(cmd);
  }
  handshake(timeoutMs?: number): Promise<Handshake> {
    return this.inner.handshake(timeoutMs);
  }
  stop(graceMs?: number): Promise<void> {
    return this.inner.stop(graceMs);
  }
  kill(): Promise<void> {
    return this.inner.kill();
  }
}

const texts = (s: SessionState, kind: 'user' | 'assistant'): string[] => s.items.flatMap((i) => (i.kind === kind ? [i.text] : []));

describe('a prompt sent after a core restart, before its history arrives', () => {
  let env: RealCoreEnv;
  let controller: SessionController;
  const logs: string[] = [];
  const gates: HistoryGate[] = [];
  let armNextGate = false;

  before(async () => {
    await ensureCoreBuilt();
    env = await realCoreEnv();
    controller = new SessionController({
      launch: env.launch({ approval: 'never' }),
      sessionsDir: env.sessionsDir,
      clientVersion: '0.1.0-restart-prompt',
      log: (line) => logs.push(line),
      restartPolicy: new RestartPolicy({ baseDelayMs: 50, maxDelayMs: 200 }),
      handshakeTimeoutMs: 20_000,
      spawnChannel: (launch, cwd, version, rules) => {
        const gate = new HistoryGate(spawnCoreChannel(launch, cwd, version, rules), armNextGate);
        armNextGate = false;
        gates.push(gate);
        return gate;
      },
    });
  });

  after(async () => {
    await controller?.dispose();
    await env?.cleanup();
  });

  const until = (pred: (s: SessionState) => boolean, what: string): Promise<SessionState> =>
    waitForState(controller, logs, pred, what, 30_000);

  test('shows exactly once, after the resumed conversation, with its reply; the session file agrees', { timeout: 120_000 }, async () => {
    env.model.enqueue({ steps: [{ text: 'First answer.' }] });
    assert.equal(await controller.start(), true);
    // ready lists the models only when discovery beat its budget; else they come later, in `models`.
    await until((s) => s.model !== undefined, 'a model to send to');
    assert.equal(controller.sendPrompt('before the crash'), true);
    const first = await until((s) => s.run.status === 'idle' && texts(s, 'assistant').includes('First answer.'), 'the first answer');

    armNextGate = true;
    process.kill(first.core.pid!, 'SIGKILL');
    await until(
      (s) => s.core.status === 'ready' && s.core.pid !== undefined && s.core.pid !== first.core.pid && s.model !== undefined,
      'the restarted core, with a model to send to',
    );
    const gate = gates[gates.length - 1];
    assert.notEqual(gate, gates[0], 'the restart went through a new channel');
    await gate.historyHeld;

    env.model.enqueue({ steps: [{ text: 'Reply after the restart.' }] });
    assert.equal(controller.sendPrompt('right after the restart'), true);
    gate.release();
    const answered = await until(
      (s) => s.run.status === 'idle' && texts(s, 'assistant').includes('Reply after the restart.'),
      'the reply to the prompt sent after the restart',
    );
    assert.deepEqual(texts(answered, 'user'), ['before the crash', 'right after the restart']);
    assert.deepEqual(texts(answered, 'assistant'), ['First answer.', 'Reply after the restart.']);
    // The model got the resumed conversation and the new prompt once each.
    const lastRequest = env.model.requests.filter((r) => r.method === 'POST').pop();
    const asked = (lastRequest?.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    assert.deepEqual(asked, ['before the crash', 'right after the restart']);

    // What the user sees after reopening: the conversation as the session file has it, the same.
    const reloaded = waitForEvent(controller, logs, (e) => e.type === 'history', 'the history after a clean restart', 30_000);
    assert.equal(await controller.restart(), true);
    await reloaded;
    const final = await until((s) => s.core.status === 'ready' && s.run.status === 'idle', 'the clean restart');
    assert.deepEqual(texts(final, 'user'), ['before the crash', 'right after the restart']);
    assert.deepEqual(texts(final, 'assistant'), ['First answer.', 'Reply after the restart.']);
  });
});

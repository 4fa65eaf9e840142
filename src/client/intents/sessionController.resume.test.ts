// The SessionController while a resumed core replays its conversation: a prompt sent between `ready` and `history`
// must neither vanish under the history's rebuild nor show twice. A fake Catalyst CoreChannel, no process: the test
// delivers the core's events in the exact order that lost the prompt.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../../protocol';
import type { SessionState } from '../../shared/sessionState';
import type { Handshake } from '../channel/coreConnection';
import { RecordingChannel } from '../../../test/support/recordingChannel';
import { RestartPolicy } from '../channel/restartPolicy';
import { SessionController } from './sessionController';

const MODEL = 'resume-model';
const STORED = [
  { role: 'user', content: 'stored question' },
  { role: 'assistant', content: 'stored answer' },
];

/** A Catalyst core whose `ready` says how many messages it resumed; everything after the handshake is the test's. */
class ResumingChannel extends RecordingChannel {
  readonly pid: number;

  constructor(
    private readonly resumedMessages: number,
    pid: number,
  ) {
    super();
    this.pid = pid;
  }

  /** A core that has exited takes no more commands. */
  override send(cmd: Command): boolean {
    return !this.hasExited && super.send(cmd);
  }
  async handshake(): Promise<Handshake> {
    const ready = {
      type: 'ready' as const,
      models: [{ id: MODEL, provider: 'local' }],
      authed: true,
      anyLoggedIn: true,
      provider: 'local',
      approval: 'destructive',
      resumed_messages: this.resumedMessages,
    };
    const hello = { type: 'protocol_hello' as const, version: '0.1.0', protocol_version: 2, capabilities: ['protocol_v2', 'run_ids'] };
    this.emit(ready);
    this.emit(hello);
    return { ready, hello } as unknown as Handshake;
  }

  history(): void {
    this.emit({ type: 'history', messages: STORED, tokens_in: 0 });
  }
  prompts(): string[] {
    return this.sent.flatMap((c) => (c.type === 'send' ? [c.prompt] : []));
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function controllerResuming(resumedMessages: number) {
  const workspace = mkdtempSync(join(tmpdir(), 'resume-ctl-'));
  // The launch is resolved (the file must exist), never run: spawnChannel hands out the fake.
  const corePath = join(workspace, 'core.js');
  writeFileSync(corePath, '');
  const channels: ResumingChannel[] = [];
  const states: SessionState[] = [];
  const controller = new SessionController({
    launch: {
      kind: 'embedded',
      embeddedCorePath: corePath,
      nodePath: process.execPath,
      env: { PATH: '' },
      workspace,
      approval: 'destructive',
      extraArgs: [],
      extraEnv: {},
    },
    sessionsDir: join(workspace, 'sessions'),
    clientVersion: '0.0.0-test',
    restartPolicy: new RestartPolicy({ baseDelayMs: 1, maxDelayMs: 5 }),
    spawnChannel: () => {
      const channel = new ResumingChannel(resumedMessages, 5000 + channels.length);
      channels.push(channel);
      return channel;
    },
  });
  controller.onDidChange((s) => states.push(s));
  cleanups.push(
    () => controller.dispose(),
    () => rmSync(workspace, { recursive: true, force: true }),
  );
  assert.equal(await controller.start(), true, JSON.stringify(controller.state.core));
  return {
    controller,
    states,
    get channel() {
      return channels[channels.length - 1];
    },
  };
}

const userTexts = (s: SessionState): string[] => s.items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
const transcript = (s: SessionState): string[] =>
  s.items.flatMap((i) => (i.kind === 'user' || i.kind === 'assistant' ? [`${i.kind}: ${i.text}`] : []));

describe('SessionController: a prompt sent before the resumed history arrives', () => {
  test('ready → prompt → history: the prompt shows once, after the history, and is sent after it', async () => {
    const h = await controllerResuming(STORED.length);
    assert.equal(h.controller.state.core.status, 'ready');
    assert.equal(h.controller.sendPrompt('sent right after the restart'), true);
    h.channel.history();
    assert.deepEqual(transcript(h.controller.state), [
      'user: stored question',
      'assistant: stored answer',
      'user: sent right after the restart',
    ]);
    assert.deepEqual(h.channel.prompts(), ['sent right after the restart']);
    assert.equal(h.controller.state.run.status, 'running');
    // No state the webview was sent showed the prompt before the history, so none showed it twice or lost it.
    assert.ok(h.states.every((s) => userTexts(s).filter((t) => t === 'sent right after the restart').length <= 1));
    h.channel.emit({ type: 'delta', run_id: 'r1', text: 'the reply' });
    h.channel.emit({ type: 'done', run_id: 'r1' });
    assert.deepEqual(transcript(h.controller.state), [
      'user: stored question',
      'assistant: stored answer',
      'user: sent right after the restart',
      'assistant: the reply',
    ]);
  });

  test('two prompts in the window: the first starts the turn, the second is queued, a third is refused', async () => {
    const h = await controllerResuming(STORED.length);
    assert.equal(h.controller.sendPrompt('first'), true);
    assert.equal(h.controller.sendPrompt('second'), true);
    assert.equal(h.controller.sendPrompt('third'), false);
    assert.match((h.controller.state.items.at(-1) as { text: string }).text, /already waiting/);
    h.channel.history();
    assert.deepEqual(userTexts(h.controller.state), ['stored question', 'first']);
    assert.equal(h.controller.state.run.queued, 'second');
    assert.deepEqual(h.channel.prompts(), ['first', 'second']);
  });

  test('a history that never decodes: the answer to the stats probe releases the prompt', async () => {
    const h = await controllerResuming(STORED.length);
    assert.equal(h.controller.sendPrompt('while the history is too large to read'), true);
    assert.deepEqual(h.channel.prompts(), []);
    h.channel.emit({ type: 'stats', tokens_in: 0, tokens_out: 0 });
    assert.deepEqual(userTexts(h.controller.state), ['while the history is too large to read']);
    assert.deepEqual(h.channel.prompts(), ['while the history is too large to read']);
  });

  test('the core crashes before its history: the next core shows and sends the prompt after its own history', async () => {
    const h = await controllerResuming(STORED.length);
    const first = h.channel;
    assert.equal(h.controller.sendPrompt('held across a crash'), true);
    const restarted = new Promise<void>((resolve) => {
      const sub = h.controller.onDidChange((s) => {
        if (s.core.status !== 'ready' || h.channel === first) return;
        sub.dispose();
        resolve();
      });
    });
    first.exit(null, 'SIGKILL');
    await restarted;
    assert.deepEqual(first.prompts(), []);
    assert.deepEqual(h.channel.prompts(), [], 'still held: this core has not replayed its history yet');
    h.channel.history();
    assert.deepEqual(userTexts(h.controller.state), ['stored question', 'held across a crash']);
    assert.deepEqual(h.channel.prompts(), ['held across a crash']);
  });

  test('a fresh session (nothing resumed): the prompt shows and is sent at once', async () => {
    const h = await controllerResuming(0);
    assert.equal(h.controller.sendPrompt('hello'), true);
    assert.deepEqual(userTexts(h.controller.state), ['hello']);
    assert.deepEqual(h.channel.prompts(), ['hello']);
  });
});

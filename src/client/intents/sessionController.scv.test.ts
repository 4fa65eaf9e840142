// The SessionController's rules for a core behind an adapter (SCV): a fake CoreChannel, no process.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../../protocol';
import type { CoreKind, NoticeItem, SessionState } from '../../shared/sessionState';
import type { CoreChannel, ServerQueueControl } from '../channel/coreChannel';
import type { Disposable, Handshake } from '../channel/coreConnection';
import type { WireEvent } from '../state/eventFields';
import type { CoreLaunch } from '../channel/coreLaunch';
import type { ApprovalRules } from '../channel/scv/approvalRules';
import { RecordingChannel } from '../../../test/support/recordingChannel';
import { SESSION, TranslatorHarness } from '../../../test/support/scvTestHarness';
import type { TranslatorStep } from '../channel/scv/scvTranslator';
import { RestartPolicy } from '../channel/restartPolicy';
import { SessionController } from './sessionController';

const MAX_PROMPT_BYTES = 262_144;

/** A channel that answers the handshake like the SCV adapter and records what the controller sends. */
class FakeChannel extends RecordingChannel {
  readonly pid = 4242;
  readonly queueCalls: unknown[][] = [];
  readonly serverQueue?: ServerQueueControl;
  readonly limits?: { maxPromptBytes?: number };

  constructor(
    private readonly capabilities: string[],
    opts: { queue?: boolean; maxPromptBytes?: number } = {},
  ) {
    super();
    if (opts.queue !== false) {
      const record =
        (name: string) =>
        (...args: unknown[]) => (this.queueCalls.push([name, ...args]), true);
      this.serverQueue = { edit: record('edit'), move: record('move'), remove: record('remove'), pause: record('pause') };
    }
    if (opts.maxPromptBytes !== undefined) this.limits = { maxPromptBytes: opts.maxPromptBytes };
  }

  async handshake(): Promise<Handshake> {
    const ready = {
      type: 'ready' as const,
      models: [{ id: 'scv-model', provider: 'scv' }],
      authed: true,
      anyLoggedIn: true,
      workspace: '/ws',
      provider: 'scv',
      approval: 'destructive',
    };
    const hello = { type: 'protocol_hello' as const, version: '0.3.14', protocol_version: 2, capabilities: this.capabilities };
    this.emit(ready);
    this.emit(hello);
    return { ready, hello } as unknown as Handshake;
  }

  sentTypes(): string[] {
    return this.sent.map((c) => c.type);
  }
  /** The process dies on its own. */
  crash(): void {
    this.exit(null, 'SIGKILL');
  }
}

/**
 * The real ScvTranslator behind a channel, as ScvConnection runs it, without a process: the controller's commands go
 * through the translator, and the test plays the server's events (`event`, `turn`).
 */
class AdapterChannel implements CoreChannel {
  readonly pid = 4343;
  hasExited = false;
  readonly h: TranslatorHarness;
  readonly serverQueue: ServerQueueControl;
  private readonly events = new Set<(e: WireEvent) => void>();

  constructor(private readonly snapshot: { entries?: unknown[]; paused?: boolean } = {}) {
    this.h = new TranslatorHarness();
    this.serverQueue = {
      edit: (id, prompt) => this.run(this.h.t.queueEdit(id, prompt)),
      move: (id, beforeId) => this.run(this.h.t.queueMove(id, beforeId)),
      remove: (id) => this.run(this.h.t.queueRemove(id)),
      pause: (paused) => this.run(this.h.t.queuePause(paused)),
    };
  }

  recentStderr(): string[] {
    return [];
  }
  onEvent(listener: (e: WireEvent) => void): Disposable {
    this.events.add(listener);
    return { dispose: () => void this.events.delete(listener) };
  }
  onLog(): Disposable {
    return { dispose() {} };
  }
  onExit(): Disposable {
    return { dispose() {} };
  }
  send(cmd: Command): boolean {
    return this.run(this.h.t.onCommand(cmd));
  }
  async handshake(): Promise<Handshake> {
    const snap = this.h.handshake(this.snapshot);
    this.apply(snap);
    const ready = snap.events.find((e) => e.type === 'ready');
    const hello = snap.events.find((e) => e.type === 'protocol_hello');
    return { ready, hello } as unknown as Handshake;
  }
  async stop(): Promise<void> {
    this.hasExited = true;
  }
  async kill(): Promise<void> {
    this.hasExited = true;
  }

  /** A session event from the server (the next seq). */
  event(type: string, fields: Record<string, unknown> = {}): void {
    this.apply(this.h.event(type, fields));
  }
  /** A turn event of `turnId` answering `requestId`. */
  turn(type: string, turnId: string, requestId: string, fields: Record<string, unknown> = {}): void {
    this.apply(this.h.turnEvent(type, turnId, fields, requestId));
  }
  /** The frames the translator wrote to the server, by type. */
  sentOf(type: string): Record<string, unknown>[] {
    return this.h.sent.filter((m) => m.type === type) as unknown as Record<string, unknown>[];
  }

  private run(step: TranslatorStep & { accepted: boolean }): boolean {
    this.apply(this.h.record(step));
    return step.accepted;
  }
  private apply(step: TranslatorStep): void {
    for (const e of step.events) for (const listener of [...this.events]) listener(e as WireEvent);
  }
}

interface Setup<C extends CoreChannel = FakeChannel> {
  controller: SessionController;
  channels: C[];
  rules: ApprovalRules[];
  readonly channel: C;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function started(kind?: CoreKind): Promise<Setup>;
async function started<C extends CoreChannel>(kind: CoreKind, make: () => C): Promise<Setup<C>>;
async function started(
  kind: CoreKind = 'scv',
  make: () => CoreChannel = () => new FakeChannel(['server_queue', 'tool_progress'], { maxPromptBytes: MAX_PROMPT_BYTES }),
): Promise<Setup<CoreChannel>> {
  const channels: CoreChannel[] = [];
  const rules: ApprovalRules[] = [];
  const workspace = mkdtempSync(join(tmpdir(), 'scv-ctl-'));
  const controller = new SessionController({
    launch: {
      kind,
      // Resolvable for every kind: an executable file, and an existing embedded entry point.
      configuredPath: process.execPath,
      embeddedCorePath: __filename,
      nodePath: process.execPath,
      env: { PATH: '' },
      workspace,
      extraArgs: [],
      extraEnv: {},
    },
    sessionsDir: join(tmpdir(), 'scv-ctl-sessions-unused'),
    clientVersion: '0.0.0-test',
    restartPolicy: new RestartPolicy({ baseDelayMs: 1, maxDelayMs: 5 }),
    spawnChannel: (_launch: CoreLaunch, _cwd: string, _version: string, r: ApprovalRules) => {
      const channel = make();
      channels.push(channel);
      rules.push(r);
      return channel;
    },
  });
  cleanups.push(
    () => controller.dispose(),
    () => rmSync(workspace, { recursive: true, force: true }),
  );
  assert.equal(await controller.start(), true, JSON.stringify(controller.state.core));
  return {
    controller,
    channels,
    rules,
    get channel() {
      return channels[channels.length - 1];
    },
  };
}

const users = (s: SessionState) => s.items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
const notices = (s: SessionState) => s.items.filter((i): i is NoticeItem => i.kind === 'notice');
const lastNotice = (s: SessionState) => notices(s).at(-1)?.text;
/** What the SCV adapter emits when `turn.started` answers our `turn.start` (or the server dequeues the prompt). */
const turnStarted = (text: string) => ({ type: 'client:prompt' as const, text, images: 0 });
const queue = (...ids: string[]) => ({
  type: 'client:server_queue' as const,
  queue: { entries: ids.map((id, n) => ({ id, revision: n + 1, prompt: `prompt ${id}` })), paused: false },
});

describe('SessionController with an SCV channel: handshake', () => {
  test('ready: no list_sessions to a core without sessions, stats asked; the kind and capabilities are in the state', async () => {
    const { controller, channel } = await started();
    assert.deepEqual(channel.sentTypes(), ['stats']);
    assert.equal(controller.state.core.kind, 'scv');
    assert.equal(controller.state.core.status, 'ready');
    assert.equal(controller.state.core.version, '0.3.14');
    assert.deepEqual([...controller.capabilities()].sort(), ['server_queue', 'tool_progress']);
    channel.emit({ type: 'done', run_id: 't1' });
    assert.deepEqual(channel.sentTypes(), ['stats', 'stats'], 'nor after a turn');
  });

  test('a Catalyst core still gets list_sessions after the handshake and after each turn', async () => {
    const { channel } = await started('embedded', () => new FakeChannel([]));
    assert.deepEqual(channel.sentTypes(), ['list_sessions', 'stats']);
    channel.emit({ type: 'done' });
    assert.deepEqual(channel.sentTypes(), ['list_sessions', 'stats', 'list_sessions', 'stats']);
  });

  test("one ApprovalRules for the controller's life: a restarted server gets the same object", async () => {
    const setup = await started();
    setup.controller.sendPrompt('remember me');
    setup.channel.emit(turnStarted('remember me'));
    assert.deepEqual(users(setup.controller.state), ['remember me']);
    await setup.controller.restart();
    assert.equal(
      lastNotice(setup.controller.state),
      'The SCV server was restarted and keeps no conversation across restarts: the model no longer sees the messages above.',
    );
    assert.equal(setup.channels.length, 2);
    assert.equal(setup.rules.length, 2);
    assert.ok(setup.rules[0], 'the rules are passed to spawnCoreChannel');
    assert.equal(setup.rules[0], setup.rules[1]);
  });
});

describe('SessionController with an SCV channel: a crash', () => {
  test('the server is restarted; the notices say the conversation is not resumed, not "resuming the session"', async () => {
    const setup = await started();
    setup.controller.sendPrompt('hello');
    // The prompt is in the transcript only once its turn started (the adapter reports it): then the notice is due.
    setup.channel.emit(turnStarted('hello'));
    assert.deepEqual(users(setup.controller.state), ['hello']);
    const first = setup.channel;
    const back = new Promise<void>((resolve) => {
      const sub = setup.controller.onDidChange((s) => {
        if (s.core.status !== 'ready' || setup.channel === first) return;
        sub.dispose();
        resolve();
      });
    });
    first.crash();
    await back;
    const texts = notices(setup.controller.state).map((n) => n.text);
    assert.deepEqual(texts, [
      'The core stopped unexpectedly (signal SIGKILL). Restarting it (SCV cannot resume the conversation)…',
      'The SCV server was restarted and keeps no conversation across restarts: the model no longer sees the messages above.',
    ]);
    assert.equal(setup.rules[0], setup.rules[1]);
  });
});

describe('SessionController with an SCV channel: prompts', () => {
  test("idle: the prompt goes out as send and is not shown by the controller; the adapter's client:prompt shows it", async () => {
    const { controller, channel } = await started();
    assert.equal(controller.sendPrompt('first'), true);
    assert.deepEqual(channel.sent.at(-1), {
      type: 'send',
      prompt: 'first',
      model: 'scv-model',
      reasoning_effort: 'medium',
      provider: 'scv',
    });
    assert.deepEqual(users(controller.state), [], 'the server decides whether it runs now or waits');
    assert.equal(controller.state.run.status, 'idle');
    assert.equal(controller.state.run.queued, undefined);
    channel.emit(turnStarted('first'));
    assert.deepEqual(users(controller.state), ['first']);
    assert.equal(controller.state.run.status, 'running');
  });

  test('while a run is going: any number of prompts are sent, none shown locally, no one-deep refusal', async () => {
    const { controller, channel } = await started();
    controller.sendPrompt('first');
    channel.emit(turnStarted('first'));
    assert.equal(controller.state.run.status, 'running');
    assert.equal(controller.sendPrompt('second'), true);
    assert.equal(controller.sendPrompt('third'), true);
    assert.deepEqual(users(controller.state), ['first']);
    assert.equal(controller.state.run.queued, undefined);
    assert.deepEqual(notices(controller.state), []);
    assert.deepEqual(
      channel.sent.filter((c) => c.type === 'send').map((c) => (c as { prompt: string }).prompt),
      ['first', 'second', 'third'],
    );
  });

  test('a Catalyst core keeps its one-deep queue: the second queued prompt is refused', async () => {
    const { controller, channel } = await started('embedded', () => new FakeChannel([]));
    controller.sendPrompt('first');
    assert.equal(controller.sendPrompt('queued'), true);
    assert.equal(controller.state.run.queued, 'queued');
    assert.equal(controller.sendPrompt('another'), false);
    assert.match(lastNotice(controller.state) ?? '', /already queued/);
    assert.equal(channel.sent.filter((c) => c.type === 'send').length, 2);
  });

  test("a prompt over the server's limit (UTF-8 bytes) is refused before anything is shown or sent", async () => {
    const { controller, channel } = await started();
    const before = channel.sent.length;
    const wide = 'é'.repeat(MAX_PROMPT_BYTES / 2 + 1); // fewer characters than the limit, more bytes
    assert.equal(controller.sendPrompt(wide), false);
    assert.deepEqual(users(controller.state), []);
    assert.equal(controller.state.run.status, 'idle');
    assert.equal(channel.sent.length, before);
    assert.equal(
      lastNotice(controller.state),
      'This prompt is 262,146 bytes (UTF-8); the SCV server accepts at most 262,144 (256 KiB). Shorten it, or put the text in a file and mention the file.',
    );
    assert.equal(controller.sendPrompt('a'.repeat(MAX_PROMPT_BYTES)), true, 'exactly the limit is fine');
  });

  test("the adapter's client:prompt right after done starts the next turn's user item", async () => {
    const { controller, channel } = await started();
    controller.sendPrompt('first');
    channel.emit(turnStarted('first'));
    controller.sendPrompt('second');
    assert.deepEqual(users(controller.state), ['first']);
    channel.emit({ type: 'delta', text: 'answer one', run_id: 't1' });
    channel.emit({ type: 'done', run_id: 't1' });
    assert.equal(controller.state.run.status, 'idle');
    channel.emit(queue());
    channel.emit({ type: 'client:prompt', text: 'second', images: 0 });
    assert.deepEqual(users(controller.state), ['first', 'second']);
    assert.equal(controller.state.run.status, 'running');
    channel.emit({ type: 'delta', text: 'answer two', run_id: 't2' });
    const assistants = controller.state.items.filter((i) => i.kind === 'assistant');
    assert.deepEqual(
      assistants.map((a) => a.kind === 'assistant' && [a.text, a.runId, a.streaming]),
      [
        ['answer one', 't1', false],
        ['answer two', 't2', true],
      ],
    );
    assert.equal(controller.state.run.runId, 't2');
  });

  test('through the real adapter: a prompt sent while idle shows only when turn.started answers its turn.start, and once', async () => {
    const { controller, channel } = await started('scv', () => new AdapterChannel());
    assert.equal(controller.sendPrompt('hello'), true);
    assert.deepEqual(channel.sentOf('turn.start'), [{ type: 'turn.start', request_id: 'c-3', session_id: SESSION, prompt: 'hello' }]);
    assert.deepEqual(users(controller.state), [], 'nothing shown while the server has not answered');
    assert.equal(controller.state.run.status, 'idle');
    channel.turn('turn.started', 'turn-1', 'c-3');
    assert.deepEqual(users(controller.state), ['hello']);
    assert.equal(controller.state.run.status, 'running');
    channel.turn('assistant.delta', 'turn-1', 'c-3', { content: 'Hi.' });
    channel.turn('assistant.completed', 'turn-1', 'c-3', { content: 'Hi.' });
    channel.turn('turn.completed', 'turn-1', 'c-3', { steps: 1, usage: { input_tokens: 12, output_tokens: 3 } });
    assert.deepEqual(
      controller.state.items.filter((i) => i.kind === 'user' || i.kind === 'assistant').map((i) => i.kind),
      ['user', 'assistant'],
    );
    assert.deepEqual(users(controller.state), ['hello']);
    assert.equal(controller.state.run.status, 'idle');
    assert.equal(controller.state.usage.tokensIn, 12, "done asks stats: tokens_in is the last turn's input_tokens");
    assert.deepEqual(notices(controller.state), []);
  });

  test('through the real adapter: a prompt the server queues while the UI shows idle appears once, when it is dequeued', async () => {
    // The server's queue is paused with an entry waiting: nothing runs, yet a new prompt goes behind that entry.
    const { controller, channel } = await started(
      'scv',
      () => new AdapterChannel({ entries: [{ queue_id: 'q1', revision: 1, prompt: 'queued earlier', submitter: 'x' }], paused: true }),
    );
    assert.equal(controller.state.run.status, 'idle');
    assert.equal(controller.sendPrompt('mine'), true);
    assert.deepEqual(
      channel.sentOf('turn.start').map((m) => m.prompt),
      ['mine'],
    );
    channel.event('queue.enqueued', {
      request_id: 'c-3',
      entry: { queue_id: 'q2', revision: 1, prompt: 'mine', submitter: 'catalyst-vscode' },
      position: 1,
    });
    assert.deepEqual(users(controller.state), [], 'queued: shown only in the queue');
    assert.equal(controller.state.run.status, 'idle');
    assert.equal(controller.state.run.queued, undefined);
    assert.deepEqual(
      controller.state.serverQueue?.entries.map((e) => e.prompt),
      ['queued earlier', 'mine'],
    );

    assert.equal(controller.pauseQueue(false), true);
    assert.deepEqual(
      channel.sentOf('session.pause').map((m) => m.paused),
      [false],
    );
    channel.event('session.paused', { request_id: 'c-4', paused: false });
    channel.event('queue.dequeued', { request_id: 'x-1', queue_id: 'q1', turn_id: 'turn-1' });
    channel.turn('turn.started', 'turn-1', 'x-1');
    assert.deepEqual(users(controller.state), ['queued earlier']);
    channel.turn('turn.completed', 'turn-1', 'x-1', { steps: 1, usage: {} });
    assert.deepEqual(users(controller.state), ['queued earlier'], 'still waiting');

    channel.event('queue.dequeued', { request_id: 'c-3', queue_id: 'q2', turn_id: 'turn-2' });
    assert.deepEqual(users(controller.state), ['queued earlier', 'mine']);
    assert.equal(controller.state.run.status, 'running');
    assert.deepEqual(controller.state.serverQueue?.entries, []);
    channel.turn('turn.started', 'turn-2', 'c-3');
    channel.turn('assistant.delta', 'turn-2', 'c-3', { content: 'Done.' });
    channel.turn('turn.completed', 'turn-2', 'c-3', { steps: 1, usage: {} });
    assert.deepEqual(users(controller.state), ['queued earlier', 'mine'], 'shown once: turn.started after the dequeue adds nothing');
    assert.equal(controller.state.run.status, 'idle');
    assert.deepEqual(notices(controller.state), []);
  });

  test('through the real adapter: a prompt the adapter or the server refuses shows only the error, never the prompt', async () => {
    const { controller, channel } = await started('scv', () => new AdapterChannel());
    assert.equal(controller.sendPrompt('see this', ['data:image/png;base64,AAAA']), false);
    assert.deepEqual(channel.sentOf('turn.start'), []);
    assert.equal(controller.sendPrompt('hi'), true);
    channel.event('error', { request_id: 'c-3', code: 'queue_limit', message: 'the queue is full', fatal: false });
    assert.deepEqual(users(controller.state), []);
    assert.equal(controller.state.run.status, 'idle');
    assert.deepEqual(
      notices(controller.state).map((n) => [n.level, n.text]),
      [
        ['error', 'Images are not available with an SCV server; send the prompt without them'],
        ['error', 'the queue is full'],
      ],
    );
  });
});

describe('SessionController with an SCV channel: the server queue', () => {
  test("edit, move, remove and pause go to the channel's queue control for queued ids", async () => {
    const { controller, channel } = await started();
    channel.emit(queue('q1', 'q2'));
    assert.equal(controller.editQueued('q1', 'new text'), true);
    assert.equal(controller.moveQueued('q2', 'q1'), true);
    assert.equal(controller.moveQueued('q1', null), true);
    assert.equal(controller.removeQueued('q2'), true);
    assert.equal(controller.pauseQueue(true), true);
    assert.deepEqual(channel.queueCalls, [
      ['edit', 'q1', 'new text'],
      ['move', 'q2', 'q1'],
      ['move', 'q1', null],
      ['remove', 'q2'],
      ['pause', true],
    ]);
    assert.deepEqual(notices(controller.state), []);
  });

  test('an id that is not queued (any more) is refused with a notice and nothing is sent', async () => {
    const { controller, channel } = await started();
    channel.emit(queue('q1'));
    assert.equal(controller.editQueued('gone', 'x'), false);
    assert.equal(lastNotice(controller.state), 'That prompt is no longer queued.');
    assert.equal(controller.removeQueued('gone'), false);
    assert.equal(controller.moveQueued('q1', 'gone'), false);
    assert.equal(lastNotice(controller.state), 'That place in the queue is gone; the queue changed meanwhile.');
    assert.equal(controller.editQueued('q1', '   '), false);
    assert.match(lastNotice(controller.state) ?? '', /cannot be empty/);
    assert.equal(controller.editQueued('q1', 'é'.repeat(MAX_PROMPT_BYTES)), false, 'an edit over the prompt limit');
    assert.match(lastNotice(controller.state) ?? '', /accepts at most 262,144 \(256 KiB\)/);
    assert.deepEqual(channel.queueCalls, []);
  });

  test('a core without a server queue refuses every queue intent', async () => {
    const { controller, channel } = await started('embedded', () => new FakeChannel([], { queue: false }));
    channel.emit(queue('q1'));
    for (const attempt of [
      () => controller.editQueued('q1', 'x'),
      () => controller.moveQueued('q1', null),
      () => controller.removeQueued('q1'),
      () => controller.pauseQueue(true),
    ]) {
      assert.equal(attempt(), false);
      assert.equal(lastNotice(controller.state), 'This core has no editable queue.');
    }
  });

  test('a queue control present but not advertised (no server_queue capability) is not used', async () => {
    const { controller, channel } = await started('scv', () => new FakeChannel([]));
    channel.emit(queue('q1'));
    assert.equal(controller.pauseQueue(false), false);
    assert.deepEqual(channel.queueCalls, []);
  });
});

describe('SessionController with an SCV channel: what SCV lacks', () => {
  test('setApprovalMode is refused with what to do instead, and nothing is sent', async () => {
    const { controller, channel } = await started();
    const before = channel.sent.length;
    assert.equal(controller.setApprovalMode('always'), false);
    assert.equal(
      lastNotice(controller.state),
      "SCV's approval policy is fixed when the server starts: set catalystCode.scv.approvalPolicy and restart the core.",
    );
    assert.equal(channel.sent.length, before);
    assert.equal(controller.runSlash('approval', 'never'), false);
  });

  test('steer, undo and the session list are refused locally; New Session clears the conversation', async () => {
    const { controller, channel } = await started();
    const before = channel.sent.length;
    assert.equal(controller.steer('go left'), false);
    assert.equal(lastNotice(controller.state), 'An SCV server does not support steering.');
    assert.equal(controller.undo(), false);
    assert.equal(controller.listSessions(), false);
    assert.equal(channel.sent.length, before);
    assert.equal(controller.newSession(), true);
    assert.deepEqual(channel.sent.at(-1), { type: 'clear' });
  });

  test('an edited proposal is refused with the SCV reason', async () => {
    const { controller, channel } = await started();
    controller.sendPrompt('write it');
    channel.emit({ type: 'tool_call', id: 'c1', name: 'write', args: '{"path":"a.txt","content":"x","mode":"create"}', run_id: 't1' });
    channel.emit({
      type: 'approval_request',
      request_id: 'apv-1',
      tool_call_id: 'c1',
      tool: 'write',
      risk: 'destructive',
      summary: 'Create a.txt (1 bytes)',
      run_id: 't1',
    });
    const approval = controller.state.items.find((i) => i.kind === 'approval');
    assert.equal(approval?.kind === 'approval' && approval.summary, 'Create a.txt (1 bytes)');
    assert.equal(controller.approve('apv-1', 'yes', { editedContent: 'y' }), false);
    assert.equal(
      lastNotice(controller.state),
      'SCV servers accept or reject a proposal as a whole. Accept or reject the proposal as the model wrote it.',
    );
    assert.equal(controller.approve('apv-1', 'yes'), true);
    assert.deepEqual(channel.sent.at(-1), { type: 'approve', request_id: 'apv-1', decision: 'yes' });
  });

  test('a decision the adapter refuses leaves the approval card pending; an accepted one answers it', async () => {
    const { controller, channel } = await started('scv', () => new AdapterChannel());
    controller.sendPrompt('run it');
    channel.turn('turn.started', 'turn-1', 'c-3');
    channel.turn('tool.proposed', 'turn-1', 'c-3', { call_id: 'call-1', name: 'bash', arguments: { command: 'make' } });
    channel.turn('approval.requested', 'turn-1', 'c-3', {
      approval_id: 'ap-1',
      call_id: 'call-1',
      name: 'bash',
      risk: 'process',
      cwd: '/ws',
      summary: 'Run shell command: make',
    });
    const card = () => controller.state.items.find((i) => i.kind === 'approval' && i.id === 'ap-1');
    const asked = card();
    assert.ok(asked?.kind === 'approval');
    assert.equal(asked.state, 'pending');
    assert.equal(controller.approve('ap-1', 'allow_pattern', { pattern: 'make *' }), false);
    const refused = card();
    assert.ok(refused?.kind === 'approval');
    assert.equal(refused.state, 'pending', 'not marked answered: the command was refused');
    assert.equal(lastNotice(controller.state), 'Allowing a command or path pattern is not available with an SCV server');
    assert.deepEqual(channel.sentOf('approval.resolve'), []);
    assert.equal(controller.approve('ap-1', 'yes'), true);
    const answered = card();
    assert.ok(answered?.kind === 'approval');
    assert.equal(answered.state, 'approved');
    assert.deepEqual(channel.sentOf('approval.resolve'), [
      { type: 'approval.resolve', request_id: 'c-4', session_id: SESSION, approval_id: 'ap-1', approved: true },
    ]);
  });
});

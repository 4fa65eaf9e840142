import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from '../../shared/sessionState';
import type { Patch } from '../../shared/statePatch';
import type { ScriptedResponse } from '../../../test/support/scriptedModelServer';
import { RestartPolicy } from '../channel/restartPolicy';
import { ensureCoreBuilt, realCoreEnv, TEST_KEY, TEST_MODEL, type RealCoreEnv } from '../../../test/support/realCoreHarness';
import { SessionController, type SessionControllerOptions } from './sessionController';

interface Harness {
  env: RealCoreEnv;
  controller: SessionController;
  logs: string[];
  patches: Patch[][];
  until(pred: (s: SessionState) => boolean, what: string, timeoutMs?: number): Promise<SessionState>;
}

const open: Harness[] = [];

async function harness(
  script: ScriptedResponse[],
  over: Partial<SessionControllerOptions> = {},
  launchOver: Parameters<RealCoreEnv['launch']>[0] = {},
): Promise<Harness> {
  const env = await realCoreEnv(script);
  const logs: string[] = [];
  const patches: Patch[][] = [];
  const controller = new SessionController({
    launch: env.launch(launchOver),
    sessionsDir: env.sessionsDir,
    clientVersion: '0.1.0-test',
    log: (line) => logs.push(line),
    restartPolicy: new RestartPolicy({ baseDelayMs: 50, maxDelayMs: 200 }),
    handshakeTimeoutMs: 15_000,
    ...over,
  });
  controller.onDidChange((_s, p) => patches.push(p));
  const h: Harness = {
    env,
    controller,
    logs,
    patches,
    until: (pred, what, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        if (pred(controller.state)) return resolve(controller.state);
        const timer = setTimeout(() => {
          sub.dispose();
          reject(
            new Error(
              `timed out waiting for ${what}; state: ${JSON.stringify({ core: controller.state.core, run: controller.state.run, items: controller.state.items }).slice(0, 3000)}\nlog tail:\n${logs.slice(-20).join('\n')}`,
            ),
          );
        }, timeoutMs);
        const sub = controller.onDidChange((s) => {
          if (!pred(s)) return;
          clearTimeout(timer);
          sub.dispose();
          resolve(s);
        });
      }),
  };
  open.push(h);
  return h;
}

const texts = (s: SessionState, kind: 'user' | 'assistant'): string[] => s.items.flatMap((i) => (i.kind === kind ? [i.text] : []));
const idle = (s: SessionState) => s.run.status === 'idle';
const ready = (s: SessionState) => s.core.status === 'ready';

before(() => ensureCoreBuilt());
afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.controller.dispose();
    await h.env.cleanup();
  }
});

describe('SessionController against the real core', () => {
  test('start → ready → send → streamed text in the state → done', async () => {
    const h = await harness([{ steps: [{ text: 'Hello there, ' }, { text: 'how can I help?' }], usage: { prompt: 12, completion: 6 } }]);
    const raw: string[] = [];
    h.controller.onEvent((e) => raw.push(e.type));
    assert.equal(await h.controller.start(), true);
    const s0 = h.controller.state;
    assert.equal(s0.core.status, 'ready');
    assert.equal(typeof s0.core.pid, 'number');
    assert.equal(s0.model, TEST_MODEL);
    assert.ok(h.controller.capabilities().has('approval_edited_content'));
    assert.ok(h.controller.capabilities().has('steer'));
    assert.ok(h.controller.currentSessionFile?.startsWith(h.env.sessionsDir));

    assert.equal(h.controller.sendPrompt('hi'), true);
    assert.deepEqual(texts(h.controller.state, 'user'), ['hi'], 'the prompt shows at once');
    assert.equal(h.controller.state.run.status, 'running');
    const done = await h.until((s) => idle(s) && texts(s, 'assistant').length > 0, 'the answer');
    assert.deepEqual(texts(done, 'assistant'), ['Hello there, how can I help?']);
    assert.equal(
      done.items.find((i) => i.kind === 'assistant' && i.streaming),
      undefined,
    );
    // Streaming arrived as append patches, not whole items.
    assert.ok(h.patches.flat().some((p) => p.op === 'append' && p.field === 'text'));
    const settled = await h.until((s) => s.usage.tokensOut > 0, 'usage');
    assert.equal(settled.usage.tokensIn, 12);
    const request = h.env.model.requests.find((r) => r.method === 'POST');
    assert.equal(request?.body.model, TEST_MODEL);
    assert.ok(existsSync(h.controller.currentSessionFile!), 'the session file was written');
    for (const type of ['ready', 'protocol_hello', 'delta', 'metrics', 'done']) assert.ok(raw.includes(type), `onEvent saw ${type}`);
  });

  test('without any model, sending asks the user to log in', async () => {
    const h = await harness([]);
    h.env.model.setModels([]);
    await h.controller.start();
    assert.equal(h.controller.state.model, undefined);
    assert.equal(h.controller.sendPrompt('hello'), false);
    const notice = h.controller.state.items.at(-1);
    assert.deepEqual(notice?.kind === 'notice' && [notice.level, notice.action], ['error', 'login']);
    assert.equal(texts(h.controller.state, 'user').length, 0);
  });

  test('the core killed mid-turn is restarted, the session resumes, the user is told once, nothing is duplicated', async () => {
    const h = await harness([
      { steps: [{ text: 'First answer.' }] },
      { steps: [{ text: 'Second answer, part one… ' }, { delayMs: 30_000, text: 'never sent' }] },
      { steps: [{ text: 'Third answer.' }] },
    ]);
    await h.controller.start();
    h.controller.sendPrompt('first question');
    await h.until((s) => idle(s) && texts(s, 'assistant').includes('First answer.'), 'the first answer');

    h.controller.sendPrompt('second question');
    const streaming = await h.until((s) => texts(s, 'assistant').some((t) => t.startsWith('Second answer')), 'the partial second answer');
    const pid = streaming.core.pid!;
    process.kill(pid, 'SIGKILL');

    const back = await h.until(
      (s) => ready(s) && s.core.pid !== undefined && s.core.pid !== pid && texts(s, 'assistant').length === 1,
      'the restarted core with its history (the partial answer replaced by the stored conversation)',
    );
    assert.notEqual(back.core.pid, pid);
    assert.deepEqual(texts(back, 'user'), ['first question', 'second question'], 'history restored, no duplicated prompts');
    assert.deepEqual(texts(back, 'assistant'), ['First answer.'], 'the interrupted partial answer is not kept twice or half');
    assert.equal(back.run.status, 'idle');
    const notices = back.items.filter((i) => i.kind === 'notice');
    assert.equal(notices.length, 1, `one notice: ${JSON.stringify(notices)}`);
    assert.match((notices[0] as { text: string }).text, /stopped unexpectedly \(signal SIGKILL\).*resuming the session/);

    h.controller.sendPrompt('third question');
    const after = await h.until((s) => idle(s) && texts(s, 'assistant').includes('Third answer.'), 'the third answer');
    assert.deepEqual(texts(after, 'user'), ['first question', 'second question', 'third question']);
    assert.deepEqual(texts(after, 'assistant'), ['First answer.', 'Third answer.']);
    assert.equal(after.items.filter((i) => i.kind === 'notice').length, 1);
    // The third request carried the whole resumed conversation.
    const lastRequest = h.env.model.requests.filter((r) => r.method === 'POST').pop();
    const userTexts = (lastRequest?.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === 'user')
      .map((m) => JSON.stringify(m.content));
    assert.equal(userTexts.length, 3);
  });

  test('too many crashes: the controller gives up with a crashed status and says so', async () => {
    const h = await harness([], { restartPolicy: new RestartPolicy({ maxRestarts: 1, baseDelayMs: 20 }) });
    await h.controller.start();
    const first = h.controller.state.core.pid;
    assert.equal(typeof first, 'number', JSON.stringify(h.controller.state.core));
    process.kill(first!, 'SIGKILL');
    const second = await h.until((s) => ready(s) && s.core.pid !== undefined && s.core.pid !== first, 'the first restart');
    process.kill(second.core.pid!, 'SIGKILL');
    const crashed = await h.until(
      (s) => s.core.status === 'crashed' && s.items.some((i) => i.kind === 'notice' && i.level === 'error'),
      'giving up',
    );
    assert.match(crashed.core.message ?? '', /crashed too often/);
    const notices = crashed.items.filter((i) => i.kind === 'notice');
    assert.equal(notices.length, 2, 'one restart notice for the incident, one when giving up');
    assert.equal((notices[1] as { action?: string }).action, 'restartCore');
    assert.equal(await h.controller.restart(), true, 'the user can restart it');
    assert.equal(h.controller.state.core.status, 'ready');
  });

  test('sudoReply: the password reaches the core only, never the state, patches or log', async () => {
    const password = 'hunter2-PASSWORDMARKER';
    const h = await harness(
      [{ steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'echo sudo done' } } }] }, { steps: [{ text: 'ran it' }] }],
      {},
      { approval: 'never' },
    );
    await h.controller.start();
    h.controller.sendPrompt('run it with sudo');
    const asking = await h.until((s) => s.items.some((i) => i.kind === 'sudo' && i.state === 'pending'), 'the sudo request');
    assert.equal(asking.run.status, 'waiting_input');
    const sudo = asking.items.find((i) => i.kind === 'sudo')!;
    assert.equal(h.controller.sudoReply(sudo.id, true, password), true);
    const done = await h.until((s) => idle(s) && texts(s, 'assistant').includes('ran it'), 'the end of the turn');
    const card = done.items.find((i) => i.kind === 'tool' && i.id === 'b1');
    assert.equal(card?.kind === 'tool' && card.status, 'success');
    assert.ok(h.logs.includes('→ sudo_reply'));
    const everything = JSON.stringify(done) + JSON.stringify(h.patches) + h.logs.join('\n');
    assert.ok(!everything.includes(password), 'the password leaked');
    assert.ok(!everything.includes(TEST_KEY), 'the API key leaked');
    assert.equal(h.controller.sudoReply(sudo.id, true, password), false, 'a second answer is refused locally');
  });

  test('approvals: the card carries the full args, approve sends the decision, a stale id is refused locally', async () => {
    const content = 'line\n'.repeat(600);
    const h = await harness([
      { steps: [{ toolCall: { id: 'w1', name: 'write_file', arguments: { path: 'src/new.txt', content } } }] },
      { steps: [{ text: 'written' }] },
    ]);
    await h.controller.start();
    h.controller.sendPrompt('write a file');
    const waiting = await h.until((s) => s.run.status === 'waiting_approval', 'the approval request');
    const approval = waiting.items.find((i) => i.kind === 'approval')!;
    assert.ok(approval.kind === 'approval');
    assert.equal(JSON.parse(approval.args).content, content, 'the full args, not the 2000-char preview');
    assert.equal(approval.suggestedPattern, 'src/**');
    assert.ok(approval.diff?.includes('+++ b/src/new.txt'));
    assert.equal(h.controller.approve('apv-unknown', 'yes'), false);
    assert.equal(h.controller.approve(approval.id, 'yes'), true);
    const done = await h.until((s) => idle(s) && texts(s, 'assistant').includes('written'), 'the end of the turn');
    assert.equal(readFileSync(join(h.env.workspace, 'src/new.txt'), 'utf8'), content);
    const card = done.items.find((i) => i.kind === 'tool' && i.id === 'w1');
    assert.deepEqual(card?.kind === 'tool' && [card.status, card.files], ['success', ['src/new.txt']]);
    assert.equal(h.controller.approve(approval.id, 'yes'), false, 'answering twice is refused locally');
    const refusal = h.controller.state.items[h.controller.state.items.length - 1];
    assert.equal(refusal.kind === 'notice' && refusal.text, 'That approval is no longer pending.');
  });

  test('restart() resumes the same session file; new_session is followed', async () => {
    const h = await harness([{ steps: [{ text: 'remembered' }] }]);
    await h.controller.start();
    const file = h.controller.currentSessionFile;
    h.controller.sendPrompt('remember this');
    await h.until((s) => idle(s) && texts(s, 'assistant').includes('remembered'), 'the answer');
    assert.equal(await h.controller.restart(), true);
    const resumed = await h.until(
      (s) => ready(s) && texts(s, 'user').length === 1 && texts(s, 'assistant').length === 1,
      'the resumed history',
    );
    assert.equal(h.controller.currentSessionFile, file);
    assert.deepEqual(texts(resumed, 'user'), ['remember this']);
    assert.ok(!resumed.items.some((i) => i.kind === 'notice' && i.level !== 'info'), 'a user restart is no incident');

    h.controller.newSession();
    const fresh = await h.until((s) => s.sessionFile !== file && s.items.every((i) => i.kind === 'notice'), 'the new session');
    assert.notEqual(h.controller.currentSessionFile, file);
    assert.equal(fresh.sessionFile, h.controller.currentSessionFile);
    assert.match(h.controller.currentSessionFile!, /\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_\d{9}\.jsonl$/);
    const listed = await h.until((s) => s.sessions.length === 2, 'both sessions listed');
    assert.ok(listed.sessions.some((v) => v.path === file));
  });

  test('a core that cannot be resolved ends as crashed with what to do, without throwing', async () => {
    const h = await harness([], {}, { kind: 'catalyst', env: { PATH: '/nonexistent' } });
    assert.equal(await h.controller.start(), false);
    const s = h.controller.state;
    assert.equal(s.core.status, 'crashed');
    assert.match(s.core.message ?? '', /no catcode-core found/);
    const notice = s.items[s.items.length - 1];
    assert.equal(notice.kind === 'notice' && notice.action, 'openSettings');
    assert.equal(h.controller.sendPrompt('hello'), false, 'intents are refused while the core is down');
  });

  test('intents validate: slash commands, unknown models, a second queued prompt refused', async () => {
    const h = await harness([{ steps: [{ text: 'slow ' }, { delayMs: 2000, text: 'answer' }] }, { steps: [{ text: 'queued answer' }] }]);
    await h.controller.start();
    h.controller.runSlash('frobnicate', '');
    assert.match((h.controller.state.items.at(-1) as { text: string }).text, /Unknown command/);
    assert.equal(h.controller.setModel('nope'), false);
    h.controller.sendPrompt('first');
    await h.until((s) => texts(s, 'assistant').length > 0, 'streaming');
    assert.equal(h.controller.sendPrompt('queued one'), true);
    assert.equal(h.controller.state.run.queued, 'queued one');
    assert.equal(h.controller.sendPrompt('queued two'), false);
    const done = await h.until((s) => idle(s) && texts(s, 'assistant').includes('queued answer'), 'the queued turn');
    assert.deepEqual(texts(done, 'user'), ['first', 'queued one']);
    assert.equal(done.run.queued, undefined);
    assert.equal(h.controller.runSlash('approval', 'never'), true);
    await h.until((s) => s.approvalMode === 'never', 'the approval mode');
  });
});

describe('SessionController: subagents over the real core', () => {
  test("a child's intercom question is answered through intercomReply: intercom_reply reaches the child, the card says answered", async () => {
    const h = await harness(
      [
        {
          steps: [
            {
              toolCall: {
                id: 'call_sub_1',
                name: 'subagent',
                arguments: { agent: 'worker', task: '[child-Q] pick the file', context: 'fresh' },
              },
            },
          ],
        },
        { steps: [{ text: 'The worker used b.ts.' }] },
      ],
      {},
      { approval: 'never' },
    );
    h.env.model.route(
      '[child-Q]',
      {
        steps: [
          {
            toolCall: {
              id: 'call_1',
              name: 'contact_supervisor',
              arguments: { reason: 'need_decision', message: 'Which file, a.ts or b.ts?' },
            },
          },
        ],
      },
      { steps: [{ text: 'Using b.ts.' }] },
    );
    const raw: string[] = [];
    h.controller.onEvent((e) => raw.push(e.type));
    await h.controller.start();
    assert.ok(h.controller.capabilities().has('subagents'), 'the core announces subagents');
    assert.equal(h.controller.sendPrompt('have a worker pick the file'), true);
    const asking = await h.until((s) => s.items.some((i) => i.kind === 'intercom' && i.state === 'pending'), 'the question');
    const question = asking.items.find((i) => i.kind === 'intercom')!;
    assert.ok(question.kind === 'intercom', 'an intercom card');
    assert.deepEqual([question.message, question.agent, question.reason], ['Which file, a.ts or b.ts?', 'worker', 'need_decision']);
    assert.equal(asking.run.status, 'waiting_input');
    const child = asking.items.find((i) => i.kind === 'subagent' && i.id === question.childRunId);
    assert.ok(child?.kind === 'subagent', 'the asking child has a row');
    assert.deepEqual([child.parentToolCallId, child.state, child.runId], ['call_sub_1', 'running', asking.run.runId]);

    assert.equal(h.controller.intercomReply(question.id, '   '), false, 'an empty reply is refused locally');
    assert.equal(h.controller.intercomReply(question.id, 'b.ts'), true);
    const done = await h.until((s) => idle(s) && texts(s, 'assistant').includes('The worker used b.ts.'), 'the end of the turn');
    const answered = done.items.find((i) => i.kind === 'intercom' && i.id === question.id);
    assert.deepEqual(answered?.kind === 'intercom' && [answered.state, answered.reply], ['answered', 'b.ts']);
    const asked = done.items.find((i) => i.kind === 'tool' && i.childRunId === child.id && i.name === 'contact_supervisor');
    assert.deepEqual(asked?.kind === 'tool' && [asked.status, asked.output], ['success', 'b.ts']);
    const finished = done.items.find((i) => i.kind === 'subagent' && i.id === child.id);
    assert.equal(finished?.kind === 'subagent' && finished.state, 'completed', raw.join(' '));
    // The child's second request carried the reply as contact_supervisor's result.
    assert.match(JSON.stringify(h.env.model.requestsFor('[child-Q]')[1]?.body.messages), /b\.ts/);
    assert.ok(
      h.logs.some((l) => l.startsWith('→ {"type":"intercom_reply","request_id":')),
      'the command went to the core',
    );
    assert.equal(h.controller.intercomReply(question.id, 'again'), false, 'a second answer is refused locally');
  });

  test("/agents lists the core's agents as a notice; fetchAgents gives them to the picker", async () => {
    const h = await harness([]);
    await h.controller.start();
    const agents = await h.controller.fetchAgents();
    const worker = agents?.find((a) => a.name === 'worker');
    assert.ok(worker?.source && worker.description, `worker listed with its source: ${JSON.stringify(agents)}`);
    assert.equal(h.controller.runSlash('agents', ''), true);
    const listed = await h.until((s) => s.items.some((i) => i.kind === 'notice' && i.text.startsWith('Agents:')), 'the agents notice');
    const notice = listed.items.find((i) => i.kind === 'notice' && i.text.startsWith('Agents:'));
    const lines = notice?.kind === 'notice' ? notice.text.split('\n') : [];
    assert.ok(lines.includes(`worker (${worker.source}) — ${worker.description}`), lines.join('\n'));
    assert.equal(lines.length, 1 + agents!.length);
  });

  test("Run Subagent sends upstream's wording as the prompt", async () => {
    const h = await harness([{ steps: [{ text: 'ok' }] }]);
    await h.controller.start();
    assert.equal(h.controller.runSubagent('scout', 'map the src folder'), true);
    await h.until((s) => idle(s) && texts(s, 'assistant').includes('ok'), 'the answer');
    assert.deepEqual(texts(h.controller.state, 'user'), [
      'Run the subagent tool: agent="scout", task="map the src folder". Return its result.',
    ]);
  });
});

after(async () => {
  for (const h of open.splice(0)) {
    await h.controller.dispose();
    await h.env.cleanup();
  }
});

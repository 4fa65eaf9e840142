import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_KEY, TEST_MODEL } from '../support/coreScenario';

/** A provider whose model has a 20k window: upstream's kept tail is then the last six messages and older ones up to 6000 tokens. */
const smallWindow = (url: string) => [
  { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: [{ id: TEST_MODEL, context_window: 20_000 }] },
];
const BIG_ANSWER = 'x'.repeat(30_000);

function sessionMessages(workspace: string): unknown[] {
  return readFileSync(join(workspace, 's.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.role)
    .map((m) => m.content);
}

test('compact on a two-turn conversation makes no model request and leaves the context as it is', async () => {
  const s = await startScenario({
    args: ['--session', 's.jsonl'],
    script: [
      { steps: [{ text: 'answer one' }] },
      { steps: [{ text: 'answer two' }] },
      { steps: [{ text: 'a summary longer than the whole conversation it would replace' }] },
    ],
  });
  try {
    await s.turn('question one');
    await s.turn('question two');
    const requests = s.model.requests.length;
    const from = s.core.events.length;
    s.core.send({ type: 'compact' });
    const compacted = await s.core.waitForType('compacted', { from });
    assert.equal(s.model.requests.length, requests, 'the kept tail is the whole conversation: nothing to summarize');
    const compacting = s.core.ofType('compacting', from)[0];
    assert.equal(compacting.trigger, 'manual');
    assert.ok(compacting.hard_limit_tokens > 0 && compacting.context_window > compacting.hard_limit_tokens);
    assert.deepEqual([compacted.summary_chars, compacted.after_tokens, compacted.within_limit], [0, compacted.before_tokens, true]);
    assert.deepEqual([compacted.context_window, compacted.hard_limit_tokens], [compacting.context_window, compacting.hard_limit_tokens]);
    assert.deepEqual(sessionMessages(s.core.workspace), ['question one', 'answer one', 'question two', 'answer two']);
  } finally {
    await s.close();
  }
});

test('compact: the model summarizes the turns before the kept tail, which the summary replaces in the conversation', async () => {
  const answers = [BIG_ANSWER, 'answer two', 'answer three', 'answer four'].map((text) => ({ steps: [{ text }] }));
  const s = await startScenario({
    args: ['--session', 's.jsonl'],
    providers: smallWindow,
    script: [...answers, { steps: [{ text: '- the user asked four things' }] }],
  });
  try {
    for (const q of ['question one', 'question two', 'question three', 'question four']) await s.turn(q);
    const from = s.core.events.length;
    s.core.send({ type: 'compact', instructions: 'keep it short' });
    const compacted = await s.core.waitForType('compacted', { from });
    assert.equal(s.core.ofType('compacting', from)[0].trigger, 'manual');
    assert.ok(compacted.after_tokens < compacted.before_tokens && compacted.summary_chars === '- the user asked four things'.length);
    const summaryReq = s.model.requests.at(-1)!.body;
    assert.deepEqual(
      summaryReq.messages.slice(1, -1).map((m: any) => m.content),
      ['question one', BIG_ANSWER],
      'only what lies before the kept tail',
    );
    assert.match(summaryReq.messages.at(-1).content, /Summarize[\s\S]*keep it short/);
    assert.deepEqual(sessionMessages(s.core.workspace), [
      '[Summary of the earlier conversation]\n- the user asked four things',
      'Understood; I will continue from this summary.',
      'question two',
      'answer two',
      'question three',
      'answer three',
      'question four',
      'answer four',
    ]);
  } finally {
    await s.close();
  }
});

test('compact never grows the context: a summary larger than what it replaces is dropped', async () => {
  const answers = [BIG_ANSWER, 'answer two', 'answer three', 'answer four'].map((text) => ({ steps: [{ text }] }));
  const s = await startScenario({
    args: ['--session', 's.jsonl'],
    providers: smallWindow,
    script: [...answers, { steps: [{ text: 'y'.repeat(40_000) }] }],
  });
  try {
    for (const q of ['question one', 'question two', 'question three', 'question four']) await s.turn(q);
    const from = s.core.events.length;
    s.core.send({ type: 'compact' });
    const compacted = await s.core.waitForType('compacted', { from });
    assert.deepEqual([compacted.summary_chars, compacted.after_tokens], [0, compacted.before_tokens]);
    assert.deepEqual(sessionMessages(s.core.workspace), [
      'question one',
      BIG_ANSWER,
      'question two',
      'answer two',
      'question three',
      'answer three',
      'question four',
      'answer four',
    ]);
  } finally {
    await s.close();
  }
});

test('auto-compaction runs before a turn when the context is nearly full', async () => {
  const s = await startScenario({
    script: [{ steps: [{ text: 'x'.repeat(4000) }] }, { steps: [{ text: 'short summary' }] }, { steps: [{ text: 'fresh answer' }] }],
  });
  try {
    s.core.send({
      type: 'add_custom_provider',
      name: 'tiny',
      base_url: s.model.url,
      api_key: 'sk-tiny-key-0123456789',
      models_override: [{ id: TEST_MODEL, context_window: 1000 }],
    });
    await s.core.waitFor((e) => e.type === 'provider_changed' && e.provider === 'tiny');
    await s.turn('first');
    const events = await s.turn('second');
    const compacting = events.find((e) => e.type === 'compacting');
    assert.equal(compacting?.trigger, 'auto');
    assert.equal(compacting?.hard_limit_tokens, 900, 'the window minus the answer reserve (a tenth of 1000)');
    assert.ok(events.some((e) => e.type === 'compacted'));
    assert.equal(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'fresh answer',
    );
    const last = s.model.requests.at(-1)!.body.messages;
    assert.match(last[1].content, /short summary/);
  } finally {
    await s.close();
  }
});

test('user_bash runs in the workspace; its output joins the context unless excluded', async () => {
  const s = await startScenario({ files: { 'marker.txt': 'hello from the workspace\n' }, script: [{ steps: [{ text: 'seen' }] }] });
  try {
    let from = s.core.events.length;
    s.core.send({ type: 'user_bash', command: 'cat marker.txt' });
    const run = await s.core.waitForType('bash_execution', { from });
    assert.deepEqual(
      [run.ok, run.output, run.exclude_from_context],
      [true, 'hello from the workspace\n', false],
      'the output as printed, trailing newline kept',
    );
    from = s.core.events.length;
    s.core.send({ type: 'user_bash', command: 'echo hidden-output', exclude_from_context: true });
    await s.core.waitForType('bash_execution', { from });
    await s.turn('what did I run?');
    const sent = JSON.stringify(s.model.requests.at(-1)!.body.messages);
    assert.ok(sent.includes('hello from the workspace'));
    assert.ok(!sent.includes('hidden-output'));
  } finally {
    await s.close();
  }
});

test('ask tool: ask_request, ask_reply answers reach the model', async () => {
  const s = await startScenario({
    script: [
      {
        steps: [
          {
            toolCall: {
              id: 'a1',
              name: 'ask',
              arguments: { questions: [{ id: 'q1', prompt: 'Which runtime?', type: 'select', options: ['tokio', 'smol'] }] },
            },
          },
        ],
      },
      { steps: [{ text: 'using tokio' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'pick', model: TEST_MODEL });
    const ask = await s.core.waitForType('ask_request', { from });
    assert.match(ask.request_id, /^ask-\d+$/);
    assert.equal(ask.questions[0].prompt, 'Which runtime?');
    s.core.send({ type: 'ask_reply', request_id: ask.request_id, answers: { q1: 'tokio' } });
    await s.core.waitForType('done', { from });
    assert.match(s.model.requests.at(-1)!.body.messages.at(-1).content, /tokio/);
  } finally {
    await s.close();
  }
});

test('sudo in a bash command raises sudo_request; a refusal denies it and the password field never echoes', async () => {
  const s = await startScenario({
    approval: 'never',
    script: [{ steps: [{ toolCall: { id: 'b1', name: 'bash', arguments: { command: 'sudo true' } } }] }, { steps: [{ text: 'ok' }] }],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'install', model: TEST_MODEL });
    const req = await s.core.waitForType('sudo_request', { from });
    assert.equal(req.command, 'sudo true');
    s.core.send({ type: 'sudo_reply', request_id: req.request_id, approved: false, password: 'hunter2-SECRETMARKER' });
    await s.core.waitForType('done', { from });
    assert.equal(s.core.ofType('tool_result', from)[0].status, 'denied');
    assert.ok(!s.core.rawStdout.join('\n').includes('hunter2'));
  } finally {
    await s.close();
  }
});

test('memory, stats, context, approval mode, config and runtime status commands', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'remembered' }], usage: { prompt: 50, completion: 5 } }] });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'save_memory', text: '  The user prefers tabs ', tags: ['style'] });
    const saved = await s.core.waitForType('memory_saved', { from });
    assert.equal(saved.text, 'The user prefers tabs', 'the answer echoes the note as saved (the chat confirms with it)');
    s.core.send({ type: 'list_memory' });
    const list = await s.core.waitForType('memory_list', { from });
    assert.equal(list.count, 1);
    await s.turn('hi');
    assert.match(s.model.requests.at(-1)!.body.messages[0].content, /The user prefers tabs/);
    s.core.send({ type: 'forget_memory', id: saved.id });
    await s.core.waitFor((e) => e.type === 'memory_saved' && e.message === 'memory forgotten', { from });
    s.core.send({ type: 'stats' });
    const stats = await s.core.waitForType('stats', { from });
    assert.deepEqual([stats.total_in, stats.tokens_out, stats.turns, stats.messages], [50, 5, 1, 2]);
    assert.equal(stats.session_file, '', 'no session file: an empty string, as upstream sends it');
    s.core.send({ type: 'context' });
    const ctx = await s.core.waitForType('context_breakdown', { from });
    assert.ok(ctx.total_tokens > 0 && ctx.by_role.user > 0 && ctx.top_consumers.length === 2);
    s.core.send({ type: 'set_approval', mode: 'always' });
    assert.equal((await s.core.waitForType('approval_changed', { from })).mode, 'always');
    s.core.send({ type: 'set_config', key: 'bash_timeout_secs', value: 45 });
    assert.deepEqual(await s.core.waitForType('config_changed', { from }).then((e) => [e.key, e.value]), ['bash_timeout_secs', 45]);
    s.core.send({ type: 'list_provider_presets' });
    const presets = await s.core.waitForType('provider_presets', { from });
    assert.deepEqual(
      presets.presets.map((p: any) => p.id),
      ['umans', 'opencode-go', 'openrouter', 'deepseek'],
    );
  } finally {
    await s.close();
  }
});

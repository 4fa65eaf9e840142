// A child's own context over stdio (issue #14, research §1.5 steps 3-4): past the digest threshold its large tool
// results become notes (digested, scope "subagent"); a child that outgrows a small window with its own words compacts
// its history (compacting/compacted, scope "subagent", the child's run_id) and goes on; one still too large after
// compaction fails with upstream's message instead of sending a request the model would refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoreEvent } from '../support/coreProcess';
import { startScenario, TEST_KEY, TEST_MODEL, type Scenario } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const PARENT_CALL = 'call_ctx';
const SCENARIO = { timeout: 60_000 };
/** Threshold and hard limit are both 3600 tokens (a tenth of the window is the answer's reserve). */
const WINDOW = 4000;
/** The summary request's last user message: the compaction's prompt, routed by its opening words. */
const SUMMARY_ROUTE = 'Summarize the conversation so far';
/** About 2900 tokens of file: one read takes the child past the digest threshold (2800), not the compaction one. */
const BIG_FILE = Array.from({ length: 110 }, (_, i) => `line ${i} ${'lorem ipsum '.repeat(8)}`).join('\n');
/** About 2000 tokens of the child's own words a round: two rounds take it past the compaction threshold. */
const NOTES = 'note '.repeat(1600);

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const READER = ['---', 'name: reader', 'description: reads files', 'tools: read_file', '---', 'You read files.'].join('\n');

function scenario(routes: Record<string, ScriptedResponse[]>, task: string): Promise<Scenario> {
  return startScenario({
    approval: 'never',
    files: { '.catalyst-code/agents/reader.md': READER, 'big.txt': BIG_FILE, 'small.txt': 'small\n' },
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: [{ id: TEST_MODEL, context_window: WINDOW }] },
    ],
    script: [calls(PARENT_CALL, 'subagent', { agent: 'reader', task }), says('Parent done.')],
    routes,
  });
}

async function turn(s: Scenario): Promise<CoreEvent[]> {
  const from = s.core.events.length;
  s.core.send({ type: 'send', prompt: 'Delegate the read.', model: TEST_MODEL });
  await s.core.waitForType('done', { from, timeoutMs: 30_000 });
  return s.core.answerSince(from);
}

/** Two rounds of long notes, each with a small read: what no digest shortens. */
const notesRounds = (): ScriptedResponse[] =>
  [1, 2].map((i) => ({
    steps: [{ text: `${i} ${NOTES}` }, { toolCall: { id: `call_n${i}`, name: 'read_file', arguments: { path: 'small.txt' } } }],
  }));

const parentResult = (events: CoreEvent[]) => events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL);

test('a child past its digest threshold sees a note instead of its stale large result, and is not compacted', SCENARIO, async () => {
  const s = await scenario(
    { '[ctx-digest]': [calls('call_r1', 'read_file', { path: 'big.txt' }), says('child finished')] },
    '[ctx-digest] read big.txt',
  );
  try {
    const events = await turn(s);
    const childId = events.find((e) => e.type === 'subagent_start')!.run_id;
    const digested = events.find((e) => e.type === 'digested');
    assert.deepEqual(
      [digested?.scope, digested?.run_id, digested?.trigger, digested?.results, digested?.threshold_tokens],
      ['subagent', childId, 'pressure', 1, 2800],
    );
    assert.ok(digested!.after_tokens < digested!.before_tokens);
    assert.ok(!events.some((e) => e.type === 'compacting' || e.type === 'compacted'));
    const second = JSON.stringify(s.model.requestsFor('[ctx-digest]')[1].body.messages);
    assert.ok(second.includes('[digested: read_file') && !second.includes('line 109'), 'the read is a note in the next request');
    assert.match(String(parentResult(events)?.output), /child finished/);
  } finally {
    await s.close();
  }
});

test('a child past its compaction threshold summarizes its history and goes on with its task', SCENARIO, async () => {
  const s = await scenario(
    {
      '[ctx-fits]': [...notesRounds(), says('child finished')],
      [SUMMARY_ROUTE]: [says('- the child read big.txt')],
    },
    '[ctx-fits] take notes',
  );
  try {
    const events = await turn(s);
    const childId = events.find((e) => e.type === 'subagent_start')!.run_id;
    const compacting = events.find((e) => e.type === 'compacting');
    const compacted = events.find((e) => e.type === 'compacted');
    assert.deepEqual(
      [compacting?.scope, compacting?.run_id, compacting?.trigger, compacting?.hard_limit_tokens],
      ['subagent', childId, 'auto', 3600],
    );
    assert.deepEqual([compacted?.scope, compacted?.run_id, compacted?.within_limit], ['subagent', childId, true]);
    assert.ok(compacted!.after_tokens < compacted!.before_tokens && compacted!.summary_chars === '- the child read big.txt'.length);
    assert.ok(
      events.indexOf(compacting!) > events.findIndex((e) => e.type === 'subagent_tool_result'),
      'the compaction comes before the round after the reads',
    );

    const childRequests = s.model.requestsFor('[ctx-fits]');
    assert.equal(childRequests.length, 3);
    const last = JSON.stringify(childRequests[2].body.messages);
    assert.ok(last.includes('- the child read big.txt') && !last.includes('note note'), 'the summary replaced the notes');
    assert.equal(s.model.requestsFor(SUMMARY_ROUTE).length, 1);
    assert.equal(events.find((e) => e.type === 'subagent_done')?.state, 'completed');
    assert.match(String(parentResult(events)?.output), /child finished/);
  } finally {
    await s.close();
  }
});

test('a child still over the hard limit after compaction fails with upstream message', SCENARIO, async () => {
  const s = await scenario(
    {
      '[ctx-big]': [...notesRounds(), says('never asked')],
      // A summary longer than what it replaces is dropped: the context stays as it was.
      [SUMMARY_ROUTE]: [says('summary '.repeat(4000))],
    },
    '[ctx-big] take notes',
  );
  try {
    const events = await turn(s);
    const compacted = events.find((e) => e.type === 'compacted');
    assert.deepEqual([compacted?.scope, compacted?.within_limit, compacted?.summary_chars], ['subagent', false, 0]);
    const done = events.find((e) => e.type === 'subagent_done');
    assert.equal(done?.state, 'failed');
    const output = String(parentResult(events)?.output);
    assert.match(
      output,
      /^subagent context remains too large after compaction \(\d+ > safe limit 3600\); split the task or reduce oversized input/,
    );
    assert.equal(s.model.requestsFor('[ctx-big]').length, 2, 'no request is sent past the hard limit');
  } finally {
    await s.close();
  }
});

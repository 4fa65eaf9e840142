// A child's own context over stdio (issue #14, research §1.5 step 4): a child that outgrows a small window compacts its
// history (compacting/compacted with scope "subagent" and the child's run_id) and goes on; one still too large after
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
/** About 3800 tokens of file: one read fills the child's window past its threshold. */
const BIG_FILE = Array.from({ length: 150 }, (_, i) => `line ${i} ${'lorem ipsum '.repeat(8)}`).join('\n');

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const READER = ['---', 'name: reader', 'description: reads files', 'tools: read_file', '---', 'You read files.'].join('\n');

function scenario(routes: Record<string, ScriptedResponse[]>, task: string): Promise<Scenario> {
  return startScenario({
    approval: 'never',
    files: { '.catalyst-code/agents/reader.md': READER, 'big.txt': BIG_FILE },
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
  return s.core.events.slice(from);
}

const parentResult = (events: CoreEvent[]) => events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL);

test('a child past its compaction threshold summarizes its history and goes on with its task', SCENARIO, async () => {
  const s = await scenario(
    {
      '[ctx-fits]': [calls('call_r1', 'read_file', { path: 'big.txt' }), says('child finished')],
      [SUMMARY_ROUTE]: [says('- the child read big.txt')],
    },
    '[ctx-fits] read big.txt',
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
      'the compaction comes before the round after the read',
    );

    const childRequests = s.model.requestsFor('[ctx-fits]');
    assert.equal(childRequests.length, 2);
    const last = JSON.stringify(childRequests[1].body.messages);
    assert.ok(last.includes('- the child read big.txt') && !last.includes('line 149'), 'the summary replaced the read');
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
      '[ctx-big]': [calls('call_r1', 'read_file', { path: 'big.txt' }), says('never asked')],
      // A summary longer than what it replaces is dropped: the context stays as it was.
      [SUMMARY_ROUTE]: [says('summary '.repeat(4000))],
    },
    '[ctx-big] read big.txt',
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
    assert.equal(s.model.requestsFor('[ctx-big]').length, 1, 'no request is sent past the hard limit');
  } finally {
    await s.close();
  }
});

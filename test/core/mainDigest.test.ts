// The main loop's pressure digest over stdio (research §12.3): before a request past DIGEST_AT of the window, stale
// large tool results become one-line notes in the conversation and the session file; `digested` has no scope and
// carries utilization_pct. auto_compact off turns it off, as every automatic history rewrite, and so does
// context_digest_at 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_KEY, TEST_MODEL, type Scenario } from '../support/coreScenario';

/** Digest threshold 2800 tokens, compaction 3600. */
const WINDOW = 4000;
/** About 2900 tokens: one read takes the turn past the digest threshold, not the compaction one. */
const BIG_FILE = Array.from({ length: 110 }, (_, i) => `line ${i} ${'lorem ipsum '.repeat(8)}`).join('\n');
const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');

function scenario(config: Record<string, unknown> = {}): Promise<Scenario> {
  return startScenario({
    approval: 'never',
    args: ['--session', 'sess.jsonl'],
    config,
    files: { 'big.txt': BIG_FILE },
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: [{ id: TEST_MODEL, context_window: WINDOW }] },
    ],
    script: [
      { steps: [{ toolCall: { id: 'r1', name: 'read_file', arguments: { path: 'big.txt' } } }] },
      { steps: [{ text: 'It is lorem ipsum.' }] },
    ],
  });
}

test('past the digest threshold the main loop turns the stale big result into a note before the next request', async () => {
  const s = await scenario();
  try {
    const events = await s.turn('what is in big.txt?');
    const digested = events.filter((e) => e.type === 'digested');
    assert.equal(digested.length, 1);
    const d = digested[0];
    assert.equal('scope' in d, false, 'the main loop sends no scope');
    assert.deepEqual(
      [d.trigger, d.results, d.context_window, d.threshold_tokens, d.hard_limit_tokens],
      ['pressure', 1, WINDOW, 2800, 3600],
    );
    assert.ok(d.before_tokens > 2800 && d.after_tokens < d.before_tokens);
    assert.equal(d.utilization_pct, Math.round((d.before_tokens / WINDOW) * 1000) / 10);
    assert.equal(typeof d.run_id, 'string', 'emitted in the turn');
    assert.ok(events.indexOf(d) > events.findIndex((e) => e.type === 'tool_result'));
    assert.ok(!events.some((e) => e.type === 'compacting'));

    const second = JSON.stringify(chatRequests(s)[1].body.messages);
    assert.ok(second.includes('[digested: read_file') && !second.includes('line 109'), 'the next request carries the note');
    const stored = readFileSync(join(s.core.workspace, 'sess.jsonl'), 'utf8');
    assert.ok(stored.includes('[digested: read_file') && !stored.includes('line 109'), 'the session file too');
  } finally {
    await s.close();
  }
});

for (const [what, config] of [
  ['auto_compact off', { auto_compact: false }],
  ['context_digest_at 0', { context_digest_at: 0 }],
] as const) {
  test(`with ${what} nothing is digested`, async () => {
    const s = await scenario(config);
    try {
      const events = await s.turn('what is in big.txt?');
      assert.equal(events.at(-1).type, 'done');
      assert.deepEqual(
        events.filter((e) => e.type === 'digested'),
        [],
      );
      assert.ok(JSON.stringify(chatRequests(s)[1].body.messages).includes('line 109'));
    } finally {
      await s.close();
    }
  });
}

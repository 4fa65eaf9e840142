import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, type Scenario } from '../support/coreScenario';

const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');
const read = (id: string, args: Record<string, unknown>) => ({ steps: [{ toolCall: { id, name: 'read_file', arguments: args } }] });
const nudgesIn = (messages: any[]) => messages.filter((m) => m.role === 'system' && /without changing any file/.test(m.content));

test('stuck_nudge: the same read_file 3 times in a row nudges the model, then after 5 more; the turn goes on', async () => {
  const s = await startScenario({
    approval: 'never',
    args: ['--session', 'sess.jsonl'],
    files: { 'notes.txt': 'one\ntwo\nthree\n' },
    script: [
      read('r1', { path: 'notes.txt' }),
      // Another offset on the same path is the same call: the key argument is the path.
      read('r2', { path: 'notes.txt', offset: 2 }),
      read('r3', { path: 'notes.txt', limit: 1 }),
      ...['r4', 'r5', 'r6', 'r7', 'r8'].map((id) => read(id, { path: 'notes.txt' })),
      { steps: [{ text: 'The notes have three lines.' }] },
    ],
  });
  try {
    const events = await s.turn('what is in notes.txt?');
    const order = events.filter((e) => e.type === 'tool_result' || e.type === 'stuck_nudge').map((e) => e.id ?? e.type);
    assert.deepEqual(order, ['r1', 'r2', 'r3', 'stuck_nudge', 'r4', 'r5', 'r6', 'r7', 'r8', 'stuck_nudge']);
    const [first, second] = events.filter((e) => e.type === 'stuck_nudge');
    assert.match(first.message, /^You have called `read_file` on notes\.txt 3 times in a row without changing any file/);
    assert.match(second.message, /5 times in a row/);
    assert.equal(typeof first.run_id, 'string', 'emitted in the turn');
    assert.ok(!events.some((e) => e.type === 'error'), 'no hard stop');
    assert.equal(events.at(-1).type, 'done');

    // The nudge is a system message right after the third result, in every later request of the turn.
    const requests = chatRequests(s);
    assert.equal(requests.length, 9);
    assert.equal(nudgesIn(requests[2].body.messages).length, 0);
    const fourth = requests[3].body.messages;
    assert.deepEqual(
      fourth.slice(-2).map((m: any) => [m.role, m.tool_call_id ?? m.content]),
      [
        ['tool', 'r3'],
        ['system', first.message],
      ],
    );
    assert.equal(nudgesIn(requests[8].body.messages).length, 2);

    const stored = readFileSync(join(s.core.workspace, 'sess.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      nudgesIn(stored).map((m) => m.content),
      [first.message, second.message],
      'persisted',
    );
  } finally {
    await s.close();
  }
});

test('stuck_nudge: a mutating call, or calls on different paths, never nudge', async () => {
  const s = await startScenario({
    approval: 'never',
    files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    script: [
      read('r1', { path: 'a.txt' }),
      read('r2', { path: 'b.txt' }),
      read('r3', { path: 'a.txt' }),
      { steps: [{ text: 'Read both.' }] },
      ...[1, 2, 3].map((n) => ({ steps: [{ toolCall: { id: `w${n}`, name: 'write_file', arguments: { path: 'c.txt', content: 'c' } } }] })),
      { steps: [{ text: 'Wrote it three times.' }] },
    ],
  });
  try {
    const reads = await s.turn('read them');
    const writes = await s.turn('write c.txt');
    assert.equal(reads.filter((e) => e.type === 'tool_result').length, 3);
    assert.equal(writes.filter((e) => e.type === 'tool_result' && e.ok).length, 3);
    assert.deepEqual(
      [...reads, ...writes].filter((e) => e.type === 'stuck_nudge'),
      [],
    );
    assert.equal(nudgesIn(chatRequests(s).at(-1)!.body.messages).length, 0);
  } finally {
    await s.close();
  }
});

// The advisor over stdio (research §12.1): off by default; with advisor.enabled, an answer without tool calls gets one
// review request, whose note is shown (advisor_note) and kept as a system message for the next turn; NONE is no note;
// set_config advisor.enabled turns it on at run time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_MODEL, types, type Scenario } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

/** The advisor's request opens with these words (ADVISOR_REQUEST_HEADER); the scripted server routes it by them. */
const ADVISOR_ROUTE = 'Review the coding agent’s latest reply.';
const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const mainRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST' && r.route === undefined);

function scenario(advice: ScriptedResponse[], config: Record<string, unknown> = { advisor: { enabled: true } }): Promise<Scenario> {
  return startScenario({
    args: ['--session', 'sess.jsonl'],
    config,
    script: [says('All done: the tests pass.'), says('Second answer.')],
    routes: { [ADVISOR_ROUTE]: advice },
  });
}

test('advisor on: a concern after the answer, shown and kept for the next turn, before done', async () => {
  const s = await scenario([says('SEVERITY: concern\nYou did not run the tests; run them before saying they pass.'), says('NONE')]);
  try {
    const events = await s.turn('fix the bug');
    assert.deepEqual(
      types(events).filter((t) => t.startsWith('advisor_') || t === 'done'),
      ['advisor_status', 'advisor_note', 'done'],
    );
    const status = events.find((e) => e.type === 'advisor_status');
    assert.deepEqual([status.scope, status.advisor, status.state, status.model], ['main', 'default', 'reviewing', TEST_MODEL]);
    const note = events.find((e) => e.type === 'advisor_note');
    assert.deepEqual(
      [note.scope, note.advisor, note.model, note.severity, note.message],
      ['main', 'default', TEST_MODEL, 'concern', 'You did not run the tests; run them before saying they pass.'],
    );

    const [review] = s.model.requestsFor(ADVISOR_ROUTE);
    assert.equal(review.body.max_tokens, 400);
    assert.deepEqual(review.body.tools ?? [], []);
    const transcript = review.body.messages.at(-1).content as string;
    assert.ok(transcript.includes('user: fix the bug') && transcript.includes('assistant: All done: the tests pass.'));

    const advisory =
      '<advisory advisor="default" severity="concern" scope="main">You did not run the tests; run them before saying they pass.</advisory>';
    const second = await s.turn('and now?');
    assert.ok(!second.some((e) => e.type === 'advisor_note'), 'NONE is no note');
    const next = mainRequests(s).at(-1)!.body.messages;
    assert.ok(
      next.some((m: any) => m.role === 'system' && m.content === advisory),
      'the model reads it on the next turn',
    );
    const stored = readFileSync(join(s.core.workspace, 'sess.jsonl'), 'utf8');
    assert.ok(stored.includes(JSON.stringify(advisory)), 'persisted');
    assert.equal(mainRequests(s).length, 2, 'the turn is not re-prompted');
  } finally {
    await s.close();
  }
});

test('advisor off (the default): no review request and no advisor event', async () => {
  const s = await scenario([], {});
  try {
    const events = await s.turn('fix the bug');
    assert.equal(events.at(-1).type, 'done');
    assert.deepEqual(
      events.filter((e) => e.type.startsWith('advisor_')),
      [],
    );
    assert.equal(s.model.requestsFor(ADVISOR_ROUTE).length, 0);
  } finally {
    await s.close();
  }
});

test('an advisor model no provider serves is no_key, and the turn ends as usual', async () => {
  const s = await scenario([], { advisor: { enabled: true, model: 'nobody-serves-this' } });
  try {
    const events = await s.turn('fix the bug');
    const status = events.filter((e) => e.type === 'advisor_status');
    assert.deepEqual(
      status.map((e) => [e.state, e.model]),
      [['no_key', 'nobody-serves-this']],
    );
    assert.equal(events.at(-1).type, 'done');
    assert.equal(s.model.requestsFor(ADVISOR_ROUTE).length, 0);
  } finally {
    await s.close();
  }
});

test('set_config advisor.enabled turns it on for the next answer, without a restart', async () => {
  const s = await scenario([says('SEVERITY: nit\nSay which tests you ran.')], {});
  try {
    const first = await s.turn('fix the bug');
    assert.ok(!first.some((e) => e.type.startsWith('advisor_')));
    const from = s.core.events.length;
    s.core.send({ type: 'set_config', key: 'advisor.enabled', value: true });
    const changed = await s.core.waitForType('config_changed', { from });
    assert.deepEqual([changed.key, changed.value], ['advisor.enabled', true]);
    const second = await s.turn('and now?');
    const note = second.find((e) => e.type === 'advisor_note');
    assert.deepEqual([note?.severity, note?.message], ['nit', 'Say which tests you ran.']);
  } finally {
    await s.close();
  }
});

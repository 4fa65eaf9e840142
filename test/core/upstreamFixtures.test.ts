// Upstream's own protocol fixtures against our core, as an upstream client sends them: its schema
// (protocol.schema.json) knows 105 event types, and an upstream client must never be sent another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, EXTENSION_EVENT_TYPES } from '../../src/protocol/events';
import { startScenario, unusedLocalUrl, type Scenario } from '../support/coreScenario';
import type { CoreEvent } from '../support/coreProcess';
import { UPSTREAM_FIXTURE_COMMANDS, UPSTREAM_FIXTURE_INIT } from '../support/upstreamProtocolFixtures';

/**
 * The event types of upstream's protocol.schema.json (`$defs.event.properties.type.enum`): our mirror's catalog without
 * our own. Checked by hand against the schema at upstream's commit 15165db (the same 105 names, a sorted diff is empty);
 * src/protocol/catalog.test.ts pins the count. Derived, not copied, so that a type of ours added to the mirror without
 * being listed as ours fails the catalog test instead of passing here unnoticed.
 */
const UPSTREAM_EVENT_TYPES = new Set<string>(EVENT_TYPES.filter((t) => !EXTENSION_EVENT_TYPES.includes(t)));

/** What the schema asks of every event beyond its type: `protocol_version` 2, and non-empty ids and a sequence ≥ 1. */
function schemaProblems(e: CoreEvent): string[] {
  const problems: string[] = [];
  if (!UPSTREAM_EVENT_TYPES.has(e.type)) problems.push(`${e.type}: not an event type of upstream's schema`);
  if (e.protocol_version !== 2) problems.push(`${e.type}: protocol_version ${JSON.stringify(e.protocol_version)}`);
  if ('session_id' in e && !(typeof e.session_id === 'string' && e.session_id.length > 0)) problems.push(`${e.type}: session_id`);
  // runtime_status.run_id is null when idle in upstream's own core too (runtime_status, research §1.4).
  if ('run_id' in e && !(typeof e.run_id === 'string' && e.run_id.length > 0) && !(e.type === 'runtime_status' && e.run_id === null)) {
    problems.push(`${e.type}: run_id ${JSON.stringify(e.run_id)}`);
  }
  if ('sequence' in e && !(Number.isInteger(e.sequence) && e.sequence >= 1)) problems.push(`${e.type}: sequence ${e.sequence}`);
  return problems;
}

async function fixtureScenario(): Promise<Scenario> {
  return startScenario({
    handshake: false,
    // A rules file, so that the core has a `rules` event of ours to send; the marketplace off the network.
    files: { 'AGENTS.md': 'FIXTURE-RULES' },
    env: { CATALYST_CODE_SKILLS_INDEX_URL: await unusedLocalUrl() },
    script: Array.from({ length: 8 }, () => ({ steps: [{ text: 'ok' }] })),
  });
}

test("upstream's fixture init and every command of its commands-v2.jsonl: only event types of upstream's schema", async () => {
  const s = await fixtureScenario();
  try {
    s.core.sendRaw(`${UPSTREAM_FIXTURE_INIT}\n${UPSTREAM_FIXTURE_COMMANDS}`);
    // Commands are answered in order: the answer to one more runtime_status (the fixture has one) follows them all.
    s.core.send({ type: 'runtime_status' });
    const first = await s.core.waitForType('runtime_status', { timeoutMs: 60_000 });
    await s.core.waitForType('runtime_status', { from: s.core.events.indexOf(first) + 1, timeoutMs: 60_000 });
    // Then stdin's end: what the runs and background work still emit before the core exits is checked too.
    await s.core.close();
    const types = new Set(s.core.events.map((e) => e.type));
    for (const expected of ['ready', 'protocol_hello', 'skills', 'agents', 'sessions', 'stats', 'vision_config', 'checkpoints']) {
      assert.ok(types.has(expected), `the fixture's ${expected} answer arrived`);
    }
    assert.equal(s.core.exitCode, 0);
    assert.deepEqual(s.core.events.flatMap(schemaProblems), []);
  } finally {
    await s.close();
  }
});

test('the same client announcing project_rules is sent our rules event (so the fixture run above had one to withhold)', async () => {
  const s = await fixtureScenario();
  try {
    const init = JSON.parse(UPSTREAM_FIXTURE_INIT);
    init.client.capabilities.push('project_rules');
    s.core.send(init);
    const rules = await s.core.waitForType('rules');
    assert.deepEqual(
      rules.files.map((f: { path: string }) => f.path),
      ['AGENTS.md'],
    );
  } finally {
    await s.close();
  }
});

test('our own commands from a client that did not announce their capability: unsupported, and nothing is done', async () => {
  const s = await startScenario({ handshake: false, git: true, files: { 'README.md': 'x' } });
  try {
    s.core.sendRaw(`${UPSTREAM_FIXTURE_INIT}\n`);
    await s.core.waitForType('protocol_hello');
    s.core.send({ type: 'create_checkpoint', label: 'kept' });
    const created = await s.core.waitForType('checkpoint_created', { timeoutMs: 60_000 });
    const from = s.core.events.length;
    s.core.send({ type: 'delete_checkpoint', id: created.id });
    s.core.send({ type: 'list_approval_escalations' });
    s.core.send({ type: 'list_checkpoints' });
    const listed = await s.core.waitForType('checkpoints', { from });
    assert.deepEqual(
      s.core.ofType('error', from).map((e) => [e.code, e.message]),
      [
        [
          'unsupported',
          'unsupported command: delete_checkpoint (ours: announce the capability checkpoint_files in init.client.capabilities)',
        ],
        [
          'unsupported',
          'unsupported command: list_approval_escalations (ours: announce the capability approval_escalations in init.client.capabilities)',
        ],
      ],
    );
    assert.ok(
      listed.checkpoints.some((c: { id: string }) => c.id === created.id),
      'the checkpoint is still there',
    );
  } finally {
    await s.close();
  }
});

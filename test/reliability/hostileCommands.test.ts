// Commands with hostile values, one by one, against the real core: what the fuzz found, pinned down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startScenario, type Scenario } from '../support/coreScenario';
import type { CoreEvent } from '../support/coreProcess';

/** The events a command caused, up to a probe answered after it, without unsolicited ones (CoreProcess.answerOf). */
const answerOf = (s: Scenario, cmd: object | string): Promise<CoreEvent[]> => s.core.answerOf(cmd);

test('a command type that is an Object.prototype key is unsupported, answered once, never run', async () => {
  const s = await startScenario();
  try {
    for (const type of [
      'constructor',
      'toString',
      '__proto__',
      'hasOwnProperty',
      'valueOf',
      'isPrototypeOf',
      '__defineGetter__',
      'propertyIsEnumerable',
    ]) {
      const events = await answerOf(s, { type });
      assert.deepEqual(
        events.map((e) => [e.type, e.code]),
        [['error', 'unsupported']],
        type,
      );
    }
  } finally {
    await s.close();
  }
});

test('session commands act only on session files of this workspace: an outside .jsonl is never loaded, renamed, pinned or deleted', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'outside-sessions-'));
  const victim = join(outside, 'victim.jsonl');
  writeFileSync(victim, '{"role":"user","content":"not yours"}\n');
  const s = await startScenario();
  try {
    const created = (await answerOf(s, { type: 'new_session' })).find((e) => e.type === 'session_changed');
    assert.ok(created, 'a session in the sessions folder');
    for (const cmd of [
      { type: 'delete_session', path: victim },
      { type: 'rename_session', path: victim, title: 'mine now' },
      { type: 'pin_session', path: victim, pinned: true },
    ]) {
      const events = await answerOf(s, cmd);
      assert.deepEqual(
        events.map((e) => [e.type, e.code]),
        [['error', 'invalid_command']],
        cmd.type,
      );
    }
    const load = await answerOf(s, { type: 'load_session', path: victim });
    assert.deepEqual(
      load.map((e) => e.type),
      ['session_change_failed'],
    );
    // Had the load switched to the outside folder, a new session would be created there.
    const next = (await answerOf(s, { type: 'new_session' })).find((e) => e.type === 'session_changed');
    assert.equal(dirname(next!.path), dirname(created.path));
    assert.deepEqual(readdirSync(outside), ['victim.jsonl'], 'no sidecar, no new session next to the victim');
    assert.equal(readFileSync(victim, 'utf8'), '{"role":"user","content":"not yours"}\n');
  } finally {
    await s.close();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('a new_session that cannot open its file leaves the current session open and written to', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'still recorded' }] }] });
  try {
    const current = (await answerOf(s, { type: 'new_session', path: 'current' })).find((e) => e.type === 'session_changed');
    assert.ok(current);
    for (const path of ['a\u0000b', 'x'.repeat(300)]) {
      const events = await answerOf(s, { type: 'new_session', path });
      assert.deepEqual(
        events.map((e) => [e.type, e.code]),
        [['error', 'invalid_command']],
        JSON.stringify(path.slice(0, 20)),
      );
    }
    mkdirSync(join(dirname(current.path), 'taken.jsonl'));
    const failed = await answerOf(s, { type: 'new_session', path: 'taken' });
    assert.deepEqual(failed.filter((e) => e.type === 'error').length, 1, 'one error for a file that cannot be opened');
    assert.equal(
      failed.some((e) => e.type === 'session_changed'),
      false,
    );
    await s.turn('are you still writing?');
    const file = readFileSync(current.path, 'utf8');
    assert.match(file, /are you still writing\?/);
    assert.match(file, /still recorded/);
  } finally {
    await s.close();
  }
});

test('save_memory without a text string is refused as invalid, not as a failed command', async () => {
  const s = await startScenario();
  try {
    for (const text of [undefined, '', '   ', 42, ['a'], { a: 1 }]) {
      const events = await answerOf(s, { type: 'save_memory', text });
      assert.deepEqual(
        events.map((e) => [e.type, e.code]),
        [['error', 'invalid_command']],
        JSON.stringify(text),
      );
    }
    assert.equal(existsSync(join(s.core.workspace, '.catalyst-code', 'memory')), false);
  } finally {
    await s.close();
  }
});

test('a command nested 100,000 levels deep is refused once, whatever its handler would have done with it', async () => {
  const s = await startScenario();
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  try {
    for (const [type, field] of [
      ['init', 'client'],
      ['set_provider', 'name'],
      ['login', 'preset'],
      ['logout', 'provider'],
      ['set_approval', 'mode'],
      ['set_config', 'key'],
      ['restore_checkpoint', 'id'],
      ['delete_checkpoint', 'id'],
      ['ask_reply', 'answers'],
      ['sudo_reply', 'request_id'],
      ['forget_memory', 'id'],
      ['save_memory', 'text'],
      ['discover_provider_models', 'base_url'],
      ['send', 'prompt'],
    ]) {
      const events = await answerOf(s, `{"type":"${type}","${field}":${deep}}`);
      assert.deepEqual(
        events.map((e) => [e.type, e.code]),
        [['error', 'invalid_command']],
        `${type}.${field}`,
      );
    }
    // What a handler's exception logs ("command <type> failed: …", as coreFuzz.ts looks for), not every "failed": the
    // price refresh's "unavailable (fetch failed)" line, for the unreachable models.dev the scenario points at, is not one.
    assert.deepEqual(s.core.stderr.join('').match(/uncaught|unhandled|command \S+ failed/gi), null);
  } finally {
    await s.close();
  }
});

test('what init and discovery echo back is bounded to the fields they expect', async () => {
  const s = await startScenario();
  try {
    const init = await answerOf(s, {
      type: 'init',
      protocol_version: 2,
      client: { name: 'x', version: { nested: [[[1]]] }, capabilities: ['a', 'b'.repeat(1_000_000), 7], extra: 'y'.repeat(100_000) },
    });
    const hello = init.find((e) => e.type === 'protocol_hello');
    assert.ok(hello && init.some((e) => e.type === 'ready'));
    assert.deepEqual(hello.client, { name: 'x', capabilities: ['a', 'b'.repeat(100)] });
    const preview = await answerOf(s, { type: 'discover_provider_models', base_url: { not: 'a url' } });
    assert.deepEqual(
      preview.map((e) => [e.type, e.base_url]),
      [['provider_models_preview', '']],
    );
  } finally {
    await s.close();
  }
});

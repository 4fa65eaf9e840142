import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { fnv1a64Hex } from '../../src/protocol/sessionLayout';
import { dirname, join } from 'node:path';
import { CoreProcess } from '../support/coreProcess';
import { startScenario, TEST_KEY, TEST_MODEL } from '../support/coreScenario';

test('session file: header, messages and _run records; resume after a kill with a truncated last line', async () => {
  const s = await startScenario({
    args: ['--session', 'sess.jsonl'],
    script: [{ steps: [{ text: 'first answer' }] }, { steps: [{ text: 'second ' }, { delayMs: 5000 }, { text: 'never' }] }],
  });
  const file = join(s.core.workspace, 'sess.jsonl');
  try {
    await s.turn('first question');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines[0], { _session_version: 2 });
    assert.deepEqual(
      lines.filter((l) => l.role).map((l) => [l.role, l.content]),
      [
        ['user', 'first question'],
        ['assistant', 'first answer'],
      ],
    );
    assert.deepEqual(
      lines.filter((l) => l._run).map((l) => l._run.state),
      ['started', 'completed'],
    );

    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'second question', model: TEST_MODEL });
    await s.core.waitForType('delta', { from });
    await s.core.kill();
    appendFileSync(file, '{"role":"assistant","content":"trunc');

    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'sess.jsonl'] });
    try {
      await again.handshake();
      const recovered = await again.waitForType('session_recovered');
      assert.ok(recovered.warnings.some((w: string) => /truncated/.test(w)));
      assert.equal(recovered.interrupted_runs.length, 1);
      const history = await again.waitForType('history');
      assert.deepEqual(
        history.messages.filter((m: any) => m.role !== 'tool').map((m: any) => m.content),
        ['first question', 'first answer', 'second question'],
      );
      const ready = again.ofType('ready')[0];
      assert.equal(ready.resumed_messages, history.messages.length);
      s.model.enqueue({ steps: [{ text: 'resumed fine' }] });
      const at = again.events.length;
      again.send({ type: 'send', prompt: 'third', model: TEST_MODEL });
      await again.waitForType('done', { from: at });
      const sent = s.model.requests.at(-1)!.body.messages.map((m: any) => m.content);
      assert.ok(sent.includes('first answer') && sent.includes('third'));
      const text = readFileSync(file, 'utf8');
      for (const line of text.trim().split('\n')) JSON.parse(line);
      assert.ok(!text.includes('SECRETMARKER') && !text.includes(TEST_KEY));
    } finally {
      await again.close();
    }
  } finally {
    await s.close();
  }
});

test('list, new, load, rename, pin and delete sessions', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'answer one' }] }] });
  try {
    let from = s.core.events.length;
    s.core.send({ type: 'new_session', path: 'one.jsonl' });
    const first = await s.core.waitForType('session_changed', { from });
    assert.equal(first.new, true);
    const dir = dirname(first.path);
    // Upstream's layout: FNV-1a 64 of the absolute workspace path in hex, without zero padding.
    const hash = BigInt(`0x${fnv1a64Hex(s.core.workspace)}`).toString(16);
    assert.equal(dir, join(s.core.home, '.config', 'catalyst-code', 'sessions', hash));
    await s.turn('question one');

    from = s.core.events.length;
    s.core.send({ type: 'new_session', path: 'two.jsonl' });
    await s.core.waitForType('session_changed', { from });
    s.core.send({ type: 'rename_session', path: 'one.jsonl', title: 'The first' });
    await s.core.waitForType('session_renamed', { from });
    s.core.send({ type: 'pin_session', path: 'one.jsonl', pinned: true });
    await s.core.waitForType('session_pinned', { from });
    s.core.send({ type: 'list_sessions' });
    const list = await s.core.waitForType('sessions', { from });
    const one = list.sessions.find((x: any) => x.name === 'one.jsonl');
    assert.equal(one.title, 'The first');
    assert.equal(one.pinned, true);
    assert.equal(one.messages, 2);
    assert.equal(list.sessions.find((x: any) => x.name === 'two.jsonl').current, true);
    assert.ok(!readdirSync(dir).some((f) => f.endsWith('.checkpoints.jsonl') && list.sessions.some((x: any) => x.name === f)));

    from = s.core.events.length;
    s.core.send({ type: 'load_session', path: 'one.jsonl' });
    const loaded = await s.core.waitForType('session_changed', { from });
    assert.equal(loaded.new, false);
    const history = await s.core.waitForType('history', { from });
    assert.deepEqual(
      history.messages.map((m: any) => m.content),
      ['question one', 'answer one'],
    );

    from = s.core.events.length;
    s.core.send({ type: 'delete_session', path: 'one.jsonl' });
    const refused = await s.core.waitForType('error', { from });
    assert.match(refused.message, /active session/);
    s.core.send({ type: 'delete_session', path: 'two.jsonl' });
    await s.core.waitForType('session_deleted', { from });
    assert.equal(existsSync(join(dir, 'two.jsonl')), false);

    from = s.core.events.length;
    s.core.send({ type: 'load_session', path: 'missing.jsonl' });
    const failed = await s.core.waitForType('session_change_failed', { from });
    assert.match(failed.message, /no session file/);
  } finally {
    await s.close();
  }
});

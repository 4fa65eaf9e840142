// Ours (capability approval_escalations): the session's escalations listed and cleared, so the approval-mode picker can
// show what no longer asks and take it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario } from '../support/coreScenario';

const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const say = (text: string) => ({ steps: [{ text }] });

test('Always and Allow pattern are listed; clearing them makes the next destructive call ask again', async () => {
  const s = await startScenario({
    script: [
      call('c1', 'bash', { command: 'echo allowed-by-pattern' }),
      say('ran'),
      call('c2', 'write_file', { path: 'a.txt', content: 'a\n' }),
      say('written'),
      call('c3', 'write_file', { path: 'b.txt', content: 'b\n' }),
      say('asked again'),
    ],
  });
  try {
    const hello = s.core.events.find((e) => e.type === 'protocol_hello')!;
    assert.ok(hello.capabilities.includes('approval_escalations'), JSON.stringify(hello.capabilities));
    let from = s.core.events.length;
    s.core.send({ type: 'list_approval_escalations' });
    const none = await s.core.waitForType('approval_escalations', { from });
    assert.deepEqual([none.kinds, none.patterns], [[], []]);

    await s.turnAnswering('run it', [{ decision: 'allow_pattern', pattern: 'echo allowed-by-*' }]);
    await s.turnAnswering('write a', [{ decision: 'always' }]);

    from = s.core.events.length;
    s.core.send({ type: 'list_approval_escalations' });
    const listed = await s.core.waitForType('approval_escalations', { from });
    assert.deepEqual([listed.kinds, listed.patterns], [['destructive'], [{ tool: 'bash', pattern: 'echo allowed-by-*' }]]);

    from = s.core.events.length;
    s.core.send({ type: 'clear_approval_escalations' });
    const cleared = await s.core.waitForType('approval_escalations', { from });
    assert.deepEqual([cleared.kinds, cleared.patterns], [[], []]);

    // The escalation is gone: the next write waits for an approval again.
    const events = await s.turnAnswering('write b', ['yes']);
    assert.equal(events.filter((e) => e.type === 'approval_request').length, 1);
  } finally {
    await s.close();
  }
});

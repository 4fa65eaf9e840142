import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, type Scenario } from '../support/coreScenario';

const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');
const say = (text: string) => ({ steps: [{ text }] });

test('finish ends the turn at once: no further model request, later calls of the message not run but answered', async () => {
  const s = await startScenario({
    approval: 'never',
    script: [
      {
        steps: [
          { text: 'Everything is done: the file was already correct, nothing else needed changing.' },
          { toolCall: { id: 'f1', name: 'finish', arguments: {} } },
          { toolCall: { id: 'w1', name: 'write_file', arguments: { path: 'late.txt', content: 'x' } } },
        ],
      },
      say('second turn'),
    ],
  });
  try {
    const events = await s.turn('finish up');
    const results = events.filter((e) => e.type === 'tool_result');
    assert.deepEqual(
      results.map((r) => [r.id, r.ok, r.output]),
      [['f1', true, 'This turn has finished']],
    );
    assert.equal(chatRequests(s).length, 1, 'finish made no further model request');
    assert.ok(!existsSync(join(s.core.workspace, 'late.txt')), 'the call after finish did not run');
    assert.ok(!events.some((e) => e.type === 'error'));

    await s.turn('and now?');
    const history = chatRequests(s).at(-1)!.body.messages;
    const late = history.find((m: any) => m.role === 'tool' && m.tool_call_id === 'w1');
    assert.equal(late?.content, "tool call 'write_file' was not run: the turn had finished");
  } finally {
    await s.close();
  }
});

test('a memory the model saves is in the system prompt of the next request; unsupported actions say so', async () => {
  const s = await startScenario({
    script: [
      {
        steps: [
          {
            toolCall: {
              id: 'm1',
              name: 'memory',
              arguments: { action: 'save', name: 'style', content: 'The user wants tabs, not spaces.' },
            },
          },
        ],
      },
      { steps: [{ toolCall: { id: 'm2', name: 'memory', arguments: { action: 'consolidate' } } }] },
      say('noted'),
    ],
  });
  try {
    const events = await s.turn('remember my style');
    assert.ok(!events.some((e) => e.type === 'approval_request'), 'memory is read-only, as upstream classifies it');
    const saved = events.find((e) => e.type === 'tool_result' && e.id === 'm1');
    assert.match(saved.output, /^saved memory the-user-wants-tabs-not-spaces-\w+ \(workspace\)$/);
    const system = (n: number) => chatRequests(s)[n].body.messages[0].content as string;
    assert.ok(!system(0).includes('tabs, not spaces'));
    assert.ok(system(1).includes('The user wants tabs, not spaces.'));
    const unsupported = events.find((e) => e.type === 'tool_result' && e.id === 'm2');
    assert.equal(unsupported.ok, false);
    assert.match(unsupported.output, /not supported by this core/);
  } finally {
    await s.close();
  }
});

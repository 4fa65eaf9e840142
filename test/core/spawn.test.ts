// spawn over stdio: upstream's deferred shorthand for the subagent tool's `{prompt}` form (the delegate agent, fresh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const SCENARIO = { timeout: 60_000 };
const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const resultOf = (events: any[], id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);

test('spawn is deferred; once loaded it runs the delegate agent on a fresh conversation and answers with its text', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'destructive',
    script: [
      calls('s0', 'spawn', { prompt: '[early] too soon' }),
      calls('l1', 'load_tools', { tool: 'spawn' }),
      calls('s1', 'spawn', { prompt: '[sp] count the files' }),
      calls('s2', 'spawn', { prompt: '  ' }),
      says('done'),
    ],
    routes: { '[sp]': [says('There are three files.')] },
  });
  try {
    const events = await s.turnAnswering('delegate it', ['yes', 'yes']);
    assert.match(resultOf(events, 's0').output, /^tool 'spawn' is deferred and not enabled this session\. Call load_tools/);
    const asked = events.filter((e) => e.type === 'approval_request');
    assert.deepEqual(
      asked.map((e) => [e.tool_call_id, e.tool]),
      [
        ['s1', 'spawn'],
        ['s2', 'spawn'],
      ],
      'destructive, like upstream: the call is approved',
    );
    const start = events.find((e) => e.type === 'subagent_start');
    assert.equal(start.agent, 'delegate');
    assert.equal(start.task, '[sp] count the files');
    assert.equal(start.tool_call_id, 's1');
    assert.equal(resultOf(events, 's1').ok, true);
    assert.equal(resultOf(events, 's1').output, 'There are three files.');
    const child = s.model.requests.find((r) => r.method === 'POST' && JSON.stringify(r.body.messages).includes('[sp] count the files'))!;
    assert.ok(
      !JSON.stringify(child.body.messages).includes('delegate it'),
      "a fresh context: the child does not see the parent's conversation",
    );
    assert.equal(resultOf(events, 's2').output, "spawn requires a non-empty 'prompt'");
    assert.equal(events.filter((e) => e.type === 'subagent_start').length, 1);
  } finally {
    await s.close();
  }
});

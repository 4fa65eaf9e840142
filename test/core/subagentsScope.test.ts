// The subagent tool's agentScope over stdio: which agent files a call may pick (the user's, the workspace's, both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const SCENARIO = { timeout: 60_000 };
const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const agentFile = (name: string, prompt: string) => ['---', `name: ${name}`, `description: ${name}`, '---', prompt].join('\n');
const resultOf = (events: any[], id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);

test("agentScope picks the user's or the workspace's agent of a name; one outside the scope is unknown", SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    files: {
      '.catalyst-code/agents/helper.md': agentFile('helper', 'PROJECT-HELPER-PROMPT'),
      '.catalyst-code/agents/local.md': agentFile('local', 'LOCAL-PROMPT'),
    },
    script: [
      calls('p1', 'subagent', { agent: 'helper', task: '[as-user] help', agentScope: 'user' }),
      calls('p2', 'subagent', { agent: 'helper', task: '[as-both] help' }),
      calls('p3', 'subagent', { agent: 'helper', task: '[as-project] help', agentScope: 'project' }),
      calls('p4', 'subagent', { agent: 'local', task: '[nope] help', agentScope: 'user' }),
      calls('p5', 'subagent', { agent: 'helper', task: '[nope] help', agentScope: 'everyone' }),
      says('done'),
    ],
    routes: { '[as-user]': [says('user one')], '[as-both]': [says('project one')], '[as-project]': [says('project again')] },
  });
  try {
    const userAgents = join(s.core.home, '.catalyst-code', 'agents');
    mkdirSync(userAgents, { recursive: true });
    writeFileSync(join(userAgents, 'helper.md'), agentFile('helper', 'USER-HELPER-PROMPT'));
    const events = await s.turn('help me', { timeoutMs: 30_000 });
    const systemOf = (key: string): string => {
      const request = s.model.requests.find(
        (r) => r.method === 'POST' && JSON.stringify(r.body.messages.filter((m: any) => m.role === 'user').at(-1)).includes(key),
      );
      return String(request?.body.messages[0].content ?? '');
    };
    assert.ok(systemOf('[as-user]').includes('USER-HELPER-PROMPT') && !systemOf('[as-user]').includes('PROJECT-HELPER-PROMPT'));
    assert.ok(systemOf('[as-both]').includes('PROJECT-HELPER-PROMPT'), 'by default the workspace file wins');
    assert.ok(systemOf('[as-project]').includes('PROJECT-HELPER-PROMPT'));
    assert.deepEqual(
      ['p1', 'p2', 'p3'].map((id) => resultOf(events, id).ok),
      [true, true, true],
    );
    assert.equal(resultOf(events, 'p4').output, `unknown agent 'local'; use action:"list" to discover agents`);
    assert.equal(resultOf(events, 'p5').output, 'agentScope must be one of user, project, both');
  } finally {
    await s.close();
  }
});

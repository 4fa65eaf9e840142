// Plugin tools are the main agent's only (research A §7.5): a child that calls one by name is refused, its handler never runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario } from '../support/coreScenario';
import { globalPluginsDir, script, tempDir, writePlugin } from '../support/pluginFixtures';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const agentFile = (name: string, tools: string) =>
  ['---', `name: ${name}`, `description: ${name}`, `tools: ${tools}`, '---', 'A helper.'].join('\n');
const notInSchema = (agent: string) =>
  `tool 'main_only' is not available to agent '${agent}' (not in its tool schema). Declare it in the agent's tools: frontmatter if needed.`;

test(
  'a child that calls a plugin tool is refused as for a tool outside its schema, even one its agent declares; the main agent’s runs',
  { timeout: 60_000 },
  async () => {
    const home = tempDir('core-home-');
    const marker = join(tempDir('tool-marker-'), 'ran');
    writePlugin(globalPluginsDir(home), 'mainonly', {
      manifest: { name: 'mainonly', version: '1', tools: [{ name: 'main_only', kind: 'readonly', script: 'tool.js' }] },
      files: { 'tool.js': script(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); answer({ ok: true, output: 'ran' });`) },
    });
    const s = await startScenario({
      approval: 'never',
      home,
      files: { '.catalyst-code/agents/declarer.md': agentFile('declarer', 'read_file, main_only') },
      script: [
        calls('p1', 'subagent', { agent: 'delegate', task: '[plain] use it' }),
        calls('p2', 'subagent', { agent: 'declarer', task: '[declared] use it' }),
        says('parent done'),
        calls('m1', 'main_only', {}),
        says('main done'),
      ],
      routes: {
        '[plain]': [calls('c1', 'main_only', {}), says('plain done')],
        '[declared]': [calls('c2', 'main_only', {}), says('declared done')],
      },
    });
    try {
      const events = await s.turn('delegate it', { timeoutMs: 30_000 });
      const childResult = (id: string) => events.find((e) => e.type === 'subagent_tool_result' && e.call_id === id);
      assert.deepEqual([childResult('c1').ok, childResult('c1').result], [false, notInSchema('delegate')]);
      assert.deepEqual([childResult('c2').ok, childResult('c2').result], [false, notInSchema('declarer')]);
      const declaredTools = s.model.requestsFor('[declared]')[0].body.tools.map((t: any) => t.function?.name ?? t.name);
      assert.ok(!declaredTools.includes('main_only'), 'not offered even when declared');
      // Both results came before the turn's done: a handler that ran would have written the marker by then.
      assert.equal(existsSync(marker), false, 'the plugin handler never ran for a child');
      const main = await s.turn('use it yourself');
      const mainResult = main.find((e) => e.type === 'tool_result' && e.id === 'm1');
      assert.deepEqual([mainResult.ok, mainResult.output], [true, 'ran']);
      assert.equal(existsSync(marker), true, 'the main agent’s call ran the handler');
    } finally {
      await s.close();
    }
  },
);

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinAgents } from './builtinAgents';

const R = ['read_file', 'grep', 'glob', 'list_dir', 'bash'];

test("the builtins have upstream's tools, efforts, modes and defaults (subagent.rs builtin_agents)", () => {
  const summary = Object.fromEntries(
    builtinAgents().map((a) => [
      a.name,
      [a.tools, a.thinking, a.systemPromptMode, a.defaultContext, a.output ?? null, a.defaultReads, a.inheritProjectContext],
    ]),
  );
  assert.deepEqual(summary, {
    scout: [[...R, 'write_file', 'memory', 'intercom'], 'low', 'replace', 'fresh', 'context.md', [], true],
    researcher: [[...R, 'write_file', 'memory', 'intercom', 'fetch', 'web_search'], 'low', 'replace', 'fresh', null, [], true],
    'context-builder': [[...R, 'write_file', 'memory', 'intercom'], 'low', 'replace', 'fresh', null, [], true],
    planner: [[...R, 'intercom'], 'high', 'replace', 'fork', null, [], true],
    oracle: [[...R, 'intercom'], 'high', 'replace', 'fork', null, [], true],
    worker: [[...R, 'edit', 'write_file', 'contact_supervisor'], 'high', 'replace', 'fork', null, ['context.md', 'plan.md'], true],
    reviewer: [[...R, 'edit', 'write_file', 'intercom'], 'high', 'replace', 'fresh', null, ['context.md', 'plan.md'], true],
    delegate: [[...R, 'edit', 'write_file', 'contact_supervisor'], 'medium', 'append', 'fresh', null, [], true],
  });
  for (const agent of builtinAgents()) {
    assert.equal(agent.source, 'builtin');
    assert.ok(agent.description.length > 0 && agent.prompt.length > 0, agent.name);
  }
});

test('each call hands out its own copies', () => {
  const first = builtinAgents();
  first[0].tools.push('rm_rf');
  assert.equal(builtinAgents()[0].tools.includes('rm_rf'), false);
});

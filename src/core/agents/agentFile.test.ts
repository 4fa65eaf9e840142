import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAgentFile, renderAgentFile } from './agentFile';
import { builtinAgents } from './builtinAgents';

describe('parseAgentFile', () => {
  test('every key, with the tool aliases and comma lists', () => {
    const agent = parseAgentFile(
      [
        '---',
        'name: pkg-helper extra words',
        'description: Helps',
        'tools: read, find, ls, write, bash, , edit',
        'model: fast-1',
        'fallbackModels: a, b',
        'thinking: high',
        'systemPromptMode: append',
        'inheritProjectContext: true',
        'defaultContext: fork',
        'skills: s1,s2',
        'output: out/notes.md',
        'defaultReads: context.md, plan.md',
        'maxSubagentDepth: 1',
        '---',
        'Do the thing.',
      ].join('\n'),
      'project',
      '/ws/.catalyst-code/agents/helper.md',
    );
    assert.deepEqual(agent, {
      name: 'pkg-helper',
      description: 'Helps',
      tools: ['read_file', 'glob', 'list_dir', 'write_file', 'bash', 'edit'],
      model: 'fast-1',
      fallbackModels: ['a', 'b'],
      thinking: 'high',
      systemPromptMode: 'append',
      inheritProjectContext: true,
      defaultContext: 'fork',
      skills: ['s1', 's2'],
      output: 'out/notes.md',
      defaultReads: ['context.md', 'plan.md'],
      maxSubagentDepth: 1,
      disabled: false,
      source: 'project',
      prompt: 'Do the thing.',
      path: '/ws/.catalyst-code/agents/helper.md',
    });
  });

  test("the defaults, and upstream's exact-value flags", () => {
    const agent = parseAgentFile(
      '---\nname: bare\nsystemPromptMode: parent\ninheritProjectContext: yes\ndefaultContext: other\nmaxSubagentDepth: -1\ndisabled: TRUE\n---\n',
      'user',
    );
    assert.deepEqual(agent, {
      name: 'bare',
      description: '',
      tools: [],
      fallbackModels: [],
      thinking: 'medium',
      systemPromptMode: 'replace',
      inheritProjectContext: false,
      defaultContext: 'fresh',
      skills: [],
      defaultReads: [],
      disabled: false,
      source: 'user',
      prompt: '',
    });
    assert.equal(parseAgentFile('---\nname: off\ndisabled: true\n---\n', 'user')?.disabled, true);
  });

  test('a file without a name defines no agent', () => {
    assert.equal(parseAgentFile('---\ndescription: nameless\n---\nbody', 'user'), undefined);
    assert.equal(parseAgentFile('---\nname:   \n---\nbody', 'user'), undefined);
    assert.equal(parseAgentFile('no frontmatter at all', 'user'), undefined);
  });

  test('a rendered agent parses back to itself', () => {
    for (const agent of builtinAgents()) {
      assert.deepEqual(parseAgentFile(renderAgentFile(agent), 'builtin'), agent, agent.name);
    }
  });
});

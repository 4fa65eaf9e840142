import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAgentFile, parseFrontmatter, renderAgentFile } from './agentFile';
import { builtinAgents } from './builtinAgents';

describe('parseFrontmatter', () => {
  test('reads flat key: value lines, strips one pair of quotes, and keeps the trimmed body', () => {
    const { fields, body } = parseFrontmatter(
      '---\r\nname: "scout"\r\ndescription: \'Finds: things\'\r\n# a comment\r\n\r\ntools:\r\n  - read\r\nurl: http://x:1\r\n---\r\n\r\nThe prompt.\r\nLine two.\r\n\r\n',
    );
    assert.deepEqual(Object.fromEntries(fields), { name: 'scout', description: 'Finds: things', tools: '', url: 'http://x:1' });
    assert.equal(body, 'The prompt.\nLine two.');
  });

  test('without an opening fence there is no frontmatter, and an empty block is none either', () => {
    assert.deepEqual(parseFrontmatter('name: x\nbody').fields.size, 0);
    assert.equal(parseFrontmatter('  just a body \n').body, 'just a body');
    assert.equal(parseFrontmatter('---\n---\nbody').fields.size, 0);
  });

  test('the closing fence is the first line starting with ---', () => {
    const { fields, body } = parseFrontmatter('---\nname: a\n---\nbody\n---\nmore');
    assert.equal(fields.get('name'), 'a');
    assert.equal(body, 'body\n---\nmore');
  });
});

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

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { toAnthropicConversation } from './anthropicMessages';
import type { ChatMessage } from './types';

const call = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });

describe('toAnthropicConversation', () => {
  test('system messages become the top-level system prompt', () => {
    const { system, messages } = toAnthropicConversation([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'hi' },
      { role: 'system', content: [{ type: 'text', text: 'Workspace: /tmp/x' }] },
    ]);
    assert.equal(system, 'You are a coding agent.\n\nWorkspace: /tmp/x');
    assert.deepEqual(messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  test('no system key when there is no system message', () => {
    assert.equal(toAnthropicConversation([{ role: 'user', content: 'hi' }]).system, undefined);
  });

  test('assistant tool calls become tool_use blocks after the text, with parsed input', () => {
    const { messages } = toAnthropicConversation([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Reading two files.',
        tool_calls: [call('t1', 'read_file', '{"path":"a"}'), call('t2', 'list_dir', '')],
      },
    ]);
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading two files.' },
        { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } },
        { type: 'tool_use', id: 't2', name: 'list_dir', input: {} },
      ],
    });
  });

  test('garbled or non-object tool arguments become an empty input object', () => {
    const { messages } = toAnthropicConversation([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('t1', 'bash', '{"command": "ls'), call('t2', 'bash', '[1,2]')] },
    ]);
    const inputs = messages[1].content.map((block) => (block.type === 'tool_use' ? block.input : undefined));
    assert.deepEqual(inputs, [{}, {}]);
  });

  test('consecutive tool results merge into one user turn, ahead of a following user message', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('t1', 'read_file', '{}'), call('t2', 'read_file', '{}')] },
      { role: 'tool', tool_call_id: 't1', content: 'one' },
      { role: 'tool', tool_call_id: 't2', content: 'two' },
      { role: 'user', content: 'and now?' },
    ];
    const { messages } = toAnthropicConversation(history);
    assert.equal(messages.length, 3);
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'one' },
        { type: 'tool_result', tool_use_id: 't2', content: 'two' },
        { type: 'text', text: 'and now?' },
      ],
    });
  });

  test('images: data URLs become base64 blocks, http URLs url blocks', () => {
    const { messages } = toAnthropicConversation([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
    assert.deepEqual(messages[0].content, [
      { type: 'text', text: 'what is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
  });

  test('a tool result with parts keeps them as blocks', () => {
    const { messages } = toAnthropicConversation([
      { role: 'user', content: 'shot' },
      { role: 'assistant', content: null, tool_calls: [call('t1', 'screenshot', '{}')] },
      { role: 'tool', tool_call_id: 't1', content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } }] },
    ]);
    assert.deepEqual(messages[2].content, [
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } }],
      },
    ]);
  });

  test('empty turns are dropped and same-role neighbours merged', () => {
    const { messages } = toAnthropicConversation([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'two' },
    ]);
    assert.deepEqual(messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
  });
});

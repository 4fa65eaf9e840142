import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../providers/types';
import { digestToolResults } from './digest';

const round = (id: string, output: string): ChatMessage[] => [
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: `{"path":"${id}"}` } }],
  },
  { role: 'tool', tool_call_id: id, content: output },
];

test('a stale large result outside the recent tail is digested; the recent ones and the small ones stay verbatim', () => {
  const big = 'x'.repeat(20_000);
  const messages: ChatMessage[] = [
    { role: 'user', content: 'task' },
    ...round('old', big),
    ...round('tiny', 'ok'),
    ...round('r1', 'y'.repeat(400)),
    ...round('r2', 'z'.repeat(400)),
  ];
  assert.equal(digestToolResults(messages, 10_000), 1);
  assert.match(String(messages[2].content), /^\[digested: read_file \{"path":"old"\} returned 20000 chars, 1 lines;/);
  assert.deepEqual(
    messages.slice(3).map((m) => (m.role === 'tool' ? String(m.content).length : -1)),
    [-1, 2, -1, 400, -1, 400],
  );
});

test('digesting twice changes nothing more', () => {
  const messages: ChatMessage[] = [{ role: 'user', content: 'task' }, ...round('a', 'x'.repeat(10_000)), ...round('b', 'y'.repeat(10_000))];
  assert.equal(digestToolResults(messages, 4000), 2);
  assert.equal(digestToolResults(messages, 4000), 0);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, ResolvedProvider, StreamRequest, StreamResult } from '../providers/types';
import type { RunEvent } from '../runtime/eventSink';
import { manageChildContext, tooLargeMessage, type ChildContextInput } from './childContext';

const WINDOW = 1000;

function input(messages: ChatMessage[], summary: string, overrides: Partial<ChildContextInput> = {}) {
  const events: RunEvent[] = [];
  const requests: StreamRequest[] = [];
  const c: ChildContextInput = {
    messages,
    route: { model: 'm', provider: {} as ResolvedProvider, modelInfo: { id: 'm', context_window: WINDOW } as never },
    task: 'the task',
    autoCompact: true,
    signal: new AbortController().signal,
    idleTimeoutMs: 1000,
    secrets: [],
    emit: (e) => events.push(e),
    stream: async (req): Promise<StreamResult> => {
      requests.push(req);
      return { text: summary, reasoning: '', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0 } } as never;
    },
    ...overrides,
  };
  return { c, events, requests };
}

/** Past the threshold with the child's own words, which no digest shortens. */
const full = (): ChatMessage[] => [
  { role: 'system', content: 'You read files.' },
  { role: 'user', content: 'the task' },
  {
    role: 'assistant',
    content: 'x'.repeat(4000),
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'small' },
];

/** Past the digest threshold (700) with one large tool result, under the compaction threshold (900). */
const readBig = (): ChatMessage[] => [
  { role: 'system', content: 'You read files.' },
  { role: 'user', content: 'the task' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"big.txt"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'line\n'.repeat(600) },
];

test('past the digest threshold a large tool result becomes a note (digested, scope subagent) and nothing is compacted', async () => {
  const messages = readBig();
  const { c, events, requests } = input(messages, 'unused');
  assert.equal(await manageChildContext(c), undefined);
  assert.deepEqual(
    events.map((e) => [e.type, (e as { scope?: string }).scope, (e as { results?: number }).results]),
    [['digested', 'subagent', 1]],
  );
  assert.equal(requests.length, 0);
  assert.equal(messages[3].tool_call_id, 'c1', 'the call keeps its result');
  assert.equal(
    messages[3].content,
    '[digested: read_file {"path":"big.txt"} returned 3000 chars, 601 lines; re-run the call to see it again]',
  );
});

test('a child under its threshold is left alone: no request, no event', async () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'p' },
    { role: 'user', content: 'short' },
  ];
  const { c, events, requests } = input(messages, 'unused');
  assert.equal(await manageChildContext(c), undefined);
  assert.deepEqual([events.length, requests.length, messages.length], [0, 0, 2]);
});

test("past the threshold the child's history is summarized under scope subagent, its system prompt kept and its task restated", async () => {
  const messages = full();
  const { c, events, requests } = input(messages, 'the summary');
  assert.equal(await manageChildContext(c), undefined);
  assert.deepEqual(
    events.map((e) => [e.type, (e as { scope?: string }).scope]),
    [
      ['compacting', 'subagent'],
      ['compacted', 'subagent'],
    ],
  );
  assert.equal(requests[0].messages[0].content, 'You read files.', "the summary request carries the child's own system prompt");
  assert.deepEqual(
    messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'user'],
  );
  assert.match(String(messages[1].content), /the summary/);
  assert.match(String(messages[3].content), /Your task:\nthe task$/);
});

test('a summary that does not make it fit leaves the child failing with the hard-limit message', async () => {
  const messages = full();
  const { c, events } = input(messages, 'y'.repeat(8000));
  const error = await manageChildContext(c);
  assert.match(String(error), /^subagent context remains too large after compaction \(\d+ > safe limit 900\)/);
  assert.equal(events.at(-1)?.type, 'compacted');
  assert.equal(messages.length, 4, 'the history is as it was');
});

test('auto_compact off: the child is not compacted', async () => {
  const messages = full();
  const { c, requests } = input(messages, 'unused', { autoCompact: false });
  assert.equal(await manageChildContext(c), undefined);
  assert.equal(requests.length, 0);
});

test("the hard-limit message is upstream's", () => {
  assert.equal(
    tooLargeMessage(5, 4),
    'subagent context remains too large after compaction (5 > safe limit 4); split the task or reduce oversized input',
  );
});

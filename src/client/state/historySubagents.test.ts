import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subagentTarget } from '../../protocol/subagents';
import { initialSessionState, type SubagentItem } from '../../shared/sessionState';
import { sessionReducer } from './sessionReducer';

const CALL = 'call_sub_1';
const MESSAGES = [
  { role: 'user', content: 'Ask two helpers.' },
  { role: 'assistant', content: '', tool_calls: [{ id: CALL, type: 'function', function: { name: 'subagent', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: CALL, content: 'both answered' },
  { role: 'assistant', content: 'Both answered.' },
];
const run = (fields: Record<string, unknown>) => ({
  tool_call_id: CALL,
  depth: 1,
  started_at: 1000,
  ended_at: 4000,
  ...fields,
});
const SUBAGENTS = [
  run({ run_id: 'run-1', mode: 'parallel', agent: '', task: 'parallel (2 tasks)', state: 'completed' }),
  run({
    run_id: 'run-1-0',
    parent_run_id: 'run-1',
    mode: 'single',
    agent: 'delegate',
    task: 'name a colour',
    state: 'completed',
    summary: 'vermilion',
  }),
  run({
    run_id: 'run-1-1',
    parent_run_id: 'run-1',
    mode: 'single',
    agent: 'delegate',
    task: 'name a fruit',
    state: 'interrupted',
    summary: '',
  }),
  // A nested run under the first child: it renders under the same card.
  run({
    run_id: 'run-2',
    parent_run_id: 'run-1-0',
    tool_call_id: 'call_n1',
    mode: 'single',
    agent: 'nester',
    task: 'deeper',
    depth: 2,
    state: 'failed',
    summary: 'no',
  }),
  // A run of a call the conversation no longer has (an undone turn): nowhere to show.
  run({ run_id: 'run-9', tool_call_id: 'call_gone', mode: 'single', agent: 'delegate', task: 'lost', state: 'completed', summary: 'x' }),
];

test('history: a subagent card gets its ended runs back, right after it, with agent, task, state and summary', () => {
  const s = sessionReducer(initialSessionState(), { type: 'history', messages: MESSAGES, tokens_in: 0, subagents: SUBAGENTS } as never);
  assert.deepEqual(
    s.items.map((i) => [i.kind, i.id]),
    [
      ['user', s.items[0].id],
      ['tool', CALL],
      ['subagent', 'run-1'],
      ['subagent', 'run-1-0'],
      ['subagent', 'run-1-1'],
      ['subagent', 'run-2'],
      ['assistant', s.items.at(-1)!.id],
    ],
  );
  const rows = s.items.filter((i): i is SubagentItem => i.kind === 'subagent');
  assert.deepEqual(
    rows.map((r) => [r.id, r.mode, r.agent, r.task, r.state, r.summary, r.parentToolCallId, r.parentRunId, r.depth, r.phase, r.elapsedMs]),
    [
      ['run-1', 'parallel', '', 'parallel (2 tasks)', 'completed', undefined, CALL, undefined, 1, 'done', 3000],
      ['run-1-0', 'single', 'delegate', 'name a colour', 'completed', 'vermilion', CALL, 'run-1', 1, 'done', 3000],
      [
        'run-1-1',
        'single',
        'delegate',
        'name a fruit',
        'cancelled',
        'Interrupted: the core stopped while this run was going.',
        CALL,
        'run-1',
        1,
        'done',
        3000,
      ],
      ['run-2', 'single', 'nester', 'deeper', 'failed', 'no', CALL, 'run-1-0', 2, 'done', 3000],
    ],
  );
  assert.equal(rows[1].target, subagentTarget('run-1-0', 'delegate'), 'a single run has its intercom target');
  assert.equal(rows[0].target, '', 'a group has none');
});

test('history without subagents, or with rows for no card, leaves the transcript as the messages make it', () => {
  const plain = sessionReducer(initialSessionState(), { type: 'history', messages: MESSAGES, tokens_in: 0 } as never);
  const orphans = sessionReducer(initialSessionState(), {
    type: 'history',
    messages: MESSAGES,
    tokens_in: 0,
    subagents: [SUBAGENTS[4], 'junk'],
  } as never);
  assert.deepEqual(
    orphans.items.map((i) => i.kind),
    plain.items.map((i) => i.kind),
  );
  assert.ok(!plain.items.some((i) => i.kind === 'subagent'));
});

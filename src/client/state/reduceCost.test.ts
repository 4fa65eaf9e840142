import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type AssistantItem, initialSessionState, type SessionState, type SubagentItem } from '../../shared/sessionState';
import type { WireEvent } from './eventFields';
import { sessionReducer } from './sessionReducer';
import { formatStatsMarkdown } from '../presentation/statsMarkdown';

const fold = (events: WireEvent[], from: SessionState = initialSessionState()): SessionState => events.reduce(sessionReducer, from);
const replies = (s: SessionState) => s.items.filter((i): i is AssistantItem => i.kind === 'assistant');
const cost = (run: string, usd: number | null, extra: Record<string, unknown> = {}): WireEvent => ({
  type: 'cost_update',
  run_id: run,
  model: 'm',
  tokens_in: 300,
  tokens_out: 20,
  cached_tokens: 0,
  cache_hit_pct: 0,
  estimated_usd: usd,
  ...extra,
});

test('cost_update: the estimate adds to the session, and the turn’s last reply carries the turn’s figures', () => {
  const s = fold([
    { type: 'delta', text: 'first', run_id: 'run-1' },
    { type: 'done', run_id: 'run-1' },
    { type: 'delta', text: 'second', run_id: 'run-2' },
    cost('run-2', 0.0125, { turn_requests: 3, turn_tokens_in: 900, turn_tokens_out: 60 }),
    { type: 'done', run_id: 'run-2' },
  ]);
  assert.equal(s.usage.costUsd, 0.0125);
  assert.equal(s.usage.costUnknown, undefined);
  const [first, second] = replies(s);
  assert.equal(first.turnCost, undefined);
  assert.deepEqual(second.turnCost, { usd: 0.0125, requests: 3, tokensIn: 900, tokensOut: 60 });
});

test('cost_update with a null estimate (an unknown price, or upstream’s core): no cost, the session marked partial', () => {
  const s = fold([{ type: 'delta', text: 'a', run_id: 'run-1' }, cost('run-1', null)]);
  assert.equal(s.usage.costUsd, undefined, 'never a made-up $0');
  assert.equal(s.usage.costUnknown, true);
  // Upstream's fields only: the last request's tokens, and no claim about how many requests the turn made.
  assert.deepEqual(replies(s)[0].turnCost, { usd: null, tokensIn: 300, tokensOut: 20 });
  const later = fold([{ type: 'delta', text: 'b', run_id: 'run-2' }, cost('run-2', 0.5)], s);
  assert.equal(later.usage.costUsd, 0.5);
  assert.equal(later.usage.costUnknown, true, 'the sum still leaves the unpriced turn out');
});

test('subagent_done: the child’s own cost shows on its row and adds to the session once', () => {
  const start: WireEvent = {
    type: 'subagent_start',
    run_id: 'run-1-0',
    mode: 'single',
    agent: 'worker',
    agents: ['worker'],
    task: 't',
    depth: 1,
    started_at: 1,
    parent_run_id: 'run-1',
  };
  const done: WireEvent = {
    type: 'subagent_done',
    run_id: 'run-1-0',
    state: 'completed',
    duration_ms: 5,
    ended_at: 2,
    estimated_usd: 0.002,
  };
  const s = fold([start, done, done]);
  const row = s.items.find((i): i is SubagentItem => i.kind === 'subagent')!;
  assert.equal(row.costUsd, 0.002);
  assert.equal(s.usage.costUsd, 0.002);
  const unpriced = fold([start, { ...done, estimated_usd: null }]);
  assert.equal(unpriced.items.find((i): i is SubagentItem => i.kind === 'subagent')!.costUsd, null);
  assert.equal(unpriced.usage.costUsd, undefined);
  assert.equal(unpriced.usage.costUnknown, true);
});

test('stats from our core set the session’s cost (a reloaded session’s total); upstream’s stats, with none, keep it', () => {
  const stats = (extra: Record<string, unknown>): WireEvent => ({ type: 'stats', tokens_in: 1, tokens_out: 2, total_in: 3, ...extra });
  const row = (usd: number | null) => ({
    model: 'm',
    provider: 'p',
    requests: 1,
    tokens_in: 1,
    tokens_out: 1,
    cached_tokens: 0,
    estimated_usd: usd,
  });
  const reloaded = fold([{ type: 'reset' }, stats({ estimated_usd: 0.42, by_model: [row(0.42)] })]);
  assert.equal(reloaded.usage.costUsd, 0.42);
  assert.equal(reloaded.usage.costUnknown, undefined);
  const afterTurn = fold([cost('run-1', 0.1), stats({ estimated_usd: 0.52 })], reloaded);
  assert.equal(afterTurn.usage.costUsd, 0.52, 'the core’s total, not the turn added twice');
  const partly = fold([stats({ estimated_usd: null, by_model: [row(0.3), row(null)] })]);
  assert.deepEqual([partly.usage.costUsd, partly.usage.costUnknown], [0.3, true]);
  const unpriced = fold([stats({ estimated_usd: null, by_model: [row(null)] })]);
  assert.deepEqual([unpriced.usage.costUsd, unpriced.usage.costUnknown], [undefined, true]);
  const upstream = fold([stats({})], afterTurn);
  assert.equal(upstream.usage.costUsd, 0.52);
});

test('a replayed history puts each turn’s cost on the reply it names; a bad or missing index shows none', () => {
  const history: WireEvent = {
    type: 'history',
    tokens_in: 0,
    messages: [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First.' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'Second.' },
    ],
    turn_costs: [
      { message_index: 1, estimated_usd: 0.004, requests: 2, tokens_in: 900, tokens_out: 40 },
      { message_index: 3, estimated_usd: null, requests: 1, tokens_in: 500, tokens_out: 5 },
      { message_index: 2, estimated_usd: 9, requests: 1, tokens_in: 1, tokens_out: 1 },
      { message_index: 'x', estimated_usd: 9, requests: 1, tokens_in: 1, tokens_out: 1 },
    ],
  } as WireEvent;
  const s = fold([history]);
  assert.deepEqual(
    replies(s).map((r) => [r.text, r.turnCost]),
    [
      ['First.', { usd: 0.004, requests: 2, tokensIn: 900, tokensOut: 40 }],
      ['Second.', { usd: null, requests: 1, tokensIn: 500, tokensOut: 5 }],
    ],
  );
  assert.equal(s.items.filter((i) => 'turnCost' in i).length, 2, 'the user message at index 2 gets none');
  assert.deepEqual(
    replies(fold([{ ...history, turn_costs: undefined } as WireEvent])).map((r) => r.turnCost),
    [undefined, undefined],
  );
});

test('the stats view breaks the cost down by model; an unknown price reads "price unknown", never $0', () => {
  const md = formatStatsMarkdown(initialSessionState(), {
    type: 'stats',
    tokens_in: 1,
    tokens_out: 2,
    total_in: 3,
    tokens_total: 5,
    cached_tokens: 0,
    cache_hit_ratio: 0,
    turns: 1,
    compactions: 0,
    messages: 2,
    session_file: '',
    estimated_usd: null,
    by_model: [
      { model: 'gpt-4.1', provider: 'openai', requests: 2, tokens_in: 2300, tokens_out: 70, cached_tokens: 1200, estimated_usd: 0.00335 },
      { model: 'local', provider: 'lab', requests: 1, tokens_in: 10, tokens_out: 1, cached_tokens: 0, estimated_usd: null },
    ],
  });
  assert.match(md, /\| gpt-4\.1 \(openai\) \| 2 \| 2,300 \| 1,200 \| 70 \| < \$0\.01 \|/);
  assert.match(md, /\| local \(lab\) \| 1 \| 10 \| 0 \| 1 \| price unknown \|/);
  assert.match(md, /Total \(subagents included\): price unknown for some requests/);
  assert.doesNotMatch(md, /\$0\.00/);
});

test('a goal’s cost: what its turns and subagents cost while it was active, kept across goal_state updates', () => {
  const goalState = (phase: string): WireEvent => ({ type: 'goal_state', id: 'goal-1', goal: 'g', phase, concurrency: 1, max_tasks: 2 });
  const before = fold([{ type: 'delta', text: 'x', run_id: 'run-0' }, cost('run-0', 0.25)]);
  const s = fold(
    [goalState('planning'), { type: 'delta', text: 'plan', run_id: 'run-1' }, cost('run-1', 0.01), goalState('running')],
    before,
  );
  assert.equal(s.goal?.costUsd, 0.01, 'the turn before the goal is not the goal’s');
  assert.equal(s.usage.costUsd, 0.26);
  const ended = fold([goalState('done'), { type: 'delta', text: 'after', run_id: 'run-2' }, cost('run-2', 1)], s);
  assert.equal(ended.goal?.costUsd, 0.01, 'nor a turn after it ended');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../providers/types';
import { historyTurnCosts, turnCostRecord } from './historyTurnCosts';
import type { RunRecord } from './sessionTypes';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const reply = (content: string): ChatMessage => ({ role: 'assistant', content });

/** The conversation after each turn, and the `completed` record that turn writes with its cost. */
function turns(...pairs: [string, string, number][]): { messages: ChatMessage[]; runs: RunRecord[] } {
  const messages: ChatMessage[] = [];
  const runs: RunRecord[] = [];
  pairs.forEach(([prompt, answer, usd], i) => {
    messages.push(user(prompt), reply(answer));
    const totals = { estimated_usd: usd, requests: 1, tokens_in: 10, tokens_out: 1 };
    runs.push({
      session_id: 's',
      run_id: `run-${i}`,
      kind: 'turn',
      state: 'completed',
      timestamp_ms: i,
      cost: turnCostRecord(messages, totals),
    });
  });
  return { messages, runs };
}

const usdAt = (messages: ChatMessage[], runs: RunRecord[]) =>
  historyTurnCosts(messages, runs).map((c) => [c.message_index, c.estimated_usd]);

test('each turn’s reply gets its own turn’s cost', () => {
  const { messages, runs } = turns(['a', 'A', 0.1], ['b', 'B', 0.2]);
  assert.deepEqual(usdAt(messages, runs), [
    [1, 0.1],
    [3, 0.2],
  ]);
});

test('an undone turn’s record is passed over, even when the turn after it answered the same prompt with the same text', () => {
  const { messages, runs } = turns(['a', 'A', 0.1], ['b', 'Done.', 0.2], ['b', 'Done.', 0.3]);
  messages.splice(2, 2); // the second turn undone: its messages go, its record stays
  assert.deepEqual(usdAt(messages, runs), [
    [1, 0.1],
    [3, 0.3],
  ]);
});

test('compacted turns (their messages summarized away) and turns without a cost record show nothing', () => {
  const { messages, runs } = turns(['a', 'A', 0.1], ['b', 'B', 0.2]);
  const compacted = [user('[summary of earlier turns]'), reply('ok'), ...messages.slice(2)];
  assert.deepEqual(usdAt(compacted, runs), [[3, 0.2]]);
  const withoutCost = runs.map((r) => ({ ...r, cost: undefined }));
  assert.deepEqual(usdAt(messages, withoutCost), []);
});

test('a turn that ended on a tool call, or made no request, writes no cost record', () => {
  const totals = { estimated_usd: 0.1, requests: 1, tokens_in: 1, tokens_out: 1 };
  const toolCall: ChatMessage = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c', type: 'function', function: { name: 'x', arguments: '{}' } }],
  };
  assert.equal(turnCostRecord([user('a'), toolCall], totals), undefined);
  assert.equal(turnCostRecord([user('a'), reply('A')], undefined), undefined);
});

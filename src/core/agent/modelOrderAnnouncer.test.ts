import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolOutcome } from '../tools/types';
import { inModelOrder } from './modelOrderAnnouncer';
import type { CallAnnouncer, ToolCall } from './toolGate';

const calls: ToolCall[] = ['a', 'b', 'c'].map((id) => ({ id, name: 'read_file', arguments: '{}' }));
const outcome = (output: string): ToolOutcome => ({ ok: true, output, status: 'success', fileChanges: [] });

function recorder(): { told: string[]; base: CallAnnouncer } {
  const told: string[] = [];
  return {
    told,
    base: { started: (call) => told.push(`start ${call.id}`), finished: (call, o) => told.push(`${call.id}=${o.output}`) },
  };
}

test('results are told in the order of the calls, each once every earlier call has finished; starts pass through', () => {
  const { told, base } = recorder();
  const ordered = inModelOrder(base, calls);
  for (const call of calls) ordered.started(call, {});
  ordered.finished(calls[2], outcome('3'));
  ordered.finished(calls[1], outcome('2'));
  assert.deepEqual(told, ['start a', 'start b', 'start c'], 'nothing is told before the first call finished');
  ordered.finished(calls[0], outcome('1'));
  assert.deepEqual(told.slice(3), ['a=1', 'b=2', 'c=3']);
});

test('a call finishing in order is told at once; a call outside the wave passes straight through', () => {
  const { told, base } = recorder();
  const ordered = inModelOrder(base, calls);
  ordered.finished(calls[0], outcome('1'));
  assert.deepEqual(told, ['a=1']);
  ordered.finished({ id: 'z', name: 'read_file', arguments: '{}' }, outcome('z'));
  assert.deepEqual(told, ['a=1', 'z=z']);
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES, TOOL_ERROR_KINDS } from './types';
import { SERVER_EVENT_TYPES, TERMINAL_TURN_EVENT_TYPES, carriesSeq, isServerEventType } from './serverEvents';
import { PROTOCOL_VERSION } from './constants';

describe('SCV server event catalog', () => {
  test('all 27 event types of 0.3.14 (its 28 ServerEvent variants less Unknown)', () => {
    assert.equal(SERVER_EVENT_TYPES.length, 27);
    assert.equal(new Set(SERVER_EVENT_TYPES).size, 27);
    for (const t of ['turn.started', 'tool.progress', 'background.reported', 'background.updated', 'queue.dequeued', 'error'])
      assert.ok(isServerEventType(t), t);
  });

  test('unknown and inherited names are not event types', () => {
    assert.equal(isServerEventType('turn.paused'), false);
    assert.equal(isServerEventType('toString'), false);
    assert.equal(isServerEventType('unknown'), false);
  });

  test('only the handshake answers, daemon.status and error carry no seq', () => {
    const withoutSeq = SERVER_EVENT_TYPES.filter((t) => !carriesSeq(t)).sort();
    assert.deepEqual(withoutSeq, ['daemon.status', 'error', 'initialized', 'session.started']);
  });

  test('terminal events, version, codes', () => {
    assert.deepEqual([...TERMINAL_TURN_EVENT_TYPES].sort(), ['turn.cancelled', 'turn.completed', 'turn.failed']);
    assert.equal(PROTOCOL_VERSION, 3);
    assert.ok(ERROR_CODES.includes('queue_conflict') && ERROR_CODES.includes('version_mismatch'));
    assert.deepEqual([...TOOL_ERROR_KINDS].sort(), [
      'cancelled',
      'denied',
      'failed',
      'invalid_arguments',
      'limit',
      'unavailable',
      'unknown',
      'unknown_tool',
    ]);
  });
});

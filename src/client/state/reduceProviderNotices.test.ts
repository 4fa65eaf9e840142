import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import { sessionReducer } from './sessionReducer';

test('models_refreshed is a quiet notice with the count', () => {
  const s = sessionReducer(initialSessionState(), { type: 'models_refreshed', count: 3, providers: { a: ['x', 'y'], b: ['z'] } });
  const notice = s.items.at(-1);
  assert.equal(notice?.kind, 'notice');
  assert.deepEqual(notice && 'text' in notice ? [notice.level, notice.text] : [], ['info', 'Models refreshed: 3 models']);
});

test('an error with rate_limited_until keeps it for the status bar and still shows the error', () => {
  const s = sessionReducer(initialSessionState(), {
    type: 'error',
    code: 'provider_error',
    message: 'HTTP 429 from p — rate limited until 07:10 (in 10m)',
    rate_limited_until: 1893456000,
  });
  assert.equal(s.rateLimitedUntil, 1893456000);
  const notice = s.items.at(-1);
  assert.ok(notice && 'text' in notice && notice.text.includes('rate limited until 07:10'));
  const plain = sessionReducer(initialSessionState(), { type: 'error', message: 'boom' });
  assert.equal(plain.rateLimitedUntil, undefined);
});

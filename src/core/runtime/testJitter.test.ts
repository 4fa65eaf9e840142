import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jittered, jitterMsFrom, releaseAtCommand, startJittered, TEST_JITTER_ENV } from './testJitter';

test('jitter is off unless the variable holds a positive number', () => {
  assert.equal(jitterMsFrom({}), 0);
  for (const value of ['', '0', '-5', 'abc', 'Infinity']) assert.equal(jitterMsFrom({ [TEST_JITTER_ENV]: value }), 0, value);
  assert.equal(jitterMsFrom({ [TEST_JITTER_ENV]: '40' }), 40);
});

test('off, jittered returns the very function and startJittered starts the task at once', async () => {
  const fn = (): void => undefined;
  assert.equal(jittered(fn, 0), fn);
  let started = false;
  const done = startJittered(async () => (started = true), 0);
  assert.equal(started, true, 'started synchronously');
  assert.equal(await done, true);
});

test('on, the call and the task happen later, never in the caller’s own tick', async () => {
  const calls: string[] = [];
  const called = new Promise<void>((resolve) => jittered((x: string) => (calls.push(x), resolve()), 5)('a'));
  const task = startJittered(async () => calls.push('task'), 5);
  assert.deepEqual(calls, [], 'nothing ran synchronously');
  await Promise.all([called, task]);
  assert.deepEqual(calls.sort(), ['a', 'task']);
});

test('on, the next command releases what is held at once, each call once', async () => {
  const calls: string[] = [];
  const fn = jittered((x: string) => calls.push(x), 60_000);
  fn('a');
  fn('b');
  assert.deepEqual(calls, []);
  releaseAtCommand();
  assert.deepEqual(calls, ['a', 'b'], 'released in the order they were held, without waiting for their timers');
  releaseAtCommand();
  assert.deepEqual(calls, ['a', 'b'], 'never twice');
});

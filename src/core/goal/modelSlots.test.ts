import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelSlots } from './modelSlots';

test('a model capped at 1 runs one worker at a time; another model keeps the fallback cap', async () => {
  const slots = new ModelSlots({ small: 1 }, 2);
  const order: string[] = [];
  const first = await slots.acquire('small');
  const second = slots.acquire('small').then((release) => (order.push('second'), release));
  const other1 = await slots.acquire('big');
  const other2 = await slots.acquire('big');
  order.push('big twice');
  first();
  const release = await second;
  assert.deepEqual(order, ['big twice', 'second'], 'the second small worker waited for the first');
  release();
  other1();
  other2();
});

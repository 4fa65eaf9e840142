import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RenderCache } from './renderCache';

test('renders once per source, evicting the least recently used past the size bound', () => {
  const cache = new RenderCache(30);
  const calls: string[] = [];
  const render = (s: string) => {
    calls.push(s);
    return `<${s}>`;
  };
  assert.equal(cache.get('aaaa', render), '<aaaa>');
  assert.equal(cache.get('aaaa', render), '<aaaa>');
  cache.get('bbbb', render);
  cache.get('aaaa', render);
  cache.get('cccc', render);
  cache.get('dddd', render);
  assert.deepEqual(calls, ['aaaa', 'bbbb', 'cccc', 'dddd'], 'hits do not render again');
  cache.get('bbbb', render);
  assert.deepEqual(calls.slice(4), ['bbbb'], 'the least recently used entry was evicted');
  cache.get('dddd', render);
  assert.equal(calls.length, 5, 'a recent entry is kept');
});

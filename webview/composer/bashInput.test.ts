import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bashInputRefusal, parseBashInput } from './bashInput';

test('!cmd keeps the output in the context, !!cmd keeps it out', () => {
  assert.deepEqual(parseBashInput('!git status'), { command: 'git status', excludeFromContext: false });
  assert.deepEqual(parseBashInput('  !!ls -la \n'), { command: 'ls -la', excludeFromContext: true });
  assert.deepEqual(parseBashInput('! echo a\necho b'), { command: 'echo a\necho b', excludeFromContext: false });
  assert.deepEqual(parseBashInput('!!!x'), { command: '!x', excludeFromContext: true });
});

test('text that does not start with ! is a prompt', () => {
  assert.equal(parseBashInput('git status!'), undefined);
  assert.equal(parseBashInput('/compact'), undefined);
  assert.equal(parseBashInput(''), undefined);
});

test('a bare !, images or a running turn keep the text in the composer with a reason', () => {
  assert.match(bashInputRefusal(parseBashInput('!!')!, false, 0)!, /after !/);
  assert.match(bashInputRefusal(parseBashInput('!ls')!, false, 1)!, /no images/);
  assert.match(bashInputRefusal(parseBashInput('!ls')!, true, 0)!, /turn is running/);
  assert.equal(bashInputRefusal(parseBashInput('!ls')!, false, 0), undefined);
});

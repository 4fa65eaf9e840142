import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badCommandField, type FieldSpec } from './commandFields';

const FIELDS: FieldSpec[] = [
  { name: 'prompt', type: 'string', required: true },
  { name: 'provider', type: 'string', required: false },
  { name: 'images', type: 'string[]', required: false },
];

test("serde's words for each kind of wrong value; a wrong type is named before a missing field", () => {
  const problem = (cmd: Record<string, unknown>) => badCommandField(cmd, FIELDS);
  assert.equal(problem({ prompt: 'x' }), undefined);
  assert.equal(problem({ prompt: 'x', provider: null, images: null }), undefined, 'null is an absent optional field');
  assert.equal(problem({ prompt: null }), 'bad command: invalid type: null, expected a string');
  assert.equal(problem({ prompt: 1.5 }), 'bad command: invalid type: floating point `1.5`, expected a string');
  assert.equal(problem({ prompt: -3 }), 'bad command: invalid type: integer `-3`, expected a string');
  assert.equal(problem({ prompt: 'x', images: 'a.png' }), 'bad command: invalid type: string "a.png", expected a sequence');
  assert.equal(problem({ prompt: 'x', images: [{}] }), 'bad command: invalid type: map, expected a string');
  assert.equal(problem({}), 'bad command: missing field `prompt`');
  assert.equal(problem({ provider: true }), 'bad command: invalid type: boolean `true`, expected a string');
});
